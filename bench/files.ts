/**
 * Upload and download of a 25 MB file over HTTP (`POST /v2/file`, `GET /v2/file/{id}/content`)
 * on SQLite (a temporary file) and, with `DATABASE_URL=postgres://…`, on PostgreSQL: the
 * rate of each, and the process's resident memory meanwhile (sampled every 10 ms; the client
 * in the same process streams its body from a 64 KiB buffer and drops what it reads, so the
 * growth is the server's). RSS also holds SQLite's page caches (64 MiB for the writer, 16 MiB
 * for the reader, bounded); the last column is what JavaScript keeps alive meanwhile (a second
 * round, with a collection every 50 ms): what the server holds of the file itself. `npm run bench:files`; `FILE_MB` sets the size (default 25). Use a database of its
 * own for `DATABASE_URL` (the bench migrates it and leaves a workspace in it).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createToken, createWorkspace, insertUsers } from '../src/resources/workspaces/writes.ts';
import { openStore } from '../src/store/database.ts';
import { inProcessApp, table } from './lib.ts';

const MB = 1024 * 1024;
const SIZE = Math.min(Number(process.env.FILE_MB ?? 25), 25) * MB;
const PIECE = 64 * 1024;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** What JavaScript holds alive: its heap and buffers after a collection (garbage aside). */
function jsBytes(collect: boolean): number {
  if (collect) gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/**
 * Runs `fn` while sampling memory; answers its result, the seconds it took, the peak RSS and
 * the peak of what JavaScript holds.
 */
async function measured<T>(
  fn: () => Promise<T>,
  collect: boolean,
): Promise<{ value: T; seconds: number; peak: number; jsPeak: number }> {
  let peak = process.memoryUsage().rss;
  let jsPeak = jsBytes(collect);
  const timer = setInterval(
    () => {
      peak = Math.max(peak, process.memoryUsage().rss);
      jsPeak = Math.max(jsPeak, jsBytes(collect));
    },
    collect ? 50 : 10,
  );
  const start = performance.now();
  try {
    const value = await fn();
    return { value, seconds: (performance.now() - start) / 1000, peak, jsPeak };
  } finally {
    clearInterval(timer);
  }
}

/** Uploads SIZE bytes of a text file as a streamed multipart body; answers the file's id. */
function upload(port: number, token: string): Promise<string> {
  const boundary = 'benchfiles';
  const piece = Buffer.alloc(PIECE, 'salescrm '.repeat(8));
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/v2/file',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'transfer-encoding': 'chunked',
        },
      },
      (res) => {
        let body = '';
        res.on('data', (d) => {
          body += d;
        });
        res.on('end', () =>
          res.statusCode === 201
            ? resolve(JSON.parse(body).data.id)
            : reject(new Error(`upload: ${res.statusCode} ${body}`)),
        );
      },
    );
    req.on('error', reject);
    req.write(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.txt"\r\n\r\n`,
    );
    let sent = 0;
    const pump = () => {
      while (sent < SIZE) {
        const n = Math.min(PIECE, SIZE - sent);
        sent += n;
        if (!req.write(n === PIECE ? piece : piece.subarray(0, n)))
          return void req.once('drain', pump);
      }
      req.end(`\r\n--${boundary}--\r\n`);
    };
    pump();
  });
}

/** Downloads a file, dropping its bytes; answers how many came. */
function download(port: number, token: string, id: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request(
      {
        host: '127.0.0.1',
        port,
        path: `/v2/file/${id}/content`,
        headers: { authorization: `Bearer ${token}` },
      },
      (res) => {
        let bytes = 0;
        res.on('data', (d: Buffer) => {
          bytes += d.length;
        });
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(bytes)
            : reject(new Error(`download: ${res.statusCode}`)),
        );
      },
    )
      .on('error', reject)
      .end();
  });
}

async function run(name: string, url: string): Promise<(string | number)[][]> {
  const store = openStore(url);
  await store.migrate();
  const workspaceId = await createWorkspace(store, `파일 벤치 ${Date.now()}`);
  const [userId] = await store.transaction((trx) =>
    insertUsers(trx, workspaceId, [{ name: '벤치', email: 'bench@example.com', role: 'admin' }]),
  );
  const { token } = await createToken(store, workspaceId, userId!);
  const app = await inProcessApp(store);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  try {
    // A first round, so that the figures are not the code's loading.
    const warm = await upload(port, token);
    await download(port, token, warm);
    const base = process.memoryUsage().rss;
    const jsBase = jsBytes(true);
    // Rates and RSS first; then again, collecting garbage every 50 ms, for what stays alive.
    const up = await measured(() => upload(port, token), false);
    const down = await measured(() => download(port, token, up.value), false);
    if (down.value !== SIZE) throw new Error(`downloaded ${down.value} of ${SIZE} bytes`);
    const upAlive = await measured(() => upload(port, token), true);
    const downAlive = await measured(() => download(port, token, upAlive.value), true);
    up.jsPeak = upAlive.jsPeak;
    down.jsPeak = downAlive.jsPeak;
    const row = (what: string, m: { seconds: number; peak: number; jsPeak: number }) => [
      name,
      what,
      (SIZE / MB / m.seconds).toFixed(1),
      m.seconds.toFixed(2),
      (base / MB).toFixed(0),
      (m.peak / MB).toFixed(0),
      ((m.peak - base) / MB).toFixed(1),
      (jsBase / MB).toFixed(1),
      (m.jsPeak / MB).toFixed(1),
    ];
    return [row('upload', up), row('download', down)];
  } finally {
    await app.close();
    await store.close();
  }
}

const rows: (string | number)[][] = [];
const dir = mkdtempSync(join(tmpdir(), 'salescrm-bench-files-'));
try {
  rows.push(...(await run('sqlite', `sqlite:${join(dir, 'bench.db')}`)));
  const pg = process.env.DATABASE_URL;
  if (pg?.startsWith('postgres')) rows.push(...(await run('postgres', pg)));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(`A ${SIZE / MB} MB file over HTTP (one process: server and streaming client)\n`);
console.log(
  table(
    [
      'store',
      'what',
      'MB/s',
      'seconds',
      'RSS before (MB)',
      'peak RSS (MB)',
      'growth (MB)',
      'alive in JS before (MB)',
      'alive in JS, peak (MB)',
    ],
    rows,
  ),
);

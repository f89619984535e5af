// The receivers of `npm run bench:webhooks`, in a process of their own so that they do not
// take turns with the dispatcher on its event loop: N HTTP servers on 127.0.0.1 that answer
// every POST with 200 and count what they get. The parent talks over IPC:
//   → {t:'reset', keep}            forget what came; keep each receipt's (objectId, time)?
//   → {t:'wait', count}            ← {t:'reached', at, unique, total} once `count` ids came
//   → {t:'report'}                 ← {t:'report', unique, total, receipts}
// and is told {t:'ready', urls} at start. Times are Unix ms with fractions, comparable
// across processes.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const count = Number(process.argv[2] ?? '1');
const epochMs = () => performance.timeOrigin + performance.now();

let ids = new Set<string>();
let total = 0;
let keep = false;
let receipts: [string, number][] = [];
let waiting: { count: number } | undefined;
let lastAt = 0;

function arrived(id: string, body: string, at: number): void {
  total += 1;
  lastAt = at;
  ids.add(id);
  if (keep) receipts.push([(JSON.parse(body) as { objectId: string }).objectId, at]);
  reachedYet();
}

function reachedYet(): void {
  if (waiting && ids.size >= waiting.count) {
    waiting = undefined;
    process.send!({ t: 'reached', at: lastAt, unique: ids.size, total });
  }
}

const urls: string[] = [];
for (let i = 0; i < count; i++) {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      arrived(String(req.headers['webhook-id']), Buffer.concat(chunks).toString('utf8'), epochMs());
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook/${i}`);
}

process.on('message', (message: { t: string; keep?: boolean; count?: number }) => {
  if (message.t === 'reset') {
    ids = new Set();
    total = 0;
    receipts = [];
    keep = message.keep ?? false;
  } else if (message.t === 'wait') {
    waiting = { count: message.count! };
    reachedYet();
  } else if (message.t === 'report') {
    process.send!({ t: 'report', unique: ids.size, total, receipts });
  }
});
process.on('disconnect', () => process.exit(0));
process.send!({ t: 'ready', urls });

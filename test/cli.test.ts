import { execFile, spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, firstAdmin } from '../src/resources/workspaces/writes.ts';
import { openStore, type Store } from '../src/store/database.ts';
import { get, post, testApp } from './helpers.ts';
import { salescrmArgs } from './salescrm-command.ts';

const ROOT = join(import.meta.dirname, '..');
const HAS_DEMO = existsSync(join(ROOT, 'src/ingest/demo/create-workspace.ts'));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI in a child process against `dbPath`, an SQLite file or a database URL (each
 * spawn costs a start-up: test/salescrm-command.ts).
 */
function cli(dbPath: string, args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...salescrmArgs(), ...args],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          DATABASE_URL: dbPath.includes('://') ? dbPath : `sqlite:${dbPath}`,
          LOG_LEVEL: 'silent',
        },
        timeout: 120_000,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/**
 * Runs the CLI with a standard output whose reader has gone before the first line (as
 * `salescrm … | head -0` leaves it): the pipe's read end is closed at once.
 */
function cliReaderGone(dbPath: string, args: string[]): Promise<Omit<Run, 'stdout'>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...salescrmArgs(), ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: `sqlite:${dbPath}`, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stderr }));
  });
}

/** The one JSON line a `--json` command prints. */
function jsonLine(run: Run): Record<string, unknown> {
  const lines = run.stdout.trim().split('\n');
  expect(lines, run.stdout).toHaveLength(1);
  return JSON.parse(lines[0]!) as Record<string, unknown>;
}

describe('cli', { timeout: 120_000 }, () => {
  let dir: string;
  let db: string;
  let store: Store | undefined;
  let workspaceId: string;
  let token: { id: string; token: string };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'salescrm-cli-'));
    db = join(dir, 'cli.db');
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The same database file, opened in this process. */
  function inProcess(): Store {
    store ??= openStore(`sqlite:${db}`);
    return store;
  }

  it('migrate creates the schema in a new file', async () => {
    const run = await cli(db, ['migrate']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('up to date');
    expect(existsSync(db)).toBe(true);
    const tables = await inProcess().db.introspection.getTables();
    expect(tables.map((t) => t.name)).toEqual(
      expect.arrayContaining(['workspaces', 'access_tokens', 'people']),
    );
  });

  it('workspace create NAME --json prints {"workspaceId"}', async () => {
    const run = await cli(db, ['workspace', 'create', '영업 본부', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const out = jsonLine(run);
    expect(Object.keys(out)).toEqual(['workspaceId']);
    workspaceId = out.workspaceId as string;
    const row = await inProcess()
      .db.selectFrom('workspaces')
      .select('name')
      .where('id', '=', workspaceId)
      .executeTakeFirst();
    expect(row?.name).toBe('영업 본부');
    expect(await firstAdmin(inProcess(), workspaceId)).toBeTypeOf('string');
  });

  it('token create --workspace ID --json prints {"id","token"}, and the token works', async () => {
    const run = await cli(db, ['token', 'create', '--workspace', workspaceId, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const out = jsonLine(run);
    expect(Object.keys(out)).toEqual(['id', 'token']);
    token = out as { id: string; token: string };
    expect(token.token.length).toBeGreaterThanOrEqual(43);
    const app = await testApp(inProcess());
    const res = await get(app, token.token, '/v2/people');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, data: { peopleList: [], nextCursor: null } });
    await app.close();
  });

  it('token revoke ID: that token gets 401 from the next request on; token list shows it', async () => {
    const app = await testApp(inProcess());
    expect((await get(app, token.token, '/v2/deal')).status).toBe(200);
    const other = await createToken(
      inProcess(),
      workspaceId,
      (await firstAdmin(inProcess(), workspaceId))!,
    );

    const revoke = await cli(db, ['token', 'revoke', token.id]);
    expect(revoke.code, revoke.stderr).toBe(0);
    const res = await get(app, token.token, '/v2/deal');
    expect(res.status).toBe(401);
    expect(Object.keys(res.json)).toEqual(['success', 'message', 'reason']);
    expect((await get(app, other.token, '/v2/deal')).status).toBe(200);
    await app.close();

    const list = await cli(db, ['token', 'list', '--workspace', workspaceId]);
    expect(list.code, list.stderr).toBe(0);
    const lines = list.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines.find((l) => l.startsWith(token.id))).toMatch(/\trevoked\t/);
    expect(lines.find((l) => l.startsWith(other.id))).toMatch(/\tactive\t/);
    // The list never shows a token's secret.
    expect(list.stdout).not.toContain(token.token);
    expect(list.stdout).not.toContain(other.token);
  });

  it('token create --read-only: the token reads and gets 403 on writes; token list says so', async () => {
    const run = await cli(db, [
      'token',
      'create',
      '--workspace',
      workspaceId,
      '--read-only',
      '--json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const readOnly = jsonLine(run) as { id: string; token: string };
    const app = await testApp(inProcess());
    expect((await get(app, readOnly.token, '/v2/people')).status).toBe(200);
    const write = await post(app, readOnly.token, '/v2/people', { name: '읽기 전용' });
    expect(write.status).toBe(403);
    expect(Object.keys(write.json)).toEqual(['success', 'message', 'reason']);
    await app.close();
    const list = await cli(db, ['token', 'list', '--workspace', workspaceId]);
    const line = list.stdout.split('\n').find((l) => l.startsWith(readOnly.id));
    expect(line).toMatch(/\tactive\tread-only\t/);
  });

  it('mcp without a token exits 2; with an unknown token, 1, and nothing on stdout', async () => {
    const none = await cli(db, ['mcp']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--token');
    const unknown = await cli(db, ['mcp', '--token', 'scrm_nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('유효하지 않거나 폐기된 토큰');
    expect(unknown.stdout).toBe('');
  });

  it('an unreachable database is one line on stderr and exit 1, no stack trace', async () => {
    // Port 1 on the loopback: nothing listens there, so the connection is refused at once.
    const run = await cli('postgres://postgres@127.0.0.1:1/salescrm', ['migrate']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const lines = run.stderr
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('salescrm:'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('the database cannot be reached');
    expect(lines[0]).toContain('ECONNREFUSED');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('an unknown command exits 2 with one line, and nothing on stdout', async () => {
    const run = await cli(db, ['frobnicate']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("salescrm: unknown command 'frobnicate'\n");
    expect(run.stdout).toBe('');
  });

  it("COMMAND --help prints that command's usage, runs nothing and exits 0", async () => {
    // Every command's help is checked in src/cli/program.test.ts; here, the process's.
    const fresh = join(dir, 'help.db');
    for (const args of [
      ['--help'],
      ['migrate', '--help'],
      ['start', '--help'],
      ['demo', '-h'],
      ['help', 'import'],
      ['token', 'create', '--help'],
      ['help', 'webhook', 'add'],
    ]) {
      const run = await cli(fresh, args);
      const words = args.filter((a) => !a.startsWith('-') && a !== 'help').join(' ');
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`^Usage: salescrm ${words}`));
      expect(run.stderr).toBe('');
    }
    // Nothing ran: not even the migration that makes the file.
    expect(existsSync(fresh)).toBe(false);
  });

  it('mistakes get one line that says what to do, never a stack trace', async () => {
    const cases: [string[], number, RegExp][] = [
      [['serv'], 2, /^salescrm: unknown command 'serv' \(Did you mean serve\?\)$/],
      // A command without its subcommand: its usage, on stderr.
      [['token'], 2, /^Usage: salescrm token \[options\] \[command\]$/],
      [['webhook'], 2, /^Usage: salescrm webhook /],
      [['demo', '--people', '-5'], 2, /^salescrm: option '--people <N>' argument '-5' is invalid/],
      [['demo', '--people', 'abc'], 2, /argument 'abc' is invalid\. It must be a whole number/],
      [
        ['demo', '--peeple', '5'],
        2,
        /^salescrm: unknown option '--peeple' \(Did you mean --people\?\)$/,
      ],
      [
        ['token', 'list', '--workspace', '0190aaaa-0000-7000-8000-000000000000'],
        1,
        /no workspace '0190aaaa-/,
      ],
      [
        ['export', '--workspace', workspaceId, join(dir, 'missing', 'x.ndjson')],
        1,
        /^salescrm: cannot write '.*x\.ndjson': no such directory; nothing was exported$/,
      ],
      [
        ['export', '--workspace', workspaceId, dir],
        1,
        /^salescrm: cannot write '.*': it is a directory; nothing was exported$/,
      ],
    ];
    for (const [args, code, message] of cases) {
      const run = await cli(db, args);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(code);
      expect(run.stderr.split('\n')[0]).toMatch(message);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('a reader that stops reading the output (| head) ends the command quietly, exit 0', async () => {
    // Help, written at once; an export, written as the database is read; the types, in one.
    for (const args of [
      ['--help'],
      ['export', '--workspace', workspaceId],
      ['types', '--workspace', workspaceId],
    ]) {
      const run = await cliReaderGone(db, args);
      expect({ args, ...run }).toEqual({ args, code: 0, stderr: '' });
    }
  });

  it('an export that fails leaves no FILE behind', async () => {
    const file = join(dir, 'unknown-workspace.ndjson');
    const run = await cli(db, [
      'export',
      '--workspace',
      '0190aaaa-0000-7000-8000-000000000000',
      file,
    ]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/^salescrm: no workspace with id '0190aaaa-/);
    expect(existsSync(file)).toBe(false);
    // FILE naming something other than a regular file (here a symbolic link; a device such
    // as /dev/stdout, a pipe) is written through and left where it is.
    const target = join(dir, 'link-target.ndjson');
    writeFileSync(target, 'kept\n');
    const link = join(dir, 'link.ndjson');
    symlinkSync(target, link);
    const viaLink = await cli(db, [
      'export',
      '--workspace',
      '0190aaaa-0000-7000-8000-000000000000',
      link,
    ]);
    expect(viaLink.code, viaLink.stderr).toBe(1);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });

  it('a port that is taken is one line naming it, exit 1', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const run = await new Promise<Run>((resolve) => {
        execFile(
          process.execPath,
          [...salescrmArgs(), 'serve'],
          {
            cwd: ROOT,
            env: {
              ...process.env,
              DATABASE_URL: `sqlite:${db}`,
              PORT: String(port),
              HOST: '127.0.0.1',
            },
            timeout: 120_000,
          },
          (error, stdout, stderr) =>
            resolve({ code: error ? Number(error.code) || 1 : 0, stdout, stderr }),
        );
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`cannot listen on 127.0.0.1:${port} (EADDRINUSE`);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    } finally {
      taken.close();
    }
  });

  it('import of a CSV with an unclosed quote is one line naming the file and the cause, exit 1, nothing imported', async () => {
    const file = join(dir, 'people-unclosed.csv');
    writeFileSync(file, '이름,이메일\n"홍길동,hong@example.com\n김철수,kim@example.com\n');
    const run = await cli(db, ['import', '--workspace', workspaceId, file, '--quiet']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).not.toMatch(/\n\s+at /);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^salescrm: .*people-unclosed\.csv: not a readable CSV file: /);
    expect(lines[0]).toContain('Quote Not Closed');
    expect(lines[0]).toContain('nothing was imported');
    const people = await inProcess()
      .db.selectFrom('people')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .execute();
    expect(people).toEqual([]);
  });

  it('token create without --workspace exits 2', async () => {
    const run = await cli(db, ['token', 'create', '--json']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--workspace');
    expect(run.stdout).toBe('');
  });

  it.skipIf(!HAS_DEMO)(
    'demo --people 50 --json prints {"workspaceId","token"}, and the token works',
    async () => {
      const run = await cli(db, ['demo', '--people', '50', '--json']);
      expect(run.code, run.stderr).toBe(0);
      const out = jsonLine(run);
      expect(Object.keys(out)).toEqual(['workspaceId', 'token']);
      const app = await testApp(inProcess());
      const res = await get(app, out.token as string, '/v2/people?limit=100');
      expect(res.status).toBe(200);
      expect(res.json.data.peopleList).toHaveLength(50);
      const deals = await get(app, out.token as string, '/v2/deal?limit=1');
      expect(deals.status).toBe(200);
      const dealId = deals.json.data.dealList[0]?.id as string;
      expect((await get(app, out.token as string, `/v2/deal/${dealId}`)).status).toBe(200);
      // The demo workspace is not the one created above.
      expect(out.workspaceId).not.toBe(workspaceId);
      await app.close();
    },
  );
});

describe('a database path whose directory cannot be made', { timeout: 120_000 }, () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'salescrm-cli-dir-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Expects one `salescrm:` line naming `dbPath` and `cause`, exit 1, no stack trace. */
  function expectOneLine(run: Run, dbPath: string, cause: RegExp): void {
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).not.toMatch(/\n\s+at /);
    const lines = run.stderr.trim().split('\n');
    expect(lines, run.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^salescrm: cannot make the directory of the database file /);
    expect(lines[0]).toContain(dbPath);
    expect(lines[0]).toMatch(cause);
  }

  it('a directory that is a file, or under one: one line, exit 1', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'not a directory');
    for (const dbPath of [join(file, 'x.db'), join(file, 'sub', 'x.db')]) {
      const run = await cli(dbPath, ['migrate']);
      expectOneLine(run, dbPath, new RegExp(`${file} \\(ENOTDIR: a file, not a directory\\)`));
    }
  });

  it("sqlite:/proc/x/y.db fails at once with one line (Node's recursive mkdir loops there for ever)", async () => {
    const run = await cli('/proc/salescrm-test/y.db', ['migrate']);
    expectOneLine(run, '/proc/salescrm-test/y.db', /\/proc\/salescrm-test \(ENOENT: /);
  });

  it('a directory this user may not write in (EACCES): one line, exit 1', async () => {
    // Root may write anywhere: as root, the command runs as nobody (uid 65534).
    const locked = join(dir, 'locked');
    mkdirSync(locked);
    chmodSync(dir, 0o755);
    chmodSync(locked, 0o555);
    const dbPath = join(locked, 'sub', 'x.db');
    const asNobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    // A temporary directory the command may write in (tsx keeps its compile cache there),
    // whoever owns the one this run was given.
    const scratch = join(dir, 'tmp');
    mkdirSync(scratch);
    chmodSync(scratch, 0o1777);
    const run = await new Promise<Run>((resolve) => {
      execFile(
        process.execPath,
        [...salescrmArgs(), 'migrate'],
        {
          cwd: ROOT,
          env: {
            ...process.env,
            DATABASE_URL: `sqlite:${dbPath}`,
            LOG_LEVEL: 'silent',
            TMPDIR: scratch,
          },
          timeout: 120_000,
          ...asNobody,
        },
        (error, stdout, stderr) =>
          resolve({
            code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
            stdout,
            stderr,
          }),
      );
    });
    expectOneLine(
      run,
      dbPath,
      new RegExp(`${join(locked, 'sub')} \\(EACCES: permission denied\\)`),
    );
    expect(existsSync(join(locked, 'sub'))).toBe(false);
  });
});

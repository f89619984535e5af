/**
 * `salescrm pull` on the command line: a copy made with `--json`, the summary on a run
 * without it, and each mistake in one line (a token the source refuses, a URL that is not
 * this API, a URL that is not one).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoWorkspace } from '../src/ingest/demo/create-workspace.ts';
import { openStore, type Store } from '../src/store/database.ts';
import { listen } from './client-server.ts';
import { get, testApp } from './helpers.ts';
import { salescrmArgs } from './salescrm-command.ts';

const ROOT = join(import.meta.dirname, '..');

describe('salescrm pull', { timeout: 120_000 }, () => {
  let dir: string;
  let source: Store;
  let sourceApp: FastifyInstance;
  let url: string;
  let token: string;
  let notApi: Server;
  let notApiUrl: string;
  const target = () => `sqlite:${join(dir, 'copy.db')}`;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'salescrm-pull-cli-'));
    source = openStore(`sqlite:${join(dir, 'source.db')}`);
    await source.migrate();
    ({ token } = await createDemoWorkspace(source, { seed: 2, people: 20 }));
    sourceApp = await testApp(source);
    url = await listen(sourceApp);
    notApi = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html><body>Not Found</body></html>');
    });
    await new Promise<void>((resolve) => notApi.listen(0, '127.0.0.1', resolve));
    notApiUrl = `http://127.0.0.1:${(notApi.address() as AddressInfo).port}`;
  }, 120_000);
  afterAll(async () => {
    await sourceApp?.close();
    await source?.close();
    await new Promise((resolve) => notApi?.close(resolve));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        [...salescrmArgs(), 'pull', '--state', join(dir, 'state'), ...args],
        { cwd: ROOT, env: { ...process.env, DATABASE_URL: target() }, timeout: 100_000 },
        (error, stdout, stderr) =>
          resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
  }

  it('makes a copy and prints {"workspaceId","token"}; the token reads the copy as its user', async () => {
    const made = await run(['--from', url, '--token', token, '--json']);
    expect(made.code, made.stderr).toBe(0);
    const { workspaceId, token: copyToken } = JSON.parse(made.stdout.trim());
    const store = openStore(target());
    const app = await testApp(store);
    try {
      const me = await get(app, copyToken, '/v2/user/me');
      const theirs = await get(sourceApp, token, '/v2/user/me');
      expect(me.json.data.user.id).toBe(theirs.json.data.user.id);
      expect(me.json.data.user.room.id).toBe(workspaceId);
      const people = await get(app, copyToken, '/v2/people?limit=100');
      expect(people.json.data.peopleList).toHaveLength(20);
    } finally {
      await app.close();
      await store.close();
    }
    // Again, into that copy: a summary, no new token.
    const again = await run(['--from', url, '--token', token, '--workspace', workspaceId]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.trim()).toBe(`workspace: ${workspaceId}`);
    expect(again.stderr).toMatch(/^pulled \d+ records into workspace /m);
    expect(again.stderr).toMatch(/^requests \d+, 429 answers 0, retried 0$/m);
    expect(again.stderr).toMatch(
      /^not carried over: (\w+ \d+(, \w+ \d+)*; )?custom field settings/m,
    );
  });

  it('says in one line that the source refuses the token', async () => {
    const r = await run(['--from', url, '--token', 'scrm_wrong', '--json']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')[0]).toMatch(
      /^salescrm: pull: the source refused the token \(401\)/,
    );
  });

  it('says in one line that the URL does not serve this API, or is not a URL', async () => {
    const r = await run(['--from', notApiUrl, '--token', token]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')[0]).toBe(
      `salescrm: pull: ${notApiUrl} does not serve this API (GET /v2/user/me answered 404)`,
    );
    const bad = await run(['--from', 'nowhere', '--token', token]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe('salescrm: pull: --from is not an http(s) URL: nowhere');
    // An empty token is a mistake on the command line, not a stack trace.
    const empty = await run(['--from', url, '--token', '']);
    expect(empty.code).toBe(2);
    expect(empty.stderr.trim()).toBe(
      "salescrm: pull: --token is empty: give a token of the source's workspace",
    );
    // Nothing listening: unreachable, not "does not serve this API".
    const closed = await run(['--from', 'http://127.0.0.1:9', '--token', token]);
    expect(closed.code).toBe(1);
    expect(closed.stderr.trim().split('\n')[0]).toMatch(
      /^salescrm: pull: http:\/\/127\.0\.0\.1:9 cannot be read: connection failed/,
    );
  });

  it('refuses a copy that does not exist', async () => {
    const r = await run(['--from', url, '--token', token, '--workspace', 'nope']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe("salescrm: no workspace 'nope'");
  });

  it('--listen: a usage error without --follow or with a bad address; a webhook URL the source refuses in one line', async () => {
    const alone = await run(['--from', url, '--token', token, '--listen', '127.0.0.1:0']);
    expect(alone.code).toBe(2);
    expect(alone.stderr.trim()).toBe('salescrm: pull: --listen and --public-url go with --follow');
    const bad = await run(['--from', url, '--token', token, '--follow', '--listen', 'nowhere']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('It must be HOST:PORT');
    // The source does not post to loopback addresses (no WEBHOOK_ALLOW_PRIVATE).
    const refused = await run([
      '--from',
      url,
      '--token',
      token,
      '--follow',
      '--listen',
      '127.0.0.1:0',
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim().split('\n')[0]).toMatch(
      /^salescrm: pull: the source refused to register a webhook for http:\/\/127\.0\.0\.1:\d+\/ \(400\): /,
    );
  });
});

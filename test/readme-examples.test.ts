/**
 * The README's shell examples, run as they are written (with the URL of a test server and a
 * demo workspace's token), in order: each must exit 0 and every answer it prints must be a
 * success, so a changed answer or a wrong example fails here first.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoWorkspace } from '../src/ingest/demo/create-workspace.ts';
import { listen } from './client-server.ts';
import { type TestStore, testApp, testStore } from './helpers.ts';

const README = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');

/** The README's `sh` blocks that call the API. */
const EXAMPLES = [...README.matchAll(/```sh\n([\s\S]*?)```/g)]
  .map((m) => m[1]!)
  .filter((block) => block.includes('curl '));

/** The JSON documents a run printed, one after another. */
function answers(stdout: string): Record<string, unknown>[] {
  const text = stdout.trim().replace(/}\s*{"success"/g, '}\n{"success"');
  return text === '' ? [] : text.split('\n').map((line) => JSON.parse(line));
}

describe('the README examples', () => {
  let store: TestStore;
  let app: FastifyInstance;
  let url: string;
  let token: string;

  beforeAll(async () => {
    store = await testStore();
    token = (await createDemoWorkspace(store, { seed: 5, people: 30 })).token;
    app = await testApp(store);
    url = await listen(app);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await store?.dispose();
  });

  it('has examples to run', () => {
    expect(EXAMPLES.length).toBeGreaterThanOrEqual(3);
  });

  it.each(EXAMPLES.map((block, i) => [i + 1, block]))(
    'example %i runs against a demo workspace and answers success',
    async (_n, block) => {
      const script = String(block)
        .split('\n')
        .filter((line) => !line.startsWith('TOKEN='))
        .join('\n')
        .replaceAll('http://127.0.0.1:3000', url);
      // Asynchronously: the server answering the examples runs in this process.
      const { stdout } = await promisify(execFile)('bash', ['-eo', 'pipefail', '-c', script], {
        env: { ...process.env, TOKEN: token },
        encoding: 'utf8',
        timeout: 30_000,
      });
      const printed = answers(stdout);
      expect(printed.length, stdout).toBeGreaterThan(0);
      for (const answer of printed) expect(answer, stdout).toMatchObject({ success: true });
    },
  );
});

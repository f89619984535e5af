/**
 * The shell examples of the README and of docs/api.md, run as they are written (with the URL
 * of a test server and a demo workspace's token), in order: each must exit 0 and every
 * answer it prints must be a success, so a changed answer or a wrong example fails here
 * first. The README's webhook example registers examples/webhook-receiver.ts, started here
 * where the README starts it (port 4000), on a server that lets webhooks reach loopback
 * (`WEBHOOK_ALLOW_PRIVATE=1`, as the README runs it).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoWorkspace } from '../src/ingest/demo/create-workspace.ts';
import { START_MS } from './budgets.ts';
import { listen } from './client-server.ts';
import { type TestStore, testApp, testStore } from './helpers.ts';

const ROOT = join(import.meta.dirname, '..');
/** The documents whose examples run, in this order. */
const DOCUMENTS = ['README.md', 'docs/api.md'];
/** Where the README's examples find the service and the example webhook receiver. */
const SERVICE_URL = 'http://127.0.0.1:3000';
const RECEIVER_URL = 'http://127.0.0.1:4000/';

/** A document's `sh` blocks that call the API. */
function examples(document: string): string[] {
  const text = readFileSync(join(ROOT, document), 'utf8');
  return [...text.matchAll(/```sh\n([\s\S]*?)```/g)]
    .map((m) => m[1]!)
    .filter((block) => block.includes('curl '));
}

const EXAMPLES = DOCUMENTS.flatMap((document) =>
  examples(document).map((block, i) => [`${document} example ${i + 1}`, block] as const),
);

/** The JSON documents a run printed, one after another. */
function answers(stdout: string): Record<string, unknown>[] {
  const text = stdout.trim().replace(/}\s*{"(success|jsonrpc)"/g, '}\n{"$1"');
  return text === '' ? [] : text.split('\n').map((line) => JSON.parse(line));
}

/** Whether an answer is a success: the API's `success: true`, or a JSON-RPC result. */
function succeeded(answer: Record<string, unknown>): boolean {
  if ('jsonrpc' in answer) return 'result' in answer && !('error' in answer);
  return answer.success === true;
}

/** Starts examples/webhook-receiver.ts on a free port; the process and its URL. */
async function startReceiver(): Promise<{ process: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=salescrm-source', 'examples/webhook-receiver.ts'],
    { cwd: ROOT, env: { ...process.env, PORT: '0', WEBHOOK_SECRET: '' } },
  );
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const found = /listening on (\S+)/.exec(output);
      if (found) resolve(found[1]!);
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`the receiver exited (${code}):\n${output}`)));
  });
  return { process: child, url };
}

describe('the examples of the README and docs/api.md', () => {
  let store: TestStore;
  let app: FastifyInstance;
  let url: string;
  let token: string;
  let receiver: { process: ChildProcess; url: string } | undefined;

  beforeAll(async () => {
    store = await testStore();
    token = (await createDemoWorkspace(store, { seed: 5, people: 30 })).token;
    app = await testApp(store, { webhookAllowPrivate: true });
    url = await listen(app);
    receiver = await startReceiver();
  }, 120_000);
  afterAll(async () => {
    receiver?.process.kill('SIGTERM');
    await app?.close();
    await store?.dispose();
  });

  it('has examples to run in each document, the webhook registration among them', () => {
    for (const document of DOCUMENTS) expect(examples(document).length).toBeGreaterThan(0);
    expect(EXAMPLES.length).toBeGreaterThanOrEqual(6);
    expect(EXAMPLES.some(([, block]) => block.includes(RECEIVER_URL))).toBe(true);
  });

  it.each(EXAMPLES)(
    '%s runs against a demo workspace and answers success',
    async (_name, block) => {
      const script = block
        .split('\n')
        .filter((line) => !line.startsWith('TOKEN='))
        .join('\n')
        .replaceAll(SERVICE_URL, url)
        .replaceAll(RECEIVER_URL, receiver!.url);
      // Asynchronously: the server answering the examples runs in this process.
      const { stdout } = await promisify(execFile)('bash', ['-eo', 'pipefail', '-c', script], {
        env: { ...process.env, TOKEN: token },
        encoding: 'utf8',
        timeout: START_MS,
      });
      const printed = answers(stdout);
      expect(printed.length, stdout).toBeGreaterThan(0);
      for (const answer of printed) expect(succeeded(answer), stdout).toBe(true);
    },
  );
});

import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventPayload } from '../src/domain/events.ts';
import { newWebhookSecret, webhookHeaders } from '../src/domain/webhook-signature.ts';

// examples/webhook-receiver.ts as `npm run example:webhook-receiver` runs it, fed deliveries
// signed by the server's code.

const ROOT = join(import.meta.dirname, '..');
const SECRET = newWebhookSecret();

let receiver: ChildProcess;
let url: string;
let output = '';

/** Waits until the receiver's output has a line matching `pattern`. */
async function printed(pattern: RegExp): Promise<string> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const line = output.split('\n').find((l) => pattern.test(l));
    if (line !== undefined) return line;
    if (Date.now() > deadline) throw new Error(`no line ${pattern} in:\n${output}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** POSTs `body` with `headers` to the receiver; its status and text. */
async function post(body: string, headers: Record<string, string>) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: response.status, text: await response.text() };
}

beforeAll(async () => {
  receiver = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=salescrm-source', 'examples/webhook-receiver.ts'],
    {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', WEBHOOK_SECRET: `${newWebhookSecret()} ${SECRET}` },
    },
  );
  receiver.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  receiver.stderr!.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  url = (await printed(/listening on /)).replace(/.*listening on /, '').trim();
});

afterAll(() => {
  receiver?.kill('SIGTERM');
});

describe('examples/webhook-receiver.ts', () => {
  const body = eventPayload({
    event: '수정',
    occurredAt: '2024-04-08T05:25:26.020Z',
    actor: { source: 'API', sourceId: 'u1' },
    objectType: 'deal',
    objectId: 'd1',
    eventId: 'e1',
    field: { name: '금액', before: 1000, after: 2500 },
  });
  const now = () => Math.floor(Date.now() / 1000);

  it('answers 204 to a signed delivery and logs its event, once per delivery id', async () => {
    const headers = webhookHeaders('msg_a', now(), body, [SECRET]);
    expect(await post(body, headers)).toEqual({ status: 204, text: '' });
    expect(await printed(/수정 딜 d1 금액: 1000 → 2500/)).toContain('delivery msg_a');
    expect((await post(body, headers)).status).toBe(204);
    await printed(/delivery msg_a again: skipped/);
  });

  it('refuses a delivery whose signature does not match', async () => {
    const headers = webhookHeaders('msg_b', now(), body, [newWebhookSecret()]);
    expect(await post(body, headers)).toEqual({ status: 400, text: 'no_matching_signature' });
    const old = webhookHeaders('msg_c', now() - 3600, body, [SECRET]);
    expect(await post(body, old)).toEqual({ status: 400, text: 'expired' });
    expect((await post(body, {})).status).toBe(400);
  });

  it('answers the verification ping, signed with a secret it knows or not', async () => {
    const ping = JSON.stringify({ event: 'verify', webhookId: 'w1' });
    expect((await post(ping, webhookHeaders('msg_d', now(), ping, [SECRET]))).status).toBe(204);
    await printed(/verification ping of webhook w1/);
    const unknown = webhookHeaders('msg_e', now(), ping, [newWebhookSecret()]);
    expect((await post(ping, unknown)).status).toBe(204);
  });

  it('takes only POST', async () => {
    expect((await fetch(url)).status).toBe(405);
  });
});

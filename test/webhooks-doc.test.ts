import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TObject } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { registerFormats } from '../src/api-schema/formats.ts';
import { keysOf } from '../src/api-schema/records/common.ts';
import {
  EventFeedItem,
  EventPayload,
  WebhookVerifyPayload,
} from '../src/api-schema/records/events.ts';
import { verifyWebhook } from '../src/client/index.ts';
import { newWebhookSecret, webhookHeaders } from '../src/domain/webhook-signature.ts';

// docs/webhooks.md against the code: its payload examples fit the event schemas, key for key
// and in order; its example delivery verifies with its example secret; and its Python
// verifier accepts what the server signs and refuses what it must.

registerFormats();
const DOC = readFileSync(join(import.meta.dirname, '..', 'docs/webhooks.md'), 'utf8');

/** The code blocks of the document in `language` ('' for blocks without one). */
function blocks(language: string): string[] {
  const found: string[] = [];
  let open: { language: string; lines: string[] } | undefined;
  for (const line of DOC.split('\n')) {
    if (!line.startsWith('```')) open?.lines.push(line);
    else if (open === undefined) open = { language: line.slice(3).trim(), lines: [] };
    else {
      if (open.language === language) found.push(`${open.lines.join('\n')}\n`);
      open = undefined;
    }
  }
  return found;
}

/**
 * The member of `members` for a payload: its topic's, a custom object's when it names a
 * definition.
 */
function memberOf(members: readonly TObject[], payload: Record<string, unknown>): TObject {
  const custom = 'customObjectDefinitionId' in payload;
  const member = members.find(
    (s) =>
      s.properties.event!.const === payload.event &&
      'customObjectDefinitionId' in s.properties === custom,
  );
  if (!member) throw new Error(`no schema for event ${String(payload.event)}`);
  return member;
}

/** The schema of a payload: the verification ping's, or the topic's member of the union. */
function schemaOf(payload: Record<string, unknown>): TObject {
  if (payload.event === 'verify') return WebhookVerifyPayload;
  return memberOf(EventPayload.anyOf, payload);
}

function expectFits(schema: TObject, value: Record<string, unknown>): void {
  expect(Object.keys(value)).toEqual(keysOf(schema));
  expect([...Value.Errors(schema, value)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
}

describe('docs/webhooks.md', () => {
  const json = blocks('json').map((text) => JSON.parse(text) as Record<string, unknown>);

  it('shows payloads that fit the event schemas', () => {
    const payloads = json.filter((value) => 'event' in value);
    expect(payloads.map((p) => p.event)).toEqual(
      expect.arrayContaining(['생성', '수정', '삭제', '병합', 'verify']),
    );
    for (const payload of payloads) expectFits(schemaOf(payload), payload);
  });

  it('shows feed items that fit the feed schema', () => {
    const feed = json.find((value) => (value.data as { eventList?: unknown })?.eventList);
    const items = (feed!.data as { eventList: Record<string, unknown>[] }).eventList;
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) {
      expectFits(memberOf(EventFeedItem.anyOf, item), item);
    }
  });

  it('shows a delivery that verifies with the secret it names', async () => {
    const http = blocks('').find((b) => b.includes('webhook-signature:'))!;
    const headers = Object.fromEntries(
      http
        .split('\n')
        .filter((line) => line.startsWith('webhook-'))
        .map((line) => line.split(': ') as [string, string]),
    );
    const deleted = json.find((v) => v.event === '삭제' && v.objectType === '딜')!;
    const registered = json.find((v) => (v.data as { webhook?: unknown })?.webhook)!;
    const { secret } = (registered.data as { webhook: { secret: string } }).webhook;
    const now = () => Number(headers['webhook-timestamp']) * 1000;
    const event = await verifyWebhook(JSON.stringify(deleted), headers, secret, { now });
    expect(event).toEqual(deleted);
  });

  const python = spawnSync('python3', ['--version']).status === 0;
  it.skipIf(!python)('has a Python verifier that checks what the server signs', () => {
    const code = blocks('python');
    expect(code).toHaveLength(1);
    const body = JSON.stringify(json.find((v) => v.event === '수정'));
    const [secret, other] = [newWebhookSecret(), newWebhookSecret()];
    const at = Math.floor(Date.now() / 1000);
    const cases = {
      signed: webhookHeaders('msg_1', at, body, [secret]),
      rotation: webhookHeaders('msg_2', at, body, [other, secret]),
      old: webhookHeaders('msg_3', at - 400, body, [secret]),
      future: webhookHeaders('msg_4', at + 400, body, [secret]),
    };
    const dir = mkdtempSync(join(tmpdir(), 'webhooks-doc-'));
    try {
      writeFileSync(join(dir, 'verify.py'), code[0]!);
      writeFileSync(
        join(dir, 'check.py'),
        [
          'import json, sys',
          'from verify import verify_webhook, WebhookVerificationError',
          'd = json.load(sys.stdin)',
          'body = d["body"].encode()',
          'def outcome(b, h, s):',
          '    try:',
          '        return verify_webhook(b, h, s)["event"]',
          '    except WebhookVerificationError as e:',
          '        return e.args[0]',
          'tampered = bytearray(body); tampered[3] ^= 1',
          'c = d["cases"]',
          'print(json.dumps([',
          '    outcome(body, c["signed"], d["secret"]),',
          '    outcome(body, {k.upper(): v for k, v in c["signed"].items()}, d["secret"]),',
          '    outcome(body, c["rotation"], d["secret"]),',
          '    outcome(body, c["rotation"], d["other"]),',
          '    outcome(body, c["signed"], [d["other"], d["secret"]]),',
          '    outcome(body, c["signed"], d["other"]),',
          '    outcome(bytes(tampered), c["signed"], d["secret"]),',
          '    outcome(body, c["old"], d["secret"]),',
          '    outcome(body, c["future"], d["secret"]),',
          '    outcome(body, {**c["signed"], "webhook-timestamp": "12a"}, d["secret"]),',
          '    outcome(body, {"webhook-id": "msg_1"}, d["secret"]),',
          ']))',
        ].join('\n'),
      );
      const out = execFileSync('python3', ['check.py'], {
        cwd: dir,
        input: JSON.stringify({ body, secret, other, cases }),
        encoding: 'utf8',
      });
      expect(JSON.parse(out)).toEqual([
        '수정',
        '수정',
        '수정',
        '수정',
        '수정',
        'no_matching_signature',
        'no_matching_signature',
        'expired',
        'expired',
        'bad_timestamp',
        'missing_header',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

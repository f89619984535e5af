import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type RecordUpdatedEvent,
  signWebhookForTest,
  verifyWebhook,
  type WebhookEvent,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from '../src/client/index.ts';
import { eventPayload } from '../src/domain/events.ts';
import { newWebhookSecret, signWebhook, webhookHeaders } from '../src/domain/webhook-signature.ts';
import { importsOf, ROOT, sourceFiles } from './architecture/layers.ts';

// The client's verification against the server's signing (src/domain/webhook-signature.ts):
// what the dispatcher sends verifies, and nothing else does.

const NOW_S = 1_712_553_926;
const now = () => NOW_S * 1000;
const SECRET = newWebhookSecret();
const OTHER = newWebhookSecret();

const BODY = eventPayload({
  event: '수정',
  occurredAt: '2024-04-08T05:25:26.020Z',
  actor: { source: 'API', sourceId: 'u1' },
  objectType: 'deal',
  objectId: 'd1',
  eventId: 'e1',
  field: { name: '파이프라인 단계', before: { id: 's1', name: '신규' }, after: null },
});

/** The headers the dispatcher would send with `body` at `timestamp`, signed with `secrets`. */
function sent(body = BODY, secrets: readonly string[] = [SECRET], timestamp = NOW_S) {
  return webhookHeaders('msg_0190a1b2', timestamp, body, secrets);
}

/** The reason `verifyWebhook` fails with, or 'verified'. */
async function outcome(
  ...args: Parameters<typeof verifyWebhook>
): Promise<WebhookVerificationReason | 'verified'> {
  try {
    await verifyWebhook(...args);
    return 'verified';
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason;
    throw error;
  }
}

describe('verifyWebhook', () => {
  it('verifies what the server signs, and returns the payload', async () => {
    const event = await verifyWebhook(BODY, sent(), SECRET, { now });
    expect(event).toEqual(JSON.parse(BODY));
    expect(Object.keys(event)).toEqual(Object.keys(JSON.parse(BODY)));
  });

  it('fails when one byte of the body changed', async () => {
    const bytes = new TextEncoder().encode(BODY);
    for (const at of [0, 10, bytes.length - 1]) {
      const changed = bytes.slice();
      changed[at]! ^= 1;
      expect(await outcome(changed, sent(), SECRET, { now })).toBe('no_matching_signature');
    }
    expect(await outcome(`${BODY} `, sent(), SECRET, { now })).toBe('no_matching_signature');
  });

  it('fails with a wrong secret, and with a changed id or timestamp', async () => {
    expect(await outcome(BODY, sent(), OTHER, { now })).toBe('no_matching_signature');
    const headers = sent();
    expect(await outcome(BODY, { ...headers, 'webhook-id': 'msg_other' }, SECRET, { now })).toBe(
      'no_matching_signature',
    );
    expect(
      await outcome(BODY, { ...headers, 'webhook-timestamp': String(NOW_S + 1) }, SECRET, {
        now,
      }),
    ).toBe('no_matching_signature');
  });

  it('takes the timestamp within the tolerance either way, and no further', async () => {
    for (const offset of [-300, -1, 0, 1, 300]) {
      const headers = sent(BODY, [SECRET], NOW_S + offset);
      expect(await outcome(BODY, headers, SECRET, { now }), `${offset}`).toBe('verified');
    }
    for (const offset of [-301, -86_400, 301, 86_400 * 365]) {
      const headers = sent(BODY, [SECRET], NOW_S + offset);
      expect(await outcome(BODY, headers, SECRET, { now }), `${offset}`).toBe('expired');
    }
    const old = sent(BODY, [SECRET], NOW_S - 600);
    expect(await outcome(BODY, old, SECRET, { now, toleranceSeconds: 900 })).toBe('verified');
    expect(await outcome(BODY, old, SECRET, { now, toleranceSeconds: 60 })).toBe('expired');
  });

  it('uses the clock when not given one', async () => {
    const headers = sent(BODY, [SECRET], Math.floor(Date.now() / 1000));
    expect(await outcome(BODY, headers, SECRET)).toBe('verified');
    expect(await outcome(BODY, sent(), SECRET)).toBe('expired');
  });

  it('refuses a timestamp that is not Unix seconds', async () => {
    for (const bad of ['', ' ', 'abc', '1712553926.5', '-1712553926', '2024-04-08T05:25:26Z']) {
      const headers = { ...sent(), 'webhook-timestamp': bad };
      const expected = bad.trim() === '' ? 'missing_header' : 'bad_timestamp';
      expect(await outcome(BODY, headers, SECRET, { now }), bad).toBe(expected);
    }
  });

  it('during a rotation verifies the two signatures with either secret', async () => {
    const headers = sent(BODY, [OTHER, SECRET]);
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(await outcome(BODY, headers, SECRET, { now })).toBe('verified');
    expect(await outcome(BODY, headers, OTHER, { now })).toBe('verified');
    expect(await outcome(BODY, headers, [SECRET, OTHER], { now })).toBe('verified');
    expect(await outcome(BODY, headers, newWebhookSecret(), { now })).toBe('no_matching_signature');
  });

  it('takes several secrets, any of which may match one signature', async () => {
    const third = newWebhookSecret();
    expect(await outcome(BODY, sent(), [third, SECRET], { now })).toBe('verified');
    expect(await outcome(BODY, sent(), [third, OTHER], { now })).toBe('no_matching_signature');
  });

  it('names a missing header', async () => {
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
      const headers: Record<string, string | undefined> = { ...sent() };
      delete headers[name];
      const error = await verifyWebhook(BODY, headers, SECRET, { now }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WebhookVerificationError);
      expect((error as WebhookVerificationError).reason).toBe('missing_header');
      expect((error as WebhookVerificationError).message).toContain(name);
      expect((error as WebhookVerificationError).name).toBe('WebhookVerificationError');
      expect(await outcome(BODY, { ...headers, [name]: undefined }, SECRET, { now })).toBe(
        'missing_header',
      );
    }
    expect(await outcome(BODY, {}, SECRET, { now })).toBe('missing_header');
  });

  it('skips signatures of other versions and ones that are not base64', async () => {
    const good = sent()['webhook-signature']!;
    const withOthers = `v2,abc v1a,${good.slice(3)} v1,!!notbase64 v1, ${good}`;
    expect(
      await outcome(BODY, { ...sent(), 'webhook-signature': withOthers }, SECRET, { now }),
    ).toBe('verified');
    const onlyOthers = `v2,${good.slice(3)} v1,!!`;
    expect(
      await outcome(BODY, { ...sent(), 'webhook-signature': onlyOthers }, SECRET, { now }),
    ).toBe('no_matching_signature');
  });

  it('takes Uint8Array and Buffer bodies', async () => {
    const bytes = new TextEncoder().encode(BODY);
    expect(await outcome(bytes, sent(), SECRET, { now })).toBe('verified');
    expect(await outcome(Buffer.from(BODY), sent(), SECRET, { now })).toBe('verified');
    const event = await verifyWebhook(bytes, sent(), SECRET, { now });
    expect(event).toEqual(JSON.parse(BODY));
  });

  it('reads header names in any case, arrays of values, and Headers', async () => {
    const h = sent(BODY, [OTHER, SECRET]);
    const [first, second] = h['webhook-signature']!.split(' ');
    const mixed = {
      'Webhook-Id': h['webhook-id'],
      'WEBHOOK-TIMESTAMP': [h['webhook-timestamp']!],
      'Webhook-Signature': [first!, second!],
      'Content-Type': 'application/json',
    };
    expect(await outcome(BODY, mixed, SECRET, { now })).toBe('verified');
    expect(await outcome(BODY, mixed, OTHER, { now })).toBe('verified');
    expect(await outcome(BODY, new Headers(h), SECRET, { now })).toBe('verified');
    const repeated = new Headers({
      'webhook-id': h['webhook-id']!,
      'webhook-timestamp': h['webhook-timestamp']!,
    });
    repeated.append('webhook-signature', first!);
    repeated.append('webhook-signature', second!);
    expect(await outcome(BODY, repeated, SECRET, { now })).toBe('verified');
    expect(await outcome(BODY, repeated, OTHER, { now })).toBe('verified');
  });

  it('refuses a signed body that is not a JSON event', async () => {
    for (const body of ['not json', '[1,2]', 'null', '{"no":"event"}']) {
      expect(await outcome(body, sent(body), SECRET, { now }), body).toBe('bad_body');
    }
    const invalidUtf8 = new Uint8Array([0x7b, 0xff, 0x7d]);
    const headers = await signWebhookForTest(invalidUtf8, SECRET, { timestamp: NOW_S });
    expect(await outcome(invalidUtf8, headers, SECRET, { now })).toBe('bad_body');
  });

  it('takes a secret without its whsec_ prefix, and refuses one that is not base64', async () => {
    expect(await outcome(BODY, sent(), SECRET.slice('whsec_'.length), { now })).toBe('verified');
    await expect(verifyWebhook(BODY, sent(), 'whsec_not base64!', { now })).rejects.toThrow(
      TypeError,
    );
    await expect(verifyWebhook(BODY, sent(), [], { now })).rejects.toThrow(TypeError);
  });

  it('returns a union narrowed by its topic', async () => {
    const event = await verifyWebhook(BODY, sent(), SECRET, { now });
    expectTypeOf(event).toEqualTypeOf<WebhookEvent>();
    if (event.event === '수정') {
      expectTypeOf(event).toEqualTypeOf<RecordUpdatedEvent>();
      expectTypeOf(event.fieldName).toEqualTypeOf<string>();
      expect(event.fieldName).toBe('파이프라인 단계');
      expect(event.beforeField).toEqual({ id: 's1', name: '신규' });
    } else if (event.event === 'verify') {
      expectTypeOf(event.webhookId).toEqualTypeOf<string>();
    } else {
      expectTypeOf(event.objectType).toEqualTypeOf<
        '고객' | '회사' | '리드' | '딜' | '커스텀 오브젝트'
      >();
      if (event.objectType === '커스텀 오브젝트')
        expectTypeOf(event.customObjectDefinitionId).toEqualTypeOf<string>();
      // @ts-expect-error: only 수정 has fieldName
      void event.fieldName;
    }
  });
});

describe('signWebhookForTest', () => {
  it('builds the headers the server would, which verify', async () => {
    const headers = await signWebhookForTest(BODY, SECRET, { id: 'msg_1', timestamp: NOW_S });
    expect(headers).toEqual(webhookHeaders('msg_1', NOW_S, BODY, [SECRET]));
    expect(await outcome(BODY, headers, SECRET, { now })).toBe('verified');
  });

  it('signs with each of several secrets, as during a rotation', async () => {
    const headers = await signWebhookForTest(BODY, [SECRET, OTHER], {
      id: 'msg_2',
      timestamp: NOW_S,
    });
    expect(headers['webhook-signature']).toBe(signWebhook('msg_2', NOW_S, BODY, [SECRET, OTHER]));
  });

  it('makes an id and takes the time when not given them', async () => {
    const bytes = new TextEncoder().encode(BODY);
    const headers = await signWebhookForTest(bytes, SECRET);
    expect(headers['webhook-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(5);
    expect(await outcome(bytes, headers, SECRET)).toBe('verified');
  });
});

describe('the client stays free of Node', () => {
  it('imports no node: module and no package, only its own files and types', () => {
    const found = sourceFiles(ROOT, 'src/client').flatMap((file) =>
      importsOf(file, readFileSync(join(ROOT, file), 'utf8')),
    );
    expect(found.length).toBeGreaterThan(10);
    const outside = found.filter(
      (i) => i.to === undefined || !(i.to.startsWith('src/client/') || i.typeOnly),
    );
    expect(outside.map((i) => `${i.from}: ${i.specifier}`)).toEqual([]);
  });

  it('names no Node global (Buffer, process, require) in its code', () => {
    const uses = sourceFiles(ROOT, 'src/client').filter((file) => {
      const code = readFileSync(join(ROOT, file), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/\/\/.*$/gm, '');
      return /\b(Buffer|require|__dirname)\b|\bprocess\./.test(code);
    });
    expect(uses).toEqual([]);
  });
});

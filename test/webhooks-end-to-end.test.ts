/**
 * Webhooks end to end (docs/decisions.md, Events and webhooks): a webhook registered through the
 * API, writes through the API, a dispatcher in this process, and a receiver started by the test
 * that verifies every delivery with the client's `verifyWebhook`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook, type WebhookEvent } from '../src/client/index.ts';
import { Dispatcher } from '../src/dispatch/dispatcher.ts';
import { makePipeline } from './factories.ts';
import { appWithWorkspace, post, type TestStore, type TestWorkspace } from './helpers.ts';

type Rec = Record<string, unknown>;

let store: TestStore;
let app: FastifyInstance;
let ws: TestWorkspace;
let receiver: Server;
let url: string;
let secret = '';
const received: { id: string; event: WebhookEvent }[] = [];

appWithWorkspace((made) => ({ store, app, ws } = made), {
  config: { webhookAllowPrivate: true },
  workspace: 'file',
});
beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (JSON.parse(body).event === 'verify') {
        res.writeHead(204).end();
        return;
      }
      try {
        const event = await verifyWebhook(body, req.headers, secret);
        received.push({ id: String(req.headers['webhook-id']), event });
        res.writeHead(204).end();
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  await new Promise((r) => receiver.close(r));
});

async function write(path: string, body: unknown, status = 200): Promise<Rec> {
  const res = await post(app, ws.token, path, body);
  expect(res.status, res.text).toBe(status);
  return res.json.data;
}

/**
 * Runs a dispatcher until every delivery of the workspace is delivered (none pending or
 * failed), then stops it. Waits on that, not on a time: a loaded machine takes what it takes;
 * 25 s only guards against a hang.
 */
async function deliverAll(): Promise<void> {
  const dispatcher = new Dispatcher(store, {
    retryDelays: [0.05, 0.1],
    timeoutMs: 20_000,
    concurrency: 8,
    perWebhook: 1,
    pollMs: 20,
    // The receiver listens on 127.0.0.1.
    allowPrivate: true,
  });
  dispatcher.start();
  try {
    const end = Date.now() + 25_000;
    for (;;) {
      const statuses = await store.db
        .selectFrom('webhook_deliveries')
        .select('status')
        .where('workspace_id', '=', ws.workspaceId)
        .execute();
      if (statuses.length > 0 && statuses.every((d) => d.status === 'delivered')) break;
      if (Date.now() > end)
        throw new Error(`deliveries not delivered: ${JSON.stringify(statuses)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    await dispatcher.stop();
  }
}

describe('webhooks end to end', () => {
  it('delivers what a webhook subscribes to, signed, in order, and nothing else', async () => {
    const hook = await write(
      '/v2/webhook',
      {
        url,
        objectTypeList: ['people', 'deal'],
        eventList: ['생성', '수정', '삭제', '병합'],
        fieldList: ['이름'],
      },
      201,
    );
    secret = (hook.webhook as Rec).secret as string;
    const pipeline = await ws.write((w) => makePipeline(w));
    const kept = ((await write('/v2/people', { name: '홍길동' }, 201)).people as Rec).id as string;
    // 이름 is subscribed, 이메일 is not: one 수정.
    await write(`/v2/people/${kept}`, {
      name: '홍길순',
      fieldList: [{ name: '이메일', stringValue: 'hong@example.com' }],
    });
    const merged = ((await write('/v2/people', { name: '김철수' }, 201)).people as Rec)
      .id as string;
    await write(`/v2/people/${kept}/merge`, { mergedId: merged });
    // Organizations are not subscribed; the deal changes its person's counters, a 수정 of
    // keys the webhook does not ask for.
    await write('/v2/organization', { name: '구독 안 한 회사' }, 201);
    const deal = (
      (
        await write(
          '/v2/deal',
          {
            name: '딜',
            pipelineId: pipeline.id,
            pipelineStageId: pipeline.stageIds[0],
            status: 'In progress',
            peopleId: kept,
          },
          201,
        )
      ).deal as Rec
    ).id as string;

    // Every delivery made is delivered; nothing more arrives than what was subscribed to.
    await deliverAll();
    const events = received.map((r) => r.event as Rec);
    expect(events.map((e) => [e.event, e.objectType, e.objectId, e.fieldName ?? null])).toEqual([
      ['생성', '고객', kept, null],
      ['수정', '고객', kept, '이름'],
      ['생성', '고객', merged, null],
      ['병합', '고객', kept, null],
      ['삭제', '고객', merged, null],
      ['생성', '딜', deal, null],
    ]);
    const [merge, remove] = [events[3]!, events[4]!];
    expect(merge.eventId).toBe(remove.eventId);
    expect(events[1]).toMatchObject({ beforeField: '홍길동', afterField: '홍길순', source: 'API' });
    // Each delivery arrived once.
    expect(new Set(received.map((r) => r.id)).size).toBe(received.length);
  });
});

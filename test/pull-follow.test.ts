/**
 * `pull --follow` change by change (docs/pull.md, "Keeping it in step"), between two servers on
 * loopback: a source with the demo and a dispatcher, a copy that follows it by the source's
 * webhooks (a receiver of the pull's own, registered on the source), or by its event feed.
 * After the first pull, creates, updates, deletes and a merge on the source arrive in the copy
 * as they are applied, without a walk, and the copy then answers the reads the same as the
 * source; a check walk after a quiet spell leaves it exact. A source without the registration
 * API gets the URL to register by hand.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Dispatcher } from '../src/dispatch/dispatcher.ts';
import { createDemoWorkspace } from '../src/ingest/demo/create-workspace.ts';
import { type AppliedChange, type FollowOptions, follow } from '../src/ingest/pull/follow.ts';
import type { PullResult } from '../src/ingest/pull/run-pull.ts';
import { listen } from './client-server.ts';
import { get, post, type TestStore, testApp, testStore } from './helpers.ts';
import { compareWorkspaces, dealToDelete, firstDifference, type Side } from './pull-compare.ts';
import { waitFor } from './webhook-fixtures.ts';

type Rec = Record<string, unknown>;

describe('pull --follow, change by change', () => {
  let sourceStore: TestStore;
  let targetStore: TestStore;
  let sourceApp: FastifyInstance;
  let targetApp: FastifyInstance;
  let dispatcher: Dispatcher;
  let url: string;
  let source: Side;
  let stateDir: string;

  beforeAll(async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'salescrm-pull-follow-'));
    sourceStore = await testStore();
    targetStore = await testStore();
    const demo = await createDemoWorkspace(sourceStore, { seed: 7, people: 30 });
    // The pull's receiver listens on 127.0.0.1.
    sourceApp = await testApp(sourceStore, { webhookAllowPrivate: true });
    url = await listen(sourceApp);
    targetApp = await testApp(targetStore);
    source = { app: sourceApp, token: demo.token, workspaceId: demo.workspaceId };
    dispatcher = new Dispatcher(sourceStore, {
      retryDelays: [0.05, 0.1, 0.2],
      timeoutMs: 20_000,
      concurrency: 4,
      perWebhook: 1,
      pollMs: 20,
      allowPrivate: true,
    });
    dispatcher.start();
  }, 120_000);

  afterAll(async () => {
    await dispatcher?.stop();
    await sourceApp?.close();
    await targetApp?.close();
    await sourceStore?.dispose();
    await targetStore?.dispose();
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  });

  async function write(path: string, body?: unknown, status = 200): Promise<Rec> {
    const res = await post(sourceApp, source.token, path, body);
    expect(res.status, res.text).toBe(status);
    return res.json.data;
  }

  /** A follow under way: what it pulled and applied, and how to stop it. */
  function following(options: Partial<FollowOptions>) {
    const stop = new AbortController();
    const pulled: PullResult[] = [];
    const applied: AppliedChange[] = [];
    const notices: string[] = [];
    const done = follow(targetStore, {
      from: url,
      token: source.token,
      stateDir,
      signal: stop.signal,
      onPulled: (r) => pulled.push(r),
      onApplied: (c) => applied.push(c),
      onNotice: (line) => notices.push(line),
      ...options,
    });
    // A follow that ends by itself has failed: its error is the test's.
    done.catch(() => {});
    return { stop, done, pulled, applied, notices };
  }

  /** Creates, updates, deletes and merges on the source; what the copy should then show. */
  async function changeTheSource(tag: string) {
    const people = (await get(sourceApp, source.token, '/v2/people?limit=100')).json.data
      .peopleList as Rec[];
    const deals = (await get(sourceApp, source.token, '/v2/deal?limit=100')).json.data
      .dealList as Rec[];
    const created = (await write('/v2/people', { name: `따라온 고객 ${tag}` }, 201)).people as Rec;
    await write(`/v2/people/${people[0]!.id}`, { name: `이름을 바꾼 고객 ${tag}` });
    const pipeline = deals[0]!.파이프라인 as Rec;
    const stage = deals[0]!['파이프라인 단계'] as Rec;
    const deal = (
      await write(
        '/v2/deal',
        {
          name: `따라온 딜 ${tag}`,
          peopleId: created.id,
          pipelineId: pipeline.id,
          pipelineStageId: stage.id,
          price: 1200,
          status: 'In progress',
        },
        201,
      )
    ).deal as Rec;
    await write(`/v2/deal/${deal.id}`, { status: 'Won' });
    const gone = await dealToDelete(
      sourceApp,
      source.token,
      deals.filter((d) => d.id !== deals[0]!.id),
    );
    await write(`/v2/deal/${gone.id}/delete`);
    await write(`/v2/people/${people[1]!.id}/merge`, { mergedId: people[2]!.id });
    return {
      tag,
      created: created.id as string,
      renamed: people[0]!.id as string,
      deal: deal.id as string,
      gone: gone.id as string,
      kept: people[1]!.id as string,
      merged: people[2]!.id as string,
    };
  }

  /** Waits until the copy shows each change. */
  async function arrived(
    copy: Side,
    ids: Awaited<ReturnType<typeof changeTheSource>>,
    f: ReturnType<typeof following>,
  ) {
    const status = async (path: string) => (await get(targetApp, copy.token, path)).status;
    let seen: unknown[] = [];
    await waitFor(
      async () => {
        seen = [
          (await get(targetApp, copy.token, `/v2/people/${ids.renamed}`)).json?.data?.people?.[0]
            ?.이름,
          (await get(targetApp, copy.token, `/v2/deal/${ids.deal}`)).json?.data?.deal?.[0]?.상태,
          await status(`/v2/people/${ids.created}`),
          await status(`/v2/deal/${ids.gone}`),
          await status(`/v2/people/${ids.merged}`),
        ];
        return (
          JSON.stringify(seen) ===
            JSON.stringify([`이름을 바꾼 고객 ${ids.tag}`, 'Won', 200, 404, 404]) &&
          // The merge's callback comes after its commit.
          f.applied.some((c) => c.is === 'merged')
        );
      },
      60_000,
      () =>
        `the changes did not arrive in the copy (${JSON.stringify(seen)}): applied ${JSON.stringify(f.applied)}; ${f.notices.join('; ')}`,
    );
  }

  it('by webhooks: registers one, applies each change as it arrives, removes it when stopped', async () => {
    const f = following({ listen: { host: '127.0.0.1', port: 0 }, checkMs: 3_600_000 });
    await waitFor(
      () => f.pulled.length === 1,
      60_000,
      () => f.notices.join('\n'),
    );
    const copy: Side = {
      app: targetApp,
      token: f.pulled[0]!.token!,
      workspaceId: f.pulled[0]!.workspaceId,
    };
    const registered =
      /^webhook \S+ registered on the source for (http:\/\/127\.0\.0\.1:\d+\/)$/.exec(
        f.notices[0] ?? '',
      );
    expect(registered, f.notices.join('\n')).not.toBeNull();
    // A delivery not signed with the webhook's secret is refused.
    const forged = await fetch(registered![1]!, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        event: '삭제',
        objectType: '고객',
        objectId: source.workspaceId,
        eventId: source.workspaceId,
      }),
    });
    expect(forged.status).toBe(400);
    const hooks = (await get(sourceApp, source.token, '/v2/webhook')).json.data.webhookList;
    expect(hooks).toHaveLength(1);
    const ids = await changeTheSource('웹훅');
    await arrived(copy, ids, f);
    // Applied one by one: no walk since the first.
    expect(f.pulled).toHaveLength(1);
    expect(f.applied.map((c) => c.is)).toContain('merged');
    expect(f.applied.map((c) => c.is)).toContain('gone');
    // The copy's own feed got the changes.
    const feed = (await get(targetApp, copy.token, '/v2/event?limit=100')).json.data
      .eventList as Rec[];
    expect(
      feed.filter((e) => e.objectId === ids.renamed && e.event === '수정').length,
    ).toBeGreaterThan(0);
    const { differences } = await compareWorkspaces(source, copy, { idsPerRead: 8 });
    expect(differences.slice(0, 5).map(firstDifference)).toEqual([]);
    f.stop.abort();
    await f.done;
    expect((await get(sourceApp, source.token, '/v2/webhook')).json.data.webhookList).toEqual([]);
  }, 180_000);

  it('by the event feed: applies each change the feed shows, without a walk', async () => {
    const f = following({ pollMs: 20, checkMs: 3_600_000 });
    await waitFor(
      () => f.pulled.length === 1,
      60_000,
      () => f.notices.join('\n'),
    );
    const copy: Side = {
      app: targetApp,
      token: f.pulled[0]!.token!,
      workspaceId: f.pulled[0]!.workspaceId,
    };
    const ids = await changeTheSource('피드');
    await arrived(copy, ids, f);
    expect(f.pulled).toHaveLength(1);
    const { differences } = await compareWorkspaces(source, copy, { idsPerRead: 8 });
    expect(differences.slice(0, 5).map(firstDifference)).toEqual([]);
    f.stop.abort();
    await f.done;
  }, 180_000);

  it('walks to check once the changes are quiet: what no event carries (a todo) comes then', async () => {
    const f = following({ pollMs: 20, checkMs: 50 });
    await waitFor(
      () => f.pulled.length === 1,
      60_000,
      () => f.notices.join('\n'),
    );
    const copy: Side = {
      app: targetApp,
      token: f.pulled[0]!.token!,
      workspaceId: f.pulled[0]!.workspaceId,
    };
    const person = (await get(sourceApp, source.token, '/v2/people?limit=1')).json.data
      .peopleList[0] as Rec;
    await write(
      '/v2/todo',
      { peopleId: person.id, fieldList: [{ name: '내용', stringValue: '확인 전화' }] },
      201,
    );
    await waitFor(
      () => f.pulled.length === 2,
      60_000,
      () => f.notices.join('\n'),
    );
    expect(f.applied.length).toBeGreaterThan(0);
    const { differences } = await compareWorkspaces(source, copy, { idsPerRead: 8 });
    expect(differences.slice(0, 5).map(firstDifference)).toEqual([]);
    f.stop.abort();
    await f.done;
  }, 180_000);

  it('by webhooks registered by hand, on a source without the registration API: one line says what to register', async () => {
    // The source as the live service is: no POST /v2/webhook.
    const noRegistration: typeof fetch = async (input, init) =>
      init?.method === 'POST' && new URL(String(input)).pathname === '/v2/webhook'
        ? new Response(
            JSON.stringify({ success: false, message: 'Not Found', reason: 'Not Found' }),
            { status: 404, headers: { 'content-type': 'application/json' } },
          )
        : fetch(input, init);
    const f = following({
      listen: { host: '127.0.0.1', port: 0 },
      checkMs: 3_600_000,
      fetch: noRegistration,
    });
    await waitFor(
      () => f.pulled.length === 1,
      60_000,
      () => f.notices.join('\n'),
    );
    const copy: Side = {
      app: targetApp,
      token: f.pulled[0]!.token!,
      workspaceId: f.pulled[0]!.workspaceId,
    };
    const line =
      /^register a webhook on the source by hand: URL (http:\/\/127\.0\.0\.1:\d+\/), record types people, organization, lead, deal, topics 생성, 수정, 삭제, 병합$/.exec(
        f.notices[0] ?? '',
      );
    expect(line, f.notices.join('\n')).not.toBeNull();
    const hook = (await write('/v2/webhook', { url: line![1], objectTypeList: ['people'] }, 201))
      .webhook as Rec;
    const renamed = (await get(sourceApp, source.token, '/v2/people?limit=1')).json.data
      .peopleList[0] as Rec;
    await write(`/v2/people/${renamed.id}`, { name: '손으로 등록한 웹훅' });
    await waitFor(
      async () =>
        (await get(targetApp, copy.token, `/v2/people/${renamed.id}`)).json?.data?.people?.[0]
          ?.이름 === '손으로 등록한 웹훅',
      60_000,
      () => f.notices.join('\n'),
    );
    expect(f.pulled).toHaveLength(1);
    f.stop.abort();
    await f.done;
    await write(`/v2/webhook/${hook.id}/delete`);
  }, 180_000);
});

/**
 * `salescrm pull` between two servers on loopback: a source with the demo, an empty target.
 * After a pull every read of the OpenAPI document answers the same bytes on both
 * (`pull-compare.ts` names what may differ); after writes on the source, a second pull
 * brings the copy level again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoWorkspace } from '../src/ingest/demo/create-workspace.ts';
import { pull } from '../src/ingest/pull/run-pull.ts';
import { listen } from './client-server.ts';
import { get, post, type TestStore, testApp, testStore } from './helpers.ts';
import { compareWorkspaces, firstDifference, type Side } from './pull-compare.ts';

describe('pull from another server into a new workspace', () => {
  let sourceStore: TestStore;
  let targetStore: TestStore;
  let sourceApp: FastifyInstance;
  let targetApp: FastifyInstance;
  let url: string;
  let source: Side;
  let copy: Side;
  let stateDir: string;

  beforeAll(async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'salescrm-pull-'));
    sourceStore = await testStore();
    targetStore = await testStore();
    const demo = await createDemoWorkspace(sourceStore, { seed: 11, people: 50 });
    sourceApp = await testApp(sourceStore);
    url = await listen(sourceApp);
    targetApp = await testApp(targetStore);
    source = { app: sourceApp, token: demo.token, workspaceId: demo.workspaceId };
  }, 120_000);

  afterAll(async () => {
    await sourceApp?.close();
    await targetApp?.close();
    await sourceStore?.dispose();
    await targetStore?.dispose();
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  });

  it('copies the workspace: every read answers the same bytes', async () => {
    const result = await pull(targetStore, { from: url, token: source.token, stateDir });
    expect(result.token).toBeDefined();
    copy = { app: targetApp, token: result.token!, workspaceId: result.workspaceId };
    expect(result.refused).toEqual([]);
    expect([result.leftOut, result.leftOutReasons]).toEqual([0, []]);
    expect(result.counts.person).toBe(50);
    const { reads, differences } = await compareWorkspaces(source, copy);
    expect(reads).toBeGreaterThan(300);
    expect(differences.slice(0, 5).map(firstDifference)).toEqual([]);
  }, 120_000);

  it('brings the copy level again after creates, updates, deletes, a merge and a new field', async () => {
    const people = (await get(sourceApp, source.token, '/v2/people?limit=100')).json.data
      .peopleList as { id: string }[];
    const deals = (await get(sourceApp, source.token, '/v2/deal?limit=100')).json.data.dealList as {
      id: string;
      '현재 진행중인 시퀀스 여부': boolean;
    }[];
    const field = await post(sourceApp, source.token, '/v2/field/people', {
      name: '가져온 뒤 추가한 필드',
      type: 'string',
    });
    expect(field.status, field.text).toBe(201);
    const created = await post(sourceApp, source.token, '/v2/people', {
      name: '새 고객',
      memo: '두 번째 가져오기 전에 만든 고객',
      fieldList: [{ name: '가져온 뒤 추가한 필드', stringValue: '값' }],
    });
    expect(created.status, created.text).toBe(201);
    const updated = await post(sourceApp, source.token, `/v2/people/${people[0]!.id}`, {
      name: '이름을 바꾼 고객',
      memo: '이름 변경',
    });
    expect(updated.status, updated.text).toBe(200);
    const gone = deals.find((d) => !d['현재 진행중인 시퀀스 여부'])!;
    const deleted = await post(sourceApp, source.token, `/v2/deal/${gone.id}/delete`);
    expect(deleted.status, deleted.text).toBe(200);
    const merged = await post(sourceApp, source.token, `/v2/people/${people[1]!.id}/merge`, {
      mergedId: people[2]!.id,
    });
    expect(merged.status, merged.text).toBe(200);

    const result = await pull(targetStore, {
      from: url,
      token: source.token,
      workspaceId: copy.workspaceId,
      stateDir,
    });
    expect(result.token).toBeUndefined();
    expect(result.workspaceId).toBe(copy.workspaceId);
    expect([result.leftOut, result.leftOutReasons]).toEqual([0, []]);
    expect(result.counts.person).toBe(50);
    const { differences } = await compareWorkspaces(source, copy, { idsPerRead: 8 });
    expect(differences.slice(0, 5).map(firstDifference)).toEqual([]);
    const copied = await get(targetApp, copy.token, `/v2/people/${people[2]!.id}`);
    expect(copied.status).toBe(404);
  }, 120_000);

  it('waits out 429s and retries 5xx and network errors; leaves out what names a record made while it read, and brings both the next time', async () => {
    let made: string | undefined;
    let n = 0;
    const limited = (reason: string, headers: Record<string, string> = {}) =>
      new Response(JSON.stringify({ success: false, message: '요청이 너무 많습니다.', reason }), {
        status: 429,
        headers: { 'content-type': 'application/json', ...headers },
      });
    const changingAndFlaky: typeof fetch = async (input, init) => {
      n++;
      // A 429 with the wait only in its reason (as the live API words it), one with
      // Retry-After; 5xx answers and a connection reset.
      if (n === 3) return limited('1초 후 재시도해주세요.');
      if (n === 9) return limited('1초 후 재시도해주세요.', { 'retry-after': '1' });
      if (n === 15 || n === 40) return new Response('{"success":false}', { status: 503 });
      if (n === 27) return new Response('bad gateway', { status: 502 });
      if (n === 33) throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
      // A person made on the source once the people list has been read, before its notes
      // and activities are: they name a person the walk did not see.
      if (made === undefined && String(input).includes('/v2/memo')) {
        const created = await post(sourceApp, source.token, '/v2/people', {
          name: '읽는 중에 생긴 고객',
          memo: '가져오는 중에 남긴 노트',
        });
        made = created.json.data.people.id;
      }
      return fetch(input, init);
    };
    const first = await pull(targetStore, {
      from: url,
      token: source.token,
      workspaceId: copy.workspaceId,
      stateDir,
      fetch: changingAndFlaky,
    });
    expect([first.rateLimited, first.retried]).toEqual([2, 4]);
    expect(made).toBeDefined();
    expect(first.leftOut).toBeGreaterThan(0);
    expect(first.leftOutReasons.join()).toContain(made!);
    expect((await get(targetApp, copy.token, `/v2/people/${made}`)).status).toBe(404);
    const second = await pull(targetStore, {
      from: url,
      token: source.token,
      workspaceId: copy.workspaceId,
      stateDir,
    });
    expect([second.leftOut, second.rateLimited, second.retried]).toEqual([0, 0, 0]);
    const { differences } = await compareWorkspaces(source, copy, { idsPerRead: 8 });
    expect(differences.slice(0, 5).map(firstDifference)).toEqual([]);
  }, 120_000);

  it('names a list the source refuses, and copies the rest', async () => {
    const refusing: typeof fetch = async (input, init) => {
      const path = new URL(String(input)).pathname;
      if (path === '/v2/webForm' || path === '/v2/todo')
        return new Response(
          JSON.stringify({
            success: false,
            message: '권한이 없습니다.',
            reason: '권한이 없습니다.',
          }),
          { status: 403, headers: { 'content-type': 'application/json' } },
        );
      return fetch(input, init);
    };
    const result = await pull(targetStore, {
      from: url,
      token: source.token,
      stateDir,
      fetch: refusing,
    });
    expect(result.refused).toEqual([
      '/v2/todo: 403 권한이 없습니다.',
      '/v2/webForm: 403 권한이 없습니다.',
    ]);
    expect(result.counts.todo).toBeUndefined();
    expect(result.counts.webForm).toBeUndefined();
    expect(result.counts.person).toBe(51);
  }, 120_000);
});

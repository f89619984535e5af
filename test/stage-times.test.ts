/**
 * The stage timing keys of deals and leads: `<stage>(<pipeline>)로 진입한 날짜`, `…에서 보낸
 * 누적 시간` (milliseconds of finished stays) and `…에서 퇴장한 날짜` for every stage of every
 * pipeline of the record type, on every record, after the fixed keys and before the custom
 * fields; listed by `GET /v2/field/{deal|lead}`; fresh on every stage change; isolation.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import type { FastifyInstance } from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import { exportWorkspace } from '../src/ingest/export.ts';
import { importFiles } from '../src/ingest/run-import.ts';
import { createToken, createWorkspace, firstAdmin } from '../src/resources/workspaces/writes.ts';
import { makeCustomField, makePerson, makePipeline, type TestPipeline } from './factories.ts';
import {
  appWithWorkspace,
  get,
  post,
  type TestStore,
  type TestWorkspace,
  testApp,
  testStore,
  testWorkspace,
} from './helpers.ts';

type Rec = Record<string, unknown>;

let store: TestStore;
let app: FastifyInstance;
let ws: TestWorkspace;
let sales: TestPipeline;
let other: TestPipeline;
let leads: TestPipeline;
let personId: string;
appWithWorkspace((made) => ({ store, app, ws } = made));
beforeEach(async () => {
  ({ sales, other, leads, personId } = await ws.write(async (w) => ({
    sales: await makePipeline(w, { name: '영업', stages: ['미팅', '제안'] }),
    other: await makePipeline(w, { name: '갱신', stages: ['검토'] }),
    leads: await makePipeline(w, { kind: 'lead', name: '리드 접수', stages: ['접수', '검토'] }),
    personId: await makePerson(w, { name: '고객' }),
  })));
  await ws.write((w) => makeCustomField(w, 'deal', '등급'));
});

const keys = (stage: string, pipeline: string) => [
  `${stage}(${pipeline})로 진입한 날짜`,
  `${stage}(${pipeline})에서 보낸 누적 시간`,
  `${stage}(${pipeline})에서 퇴장한 날짜`,
];
const DEAL_STAGE_KEYS = [...keys('미팅', '영업'), ...keys('제안', '영업'), ...keys('검토', '갱신')];

async function ok(url: string, body: unknown, status = 200): Promise<Rec> {
  const res = await post(app, ws.token, url, body);
  expect(res.status, `${url}: ${res.text}`).toBe(status);
  return res.json.data;
}

async function listed(type: 'deal' | 'lead', id: string, token = ws.token): Promise<Rec> {
  const res = await get(app, token, `/v2/${type}?limit=100`);
  return (res.json.data[`${type}List`] as Rec[]).find((r) => r.id === id)!;
}

/** The stage keys of a record, in its order. */
const stageKeysOf = (record: Rec) => Object.keys(record).filter((k) => /\(.*\)(로|에서) /.test(k));

async function newDeal(stageId: string): Promise<string> {
  const data = await ok(
    '/v2/deal',
    {
      name: '딜',
      peopleId: personId,
      pipelineId: sales.id,
      pipelineStageId: stageId,
      status: 'In progress',
    },
    201,
  );
  return (data.deal as Rec).id as string;
}

describe('stage timing keys', () => {
  it('sit after the fixed keys and before the custom fields, every stage of every deal pipeline', async () => {
    const id = await newDeal(sales.stage.미팅!);
    const deal = await listed('deal', id);
    const all = Object.keys(deal);
    expect(stageKeysOf(deal)).toEqual(DEAL_STAGE_KEYS);
    const at = all.indexOf(DEAL_STAGE_KEYS[0]!);
    expect(all[at - 1]).toBe('등록된 시퀀스 목록');
    expect(all.slice(at + DEAL_STAGE_KEYS.length)).toEqual(['등급']);
    // The single deal: its extra keys, then the stage keys, then the custom fields.
    const [single] = (await get(app, ws.token, `/v2/deal/${id}`)).json.data.deal;
    const singleKeys = Object.keys(single);
    expect(singleKeys.slice(singleKeys.indexOf('참여자') + 1)).toEqual([
      ...DEAL_STAGE_KEYS,
      '등급',
    ]);
    // Listed by GET /v2/field/deal in the same place, and chosen by fieldList.
    const fields = (await get(app, ws.token, '/v2/field/deal')).json.data.fieldList as Rec[];
    const names = fields.map((f) => f.name);
    expect(names.slice(names.indexOf(DEAL_STAGE_KEYS[0]!))).toEqual([...DEAL_STAGE_KEYS, '등급']);
    expect(fields.find((f) => f.name === DEAL_STAGE_KEYS[1])).toMatchObject({ type: 'number' });
    const chosen = await get(
      app,
      ws.token,
      `/v2/deal?fieldList=${encodeURIComponent(DEAL_STAGE_KEYS[0]!)}`,
    );
    expect(chosen.status, chosen.text).toBe(200);
    expect(Object.keys(chosen.json.data.dealList[0])).toEqual(['id', DEAL_STAGE_KEYS[0]]);
    const read = await post(app, ws.token, '/v3/object/read', {
      objectType: 'deal',
      idList: [id],
      fieldList: [DEAL_STAGE_KEYS[2], DEAL_STAGE_KEYS[0]],
    });
    expect(read.status, read.text).toBe(200);
    expect(read.json.data.objectList).toEqual([
      { id, [DEAL_STAGE_KEYS[0]!]: deal[DEAL_STAGE_KEYS[0]!], [DEAL_STAGE_KEYS[2]!]: null },
    ]);
  });

  it('start with the stage a record is created in, and follow every stage change', async () => {
    const id = await newDeal(sales.stage.미팅!);
    const created = await listed('deal', id);
    const t0 = created['생성 날짜'] as string;
    const values = (record: Rec) => DEAL_STAGE_KEYS.map((k) => record[k]);
    expect(values(created)).toEqual([t0, 0, null, null, null, null, null, null, null]);
    // 미팅 → 제안: 미팅 exited with its stay, 제안 entered.
    await new Promise((r) => setTimeout(r, 5));
    await ok(`/v2/deal/${id}`, { pipelineStageId: sales.stage.제안 });
    const moved = await listed('deal', id);
    const t1 = moved['수정 날짜'] as string;
    const stay1 = Date.parse(t1) - Date.parse(t0);
    expect(stay1).toBeGreaterThan(0);
    expect(values(moved)).toEqual([t0, stay1, t1, t1, 0, null, null, null, null]);
    // Back to 미팅: entered again, no exit while there, the finished stay kept.
    await new Promise((r) => setTimeout(r, 5));
    await ok(`/v2/deal/${id}`, { pipelineStageId: sales.stage.미팅 });
    const back = await listed('deal', id);
    const t2 = back['수정 날짜'] as string;
    const stay2 = Date.parse(t2) - Date.parse(t1);
    expect(values(back)).toEqual([t2, stay1, null, t1, stay2, t2, null, null, null]);
    // To another pipeline: 미팅's second stay adds up.
    await ok(`/v2/deal/${id}`, { pipelineId: other.id, pipelineStageId: other.stageIds[0] });
    const elsewhere = await listed('deal', id);
    const t3 = elsewhere['수정 날짜'] as string;
    const stay3 = Date.parse(t3) - Date.parse(t2);
    expect(values(elsewhere)).toEqual([t2, stay1 + stay3, t3, t1, stay2, t2, t3, 0, null]);
    // The single deal shows the same values, and 정체 일수 counts from the last entry.
    const [single] = (await get(app, ws.token, `/v2/deal/${id}`)).json.data.deal;
    expect(values(single)).toEqual(values(elsewhere));
    expect(single['정체 일수']).toBe(0);
    // The stage change's events carry the keys it changed, as the API's write.
    const events = (await get(app, ws.token, '/v2/event?objectType=deal&limit=100')).json.data
      .eventList as Rec[];
    const entered = events.filter((e) => e.objectId === id && e.fieldName === DEAL_STAGE_KEYS[6]);
    expect(entered).toEqual([
      expect.objectContaining({ source: 'API', beforeField: null, afterField: expect.any(String) }),
    ]);
  });

  it('leads have their own pipelines’ keys, and follow their stage changes', async () => {
    const data = await ok(
      '/v2/lead',
      {
        name: '리드',
        peopleId: personId,
        pipelineId: leads.id,
        pipelineStageId: leads.stageIds[0],
      },
      201,
    );
    const id = (data.lead as Rec).id as string;
    const LEAD_KEYS = [...keys('접수', '리드 접수'), ...keys('검토', '리드 접수')];
    const lead = await listed('lead', id);
    expect(stageKeysOf(lead)).toEqual(LEAD_KEYS);
    const t0 = lead['생성 날짜'] as string;
    expect(LEAD_KEYS.map((k) => lead[k])).toEqual([t0, 0, null, null, null, null]);
    await ok(`/v2/lead/${id}`, { pipelineId: null, pipelineStageId: null });
    const off = await listed('lead', id);
    const t1 = off['수정 날짜'] as string;
    expect(LEAD_KEYS.map((k) => off[k])).toEqual([
      t0,
      Date.parse(t1) - Date.parse(t0),
      t1,
      null,
      null,
      null,
    ]);
    const fields = (await get(app, ws.token, '/v2/field/lead')).json.data.fieldList as Rec[];
    expect(fields.map((f) => f.name).filter((n) => LEAD_KEYS.includes(n as string))).toEqual(
      LEAD_KEYS,
    );
  });

  it('a new pipeline adds its keys, null, to every record at once', async () => {
    const bare = (
      (
        await ok(
          '/v2/deal',
          {
            name: '무단계',
            peopleId: personId,
            status: 'In progress',
            pipelineId: sales.id,
            pipelineStageId: sales.stageIds[1],
          },
          201,
        )
      ).deal as Rec
    ).id as string;
    await ws.write((w) => makePipeline(w, { name: '신규', stages: ['첫 단계'] }));
    const deal = await listed('deal', bare);
    expect(stageKeysOf(deal)).toEqual([...DEAL_STAGE_KEYS, ...keys('첫 단계', '신규')]);
    expect(keys('첫 단계', '신규').map((k) => deal[k])).toEqual([null, null, null]);
  });

  it("another workspace's pipelines add no keys", async () => {
    const theirs = await testWorkspace(store, '다른 워크스페이스');
    await theirs.write((w) => makePipeline(w, { name: '남의 파이프라인', stages: ['비밀 단계'] }));
    const id = await newDeal(sales.stage.미팅!);
    expect(stageKeysOf(await listed('deal', id))).toEqual(DEAL_STAGE_KEYS);
    const fields = (await get(app, ws.token, '/v2/field/deal')).json.data.fieldList as Rec[];
    expect(fields.some((f) => String(f.name).includes('남의 파이프라인'))).toBe(false);
    void store;
  });
});

describe('stage times in the export', () => {
  it('are exported and imported with the record: the keys read the same after a stage change', async () => {
    // A store of its own: the export reads the database apart from the app.
    const fileStore = await testStore();
    // Removed in the end whatever happens: a failed run leaves no file behind.
    const file = join(tmpdir(), `salescrm-stage-times-${randomUUID()}.ndjson`);
    const fileApp = await testApp(fileStore);
    try {
      const mine = await testWorkspace(fileStore);
      const { pipe, person } = await mine.write(async (w) => ({
        pipe: await makePipeline(w, { name: '영업', stages: ['미팅', '제안'] }),
        person: await makePerson(w, { name: '고객' }),
      }));
      const created = await post(fileApp, mine.token, '/v2/deal', {
        name: '딜',
        peopleId: person,
        pipelineId: pipe.id,
        pipelineStageId: pipe.stageIds[0],
        status: 'In progress',
      });
      const id = created.json.data.deal.id as string;
      await new Promise((r) => setTimeout(r, 5));
      const moved = await post(fileApp, mine.token, `/v2/deal/${id}`, {
        pipelineStageId: pipe.stageIds[1],
      });
      expect(moved.status, moved.text).toBe(200);
      const before = (await get(fileApp, mine.token, `/v2/deal/${id}`)).json.data.deal[0];
      expect(before[DEAL_KEYS_OF_PIPE[2]!]).toEqual(expect.any(String));
      const out = createWriteStream(file);
      await exportWorkspace(fileStore.path || fileStore.url, mine.workspaceId, out);
      out.end();
      await finished(out);
      const workspaceId = await createWorkspace(fileStore, '가져온 워크스페이스');
      const result = await importFiles(fileStore, { workspaceId, files: [file], actorId: '' });
      expect(result.rejects).toEqual([]);
      const admin = await firstAdmin(fileStore, workspaceId);
      const { token } = await createToken(fileStore, workspaceId, admin!);
      const after = (await get(fileApp, token, `/v2/deal/${id}`)).json.data.deal[0];
      for (const key of DEAL_KEYS_OF_PIPE) expect(after[key], key).toEqual(before[key]);
    } finally {
      rmSync(file, { force: true });
      await fileApp.close();
      await fileStore.dispose();
    }
  });
});

const DEAL_KEYS_OF_PIPE = [...keys('미팅', '영업'), ...keys('제안', '영업')];

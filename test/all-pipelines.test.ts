/**
 * `GET /v2/pipeline` (docs/decisions.md, Other resources): every pipeline of the workspace, deal
 * and lead, in order, ids under `_id`, stages in order with `index` from 0; the same pipelines as
 * the per-kind lists; nothing of another workspace.
 */
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { makePipeline } from './factories.ts';
import {
  appWithWorkspace,
  get,
  type TestStore,
  type TestWorkspace,
  testWorkspace,
} from './helpers.ts';

type Rec = Record<string, unknown>;

let store: TestStore;
let app: FastifyInstance;
let ws: TestWorkspace;
appWithWorkspace((made) => ({ store, app, ws } = made));

describe('GET /v2/pipeline', () => {
  it('lists deal and lead pipelines in order, with `_id` keys and 0-based stage indexes', async () => {
    const [sales, leads, renew] = await ws.write(async (w) => [
      await makePipeline(w, { name: '영업', stages: ['미팅', '제안', '계약'] }),
      await makePipeline(w, { kind: 'lead', name: '리드', stages: ['신규', '검토'] }),
      await makePipeline(w, { name: '갱신', stages: ['안내'] }),
    ]);
    const res = await get(app, ws.token, '/v2/pipeline');
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.json)).toEqual(['success', 'data']);
    expect(Object.keys(res.json.data)).toEqual(['pipelineList']);
    const list = res.json.data.pipelineList as Rec[];
    expect(list).toEqual([
      {
        _id: sales!.id,
        name: '영업',
        pipelineStageList: ['미팅', '제안', '계약'].map((name, index) => ({
          _id: sales!.stage[name],
          name,
          index,
        })),
      },
      {
        _id: leads!.id,
        name: '리드',
        pipelineStageList: [
          { _id: leads!.stage['신규'], name: '신규', index: 0 },
          { _id: leads!.stage['검토'], name: '검토', index: 1 },
        ],
      },
      {
        _id: renew!.id,
        name: '갱신',
        pipelineStageList: [{ _id: renew!.stage['안내'], name: '안내', index: 0 }],
      },
    ]);
    expect(Object.keys(list[0]!)).toEqual(['_id', 'name', 'pipelineStageList']);
    expect(Object.keys((list[0]!.pipelineStageList as Rec[])[0]!)).toEqual([
      '_id',
      'name',
      'index',
    ]);
    // The same pipelines as the per-kind lists, in their `id` keys.
    const deal = (await get(app, ws.token, '/v2/deal/pipeline')).json.data.pipelineList as Rec[];
    const lead = (await get(app, ws.token, '/v2/lead/pipeline')).json.data.pipelineList as Rec[];
    expect(new Set(list.map((p) => p._id))).toEqual(new Set([...deal, ...lead].map((p) => p.id)));
  });

  it('is an empty list for a workspace without pipelines, and never shows another workspace', async () => {
    const other = await testWorkspace(store, '다른 워크스페이스');
    await other.write((w) => makePipeline(w, { name: '남의 파이프라인' }));
    const res = await get(app, ws.token, '/v2/pipeline');
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ success: true, data: { pipelineList: [] } });
    const theirs = await get(app, other.token, '/v2/pipeline');
    expect(theirs.json.data.pipelineList.map((p: Rec) => p.name)).toEqual(['남의 파이프라인']);
  });

  it('names unknown query parameters in X-Ignored-Parameters, and needs a token', async () => {
    const res = await get(app, ws.token, '/v2/pipeline?pipelineName=x');
    expect(res.status).toBe(200);
    expect(res.headers['x-ignored-parameters']).toBe('pipelineName');
    const anonymous = await get(app, null, '/v2/pipeline');
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.success).toBe(false);
  });
});

/**
 * An import's events (docs/decisions.md, Events and webhooks): each record it brings fires 생성 by
 * the import.
 */
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportWorkspace } from '../src/ingest/export.ts';
import { importFiles } from '../src/ingest/run-import.ts';
import { defineCustomObject } from '../src/resources/custom-objects/commands.ts';
import { insertCustomObject } from '../src/resources/custom-objects/writes.ts';
import { makeDeal, makeOrganization, makePerson, makePipeline } from './factories.ts';
import { appForFile, get, TEST_DIALECT, type TestStore, testWorkspace } from './helpers.ts';

type Rec = Record<string, unknown>;

let store: TestStore;
let app: FastifyInstance;
appForFile((s, a) => {
  store = s;
  app = a;
});
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'salescrm-import-events-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function feed(token: string): Promise<Rec[]> {
  const res = await get(app, token, '/v2/event?limit=100');
  expect(res.status, res.text).toBe(200);
  return res.json.data.eventList;
}

describe('import events', () => {
  it('a CSV import fires 생성 for each record, by the import', async () => {
    const ws = await testWorkspace(store);
    const file = join(dir, '고객.csv');
    writeFileSync(
      file,
      ['이름,이메일', '김철수,kim@example.com', '최민수,choi@example.com'].join('\n'),
    );
    const result = await importFiles(store, {
      workspaceId: ws.workspaceId,
      files: [file],
      actorId: ws.userId,
    });
    expect(result.committed).toBe(true);
    const events = await feed(ws.token);
    expect(events.map((e) => [e.event, e.objectType, e.source])).toEqual([
      ['생성', '고객', '데이터 가져오기'],
      ['생성', '고객', '데이터 가져오기'],
    ]);
    expect(typeof events[0]!.sourceId).toBe('string');
    expect(events[0]!.sourceId).toBe(events[1]!.sourceId);
    expect(events[0]!.sourceId).not.toBe(ws.userId);
  });

  it('a refused import fires nothing', async () => {
    const ws = await testWorkspace(store);
    const file = join(dir, 'bad.csv');
    writeFileSync(file, ['이름,이메일', '김철수,not-an-email'].join('\n'));
    const result = await importFiles(store, {
      workspaceId: ws.workspaceId,
      files: [file],
      actorId: ws.userId,
      csvType: 'people',
    });
    expect(result.committed).toBe(false);
    expect(await feed(ws.token)).toEqual([]);
  });

  it.runIf(TEST_DIALECT === 'sqlite')(
    'an NDJSON import fires 생성 for every person, organization, deal, lead and custom object it brings',
    async () => {
      const source = await testWorkspace(store, '원본');
      const { definitionId, contractId } = await source.write(async (w) => {
        const contract = await defineCustomObject(w, { name: '계약서', fields: [] });
        const contractId = await insertCustomObject(w, {
          definitionId: contract.id,
          name: '가져온 계약',
        });
        return { definitionId: contract.id, contractId };
      });
      await source.write(async (w) => {
        const pipeline = await makePipeline(w);
        const organizationId = await makeOrganization(w, { name: '가져온 회사' });
        const peopleId = await makePerson(w, { name: '가져온 사람', organizationId });
        await makeDeal(w, {
          name: '가져온 딜',
          pipelineId: pipeline.id,
          stageId: pipeline.stageIds[0]!,
          peopleId,
        });
      });
      const file = join(dir, 'export.ndjson');
      const out = createWriteStream(file);
      await exportWorkspace(store.path, source.workspaceId, out);
      out.end();
      await finished(out);
      const target = await testWorkspace(store, '대상');
      const result = await importFiles(store, {
        workspaceId: target.workspaceId,
        files: [file],
        actorId: target.userId,
      });
      expect(result.committed, JSON.stringify(result.rejects)).toBe(true);
      const events = await feed(target.token);
      expect(events.map((e) => e.event)).toEqual(['생성', '생성', '생성', '생성']);
      expect(new Set(events.map((e) => e.objectType))).toEqual(
        new Set(['회사', '고객', '딜', '커스텀 오브젝트']),
      );
      expect(events.every((e) => e.source === '데이터 가져오기')).toBe(true);
      expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
      // The custom object's names its definition, as the imported record shows it.
      const custom = events.find((e) => e.objectType === '커스텀 오브젝트')!;
      const record = (await get(app, target.token, `/v2/custom-object/${contractId}`)).json.data
        .customObject;
      expect(custom.objectId).toBe(contractId);
      expect(custom.customObjectDefinitionId).toBe(record.customObjectDefinitionId);
      expect(custom.customObjectDefinitionId).toBe(definitionId);
    },
  );
});

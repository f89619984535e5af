/**
 * `multiAttachment` custom fields: made by `POST /v2/field/{type}` (not on quote products
 * and todos), written as `fileValueIdList` (ids of the workspace's ready files), read as
 * `[{id, name}]`, kept fresh when a file is deleted (alone or with its record), searchable,
 * refused with a 400 naming the field for files the workspace has not, and what `verify`
 * renders again equals what is stored.
 */
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { defineCustomObject } from '../src/resources/custom-objects/commands.ts';
import { verifyWorkspace } from '../src/store/read-model/verify.ts';
import { makeDeal, makeFile, makePerson, makePipeline } from './factories.ts';
import {
  appWithWorkspace,
  get,
  post,
  type TestStore,
  type TestWorkspace,
  testWorkspace,
} from './helpers.ts';
import { tableSnapshot } from './table-snapshot.ts';

type Rec = Record<string, unknown>;

let store: TestStore;
let app: FastifyInstance;
let ws: TestWorkspace;
appWithWorkspace((made) => ({ store, app, ws } = made));

async function attachmentField(type: string, name = '계약서 파일', more: Rec = {}) {
  const res = await post(app, ws.token, `/v2/field/${type}`, {
    name,
    type: 'multiAttachment',
    ...more,
  });
  expect(res.status, res.text).toBe(201);
  return res.json.data.field as Rec;
}

async function person(id: string, token = ws.token): Promise<Rec> {
  const res = await get(app, token, `/v2/people/${id}`);
  expect(res.status, res.text).toBe(200);
  const data = res.json.data.people;
  return Array.isArray(data) ? data[0] : data;
}

async function peopleList(): Promise<Rec[]> {
  return (await get(app, ws.token, '/v2/people?limit=100')).json.data.peopleList;
}

async function expectVerified(workspaceId = ws.workspaceId): Promise<void> {
  const report = await verifyWorkspace(store, workspaceId);
  expect(report.differences).toBe(0);
  expect(report.indexDifferences).toBe(0);
}

describe('multiAttachment fields', () => {
  it('are made on every record type but quote products and todos, null on every record', async () => {
    const personId = await ws.write((w) => makePerson(w, { name: '고객' }));
    const field = await attachmentField('people');
    expect(Object.keys(field)).toEqual([
      'id',
      'name',
      'type',
      'description',
      'showInCreateForm',
      'required',
      'isSensitive',
      'preventDuplicates',
      'options',
      'createdAt',
    ]);
    expect(field).toMatchObject({ type: 'multiAttachment', options: [] });
    const list = (await get(app, ws.token, '/v2/field/people')).json.data.fieldList as Rec[];
    expect(list.at(-1)).toEqual({
      id: field.id,
      name: '계약서 파일',
      type: 'multiAttachment',
      required: false,
    });
    expect((await person(personId))['계약서 파일']).toBeNull();
    for (const type of ['organization', 'deal', 'lead', 'product', 'quote']) {
      await attachmentField(type);
    }
    for (const type of ['quote-product', 'todo']) {
      const snap = await tableSnapshot(store);
      const res = await post(app, ws.token, `/v2/field/${type}`, {
        name: '파일',
        type: 'multiAttachment',
      });
      expect(res.status, res.text).toBe(400);
      expect(res.json.success).toBe(false);
      expect(res.json.message).toContain('multiAttachment');
      expect(res.json.message).toContain(type);
      expect(await tableSnapshot(store)).toEqual(snap);
    }
    const snap = await tableSnapshot(store);
    const unique = await post(app, ws.token, '/v2/field/people', {
      name: '파일2',
      type: 'multiAttachment',
      preventDuplicates: true,
    });
    expect(unique.status).toBe(400);
    expect(await tableSnapshot(store)).toEqual(snap);
    await expectVerified();
  });

  it('take file ids on create and update and read as [{id, name}] in the order written', async () => {
    await attachmentField('people');
    const [a, b] = await ws.write(async (w) => [
      await makeFile(w, { name: '견적서.pdf' }),
      await makeFile(w, { name: '제안서.docx' }),
    ]);
    const created = await post(app, ws.token, '/v2/people', {
      name: '첨부 고객',
      fieldList: [{ name: '계약서 파일', fileValueIdList: [b, a, b] }],
    });
    expect(created.status, created.text).toBe(201);
    const id = created.json.data.people.id as string;
    const want = [
      { id: b, name: '제안서.docx' },
      { id: a, name: '견적서.pdf' },
    ];
    expect((await person(id))['계약서 파일']).toEqual(want);
    expect((await peopleList()).find((p) => p.id === id)!['계약서 파일']).toEqual(want);
    const updated = await post(app, ws.token, `/v2/people/${id}`, {
      fieldList: [{ name: '계약서 파일', fileValueIdList: [a] }],
    });
    expect(updated.status, updated.text).toBe(200);
    expect((await person(id))['계약서 파일']).toEqual([{ id: a, name: '견적서.pdf' }]);
    // An empty list clears the field, as null does.
    await post(app, ws.token, `/v2/people/${id}`, {
      fieldList: [{ name: '계약서 파일', fileValueIdList: [] }],
    });
    expect((await person(id))['계약서 파일']).toBeNull();
    await post(app, ws.token, `/v2/people/${id}`, {
      fieldList: [{ name: '계약서 파일', fileValueIdList: [b] }],
    });
    await post(app, ws.token, `/v2/people/${id}`, {
      fieldList: [{ name: '계약서 파일', fileValueIdList: null }],
    });
    expect((await person(id))['계약서 파일']).toBeNull();
    await expectVerified();
  });

  it('work on deals and custom objects too', async () => {
    await attachmentField('deal', '딜 파일');
    const { definition, fileId, personId, pipeline } = await ws.write(async (w) => ({
      definition: await defineCustomObject(w, { name: '계약서', fields: [] }),
      fileId: await makeFile(w, { name: '계약.pdf' }),
      personId: await makePerson(w),
      pipeline: await makePipeline(w),
    }));
    await attachmentField('custom-object', '원본', { customObjectDefinitionId: definition.id });
    const deal = await post(app, ws.token, '/v2/deal', {
      name: '딜',
      peopleId: personId,
      pipelineId: pipeline.id,
      pipelineStageId: pipeline.stageIds[0],
      status: 'In progress',
      fieldList: [{ name: '딜 파일', fileValueIdList: [fileId] }],
    });
    expect(deal.status, deal.text).toBe(201);
    const dealId = deal.json.data.deal.id as string;
    const single = (await get(app, ws.token, `/v2/deal/${dealId}`)).json.data.deal[0];
    expect(single['딜 파일']).toEqual([{ id: fileId, name: '계약.pdf' }]);
    const object = await post(app, ws.token, '/v2/custom-object', {
      customObjectDefinitionId: definition.id,
      fieldList: [
        { name: '이름', stringValue: '계약 1' },
        { name: '원본', fileValueIdList: [fileId] },
      ],
    });
    expect(object.status, object.text).toBe(201);
    const objectId = object.json.data.customObject.id as string;
    const read = (await get(app, ws.token, `/v2/custom-object/${objectId}`)).json.data;
    expect((read.customObject as Rec)['원본']).toEqual([{ id: fileId, name: '계약.pdf' }]);
    // Deleting the file takes it out of both records in the same write.
    const deleted = await post(app, ws.token, `/v2/file/${fileId}/delete`, {});
    expect(deleted.status, deleted.text).toBe(200);
    expect(
      (await get(app, ws.token, `/v2/deal/${dealId}`)).json.data.deal[0]['딜 파일'],
    ).toBeNull();
    const after = (await get(app, ws.token, `/v2/custom-object/${objectId}`)).json.data;
    expect((after.customObject as Rec)['원본']).toBeNull();
    await expectVerified();
  });

  it('lose a deleted file (others kept), also when its record is deleted; 수정 날짜 stays', async () => {
    await attachmentField('people');
    const { keep, drop, holderId, attachedTo } = await ws.write(async (w) => {
      const pipeline = await makePipeline(w);
      const attachedTo = await makeDeal(w, {
        pipelineId: pipeline.id,
        stageId: pipeline.stageIds[0]!,
      });
      return {
        keep: await makeFile(w, { name: '남는 파일.txt' }),
        drop: await makeFile(w, { name: '지울 파일.txt' }),
        holderId: await makePerson(w, { name: '참조하는 고객' }),
        attachedTo,
      };
    });
    const onRecord = await ws.write((w) =>
      makeFile(w, { name: '레코드 파일.txt', subject: { type: 'deal', id: attachedTo } }),
    );
    await post(app, ws.token, `/v2/people/${holderId}`, {
      fieldList: [{ name: '계약서 파일', fileValueIdList: [drop, keep, onRecord] }],
    });
    const before = await person(holderId);
    expect((await post(app, ws.token, `/v2/file/${drop}/delete`, {})).status).toBe(200);
    const after = await person(holderId);
    expect(after['계약서 파일']).toEqual([
      { id: keep, name: '남는 파일.txt' },
      { id: onRecord, name: '레코드 파일.txt' },
    ]);
    expect(after['수정 날짜']).toBe(before['수정 날짜']);
    const events = (await get(app, ws.token, '/v2/event?limit=100')).json.data.eventList as Rec[];
    const change = events.filter((e) => e.fieldName === '계약서 파일').at(-1)!;
    expect(change.objectId).toBe(holderId);
    expect(change.afterField).toEqual(after['계약서 파일']);
    // Deleting the record a file is attached to deletes the file: it leaves the values too.
    const gone = await post(app, ws.token, `/v2/deal/${attachedTo}/delete`, {});
    expect(gone.status, gone.text).toBe(200);
    expect((await person(holderId))['계약서 파일']).toEqual([{ id: keep, name: '남는 파일.txt' }]);
    await expectVerified();
  });

  it('of a custom object: its 수정 event shows the files, and deleting it takes its files out of others’ values', async () => {
    await attachmentField('people');
    const definition = await ws.write((w) =>
      defineCustomObject(w, {
        name: '계약서',
        fields: [{ name: '원본', type: 'multiAttachment' }],
      }),
    );
    const made = await post(app, ws.token, '/v2/custom-object', {
      customObjectDefinitionId: definition.id,
      name: '공급 계약',
    });
    expect(made.status, made.text).toBe(201);
    const objectId = made.json.data.customObject.id as string;
    const { own, loose, holderId } = await ws.write(async (w) => ({
      own: await makeFile(w, {
        name: '서명본.pdf',
        subject: { type: 'customObject', id: objectId },
      }),
      loose: await makeFile(w, { name: '초안.pdf' }),
      holderId: await makePerson(w, { name: '참조하는 고객' }),
    }));
    const set = await post(app, ws.token, `/v2/custom-object/${objectId}`, {
      fieldList: [{ name: '원본', fileValueIdList: [own, loose] }],
    });
    expect(set.status, set.text).toBe(200);
    await post(app, ws.token, `/v2/people/${holderId}`, {
      fieldList: [{ name: '계약서 파일', fileValueIdList: [loose, own] }],
    });
    const events = async () =>
      (await get(app, ws.token, '/v2/event?limit=100')).json.data.eventList as Rec[];
    const change = (await events()).find((e) => e.fieldName === '원본')!;
    expect(change).toMatchObject({
      objectType: '커스텀 오브젝트',
      customObjectDefinitionId: definition.id,
      beforeField: null,
      afterField: [
        { id: own, name: '서명본.pdf' },
        { id: loose, name: '초안.pdf' },
      ],
    });
    const seen = (await events()).length;
    const gone = await post(app, ws.token, `/v2/custom-object/${objectId}/delete`, {});
    expect(gone.status, gone.text).toBe(200);
    // Its own file went with it, out of the person's values; the loose one stays.
    expect((await person(holderId))['계약서 파일']).toEqual([{ id: loose, name: '초안.pdf' }]);
    const files = await get(app, ws.token, `/v2/file?objectType=customObject&objectId=${objectId}`);
    expect(files.status).toBe(404);
    expect(
      (await events()).slice(seen).map((e) => [e.event, e.objectType, e.fieldName ?? null]),
    ).toEqual([
      ['삭제', '커스텀 오브젝트', null],
      ['수정', '고객', '계약서 파일'],
    ]);
    await expectVerified();
  });

  it('lose the files of a deleted record that had more than a thousand', async () => {
    await attachmentField('people');
    const { attachedTo, holderId } = await ws.write(async (w) => {
      const pipeline = await makePipeline(w);
      return {
        attachedTo: await makeDeal(w, { pipelineId: pipeline.id, stageId: pipeline.stageIds[0]! }),
        holderId: await makePerson(w, { name: '참조하는 고객' }),
      };
    });
    const files = await ws.write(async (w) => {
      const ids: string[] = [];
      for (let i = 0; i < 1_001; i++) {
        ids.push(await makeFile(w, { subject: { type: 'deal', id: attachedTo } }));
      }
      return ids;
    });
    const keep = await ws.write((w) => makeFile(w, { name: '남는 파일.txt' }));
    const set = await post(app, ws.token, `/v2/people/${holderId}`, {
      fieldList: [{ name: '계약서 파일', fileValueIdList: [files[0], files[1_000], keep] }],
    });
    expect(set.status, set.text).toBe(200);
    const gone = await post(app, ws.token, `/v2/deal/${attachedTo}/delete`, {});
    expect(gone.status, gone.text).toBe(200);
    expect((await person(holderId))['계약서 파일']).toEqual([{ id: keep, name: '남는 파일.txt' }]);
    await expectVerified();
  });

  it('are searchable: EXISTS, NOT_EXISTS and LIST_CONTAIN by file id', async () => {
    await attachmentField('people');
    const { fileId, withFile, without } = await ws.write(async (w) => ({
      fileId: await makeFile(w, { name: '찾을 파일.txt' }),
      withFile: await makePerson(w, { name: '있음' }),
      without: await makePerson(w, { name: '없음' }),
    }));
    await post(app, ws.token, `/v2/people/${withFile}`, {
      fieldList: [{ name: '계약서 파일', fileValueIdList: [fileId] }],
    });
    const search = async (operator: string, value?: unknown) => {
      const res = await post(app, ws.token, '/v2/object/people/search', {
        filterGroupList: [
          {
            filters: [
              { fieldName: '계약서 파일', operator, ...(value === undefined ? {} : { value }) },
            ],
          },
        ],
      });
      expect(res.status, res.text).toBe(200);
      return (res.json.data.objectList as Rec[]).map((o) => o.id);
    };
    expect(await search('EXISTS')).toEqual([withFile]);
    expect(await search('NOT_EXISTS')).toEqual([without]);
    expect(await search('LIST_CONTAIN', [fileId])).toEqual([withFile]);
    const eq = await post(app, ws.token, '/v2/object/people/search', {
      filterGroupList: [{ filters: [{ fieldName: '계약서 파일', operator: 'EQ', value: 'x' }] }],
    });
    expect(eq.status).toBe(400);
  });

  it("refuse unknown ids, another workspace's files, unfinished uploads and bad shapes (400 naming the field, nothing written)", async () => {
    await attachmentField('people');
    const other = await testWorkspace(store, '다른 워크스페이스');
    const foreign = await other.write((w) => makeFile(w, { name: '남의 파일.txt' }));
    const { personId, uploading } = await ws.write(async (w) => {
      const uploading = await makeFile(w);
      await w.trx
        .updateTable('files')
        .set({ status: 'uploading' })
        .where('workspace_id', '=', w.workspaceId)
        .where('id', '=', uploading)
        .execute();
      return { personId: await makePerson(w), uploading };
    });
    const bad: [string, unknown, string][] = [
      ['fileValueIdList', ['no-such-file'], 'no-such-file'],
      ['fileValueIdList', [foreign], foreign],
      ['fileValueIdList', [uploading], uploading],
      ['fileValueIdList', 'not-a-list', 'fileValueIdList'],
      ['fileValueIdList', [1], 'fileValueIdList'],
      ['stringValue', 'x', 'fileValueIdList'],
    ];
    for (const [key, value, named] of bad) {
      for (const path of ['/v2/people', `/v2/people/${personId}`]) {
        const snap = await tableSnapshot(store);
        const res = await post(app, ws.token, path, {
          ...(path === '/v2/people' ? { name: '새 고객' } : {}),
          fieldList: [{ name: '계약서 파일', [key]: value }],
        });
        expect(res.status, res.text).toBe(400);
        expect(res.json.success).toBe(false);
        expect(res.json.message).toContain('계약서 파일');
        expect(res.json.message).toContain(named);
        expect(await tableSnapshot(store)).toEqual(snap);
      }
    }
    // The other workspace sees neither the field nor anything of ours.
    const otherFields = (await get(app, other.token, '/v2/field/people')).json.data
      .fieldList as Rec[];
    expect(otherFields.map((f) => f.name)).not.toContain('계약서 파일');
    await expectVerified();
    await expectVerified(other.workspaceId);
  });
});

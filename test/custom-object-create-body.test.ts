/**
 * `POST /v2/custom-object` as programs written for the live API send it: `fieldList` is
 * optional (the live reference marks it so), and a top-level `name` sets the 대표 field
 * `이름`; the two may agree, not differ.
 */
import type { FastifyInstance } from 'fastify';
import { beforeEach, expect, it } from 'vitest';
import { defineCustomObject } from '../src/resources/custom-objects/commands.ts';
import { appWithWorkspace, get, post, type TestStore, type TestWorkspace } from './helpers.ts';
import { tableSnapshot } from './table-snapshot.ts';

let store: TestStore;
let app: FastifyInstance;
let ws: TestWorkspace;
let contractId: string;
appWithWorkspace((made) => ({ store, app, ws } = made));

beforeEach(async () => {
  contractId = await ws.write(
    async (w) =>
      (
        await defineCustomObject(w, {
          name: '계약서',
          fields: [{ name: '계약 금액', type: 'number' }],
        })
      ).id,
  );
});

async function readBack(id: string): Promise<Record<string, unknown>> {
  const res = await get(app, ws.token, `/v2/custom-object/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.json.data.customObject;
}

it('creates a record from a top-level name, without fieldList', async () => {
  const res = await post(app, ws.token, '/v2/custom-object', {
    customObjectDefinitionId: contractId,
    name: '공급 계약',
  });
  expect(res.status, res.text).toBe(201);
  expect(res.json.data.customObject).toMatchObject({ name: '공급 계약' });
  const record = await readBack(res.json.data.customObject.id);
  expect(record.이름).toBe('공급 계약');
  expect(record['계약 금액']).toBeNull();
});

it('takes a name beside a fieldList of other fields, or the same 이름 in both', async () => {
  const byName = await post(app, ws.token, '/v2/custom-object', {
    customObjectDefinitionName: '계약서',
    name: '유지보수 계약',
    fieldList: [{ name: '계약 금액', numberValue: 1_200_000 }],
  });
  expect(byName.status, byName.text).toBe(201);
  const record = await readBack(byName.json.data.customObject.id);
  expect(record).toMatchObject({ 이름: '유지보수 계약', '계약 금액': 1_200_000 });

  const both = await post(app, ws.token, '/v2/custom-object', {
    customObjectDefinitionId: contractId,
    name: '같은 이름',
    fieldList: [{ name: '이름', stringValue: '같은 이름' }],
  });
  expect(both.status, both.text).toBe(201);
});

it('refuses a record without a name, or with two different ones, and writes nothing', async () => {
  const before = await tableSnapshot(store);
  for (const body of [
    { customObjectDefinitionId: contractId },
    { customObjectDefinitionId: contractId, name: '   ' },
    {
      customObjectDefinitionId: contractId,
      name: '하나',
      fieldList: [{ name: '이름', stringValue: '둘' }],
    },
  ]) {
    const res = await post(app, ws.token, '/v2/custom-object', body);
    expect(res.status, res.text).toBe(400);
    expect(res.json).toMatchObject({ success: false });
    expect(res.json.message).toMatch(/name|이름/);
  }
  expect(await tableSnapshot(store)).toEqual(before);
});

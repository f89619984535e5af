/**
 * The association reads (docs/decisions.md, Other resources): `…/primary` lists the ids linked by
 * the records' own keys (and notes), `…/custom` the records linked by custom Ref fields, both
 * directions, with the field's name as `label`; cursors, unknown and malformed values, isolation.
 */
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { defineCustomField } from '../src/resources/custom-fields/writes.ts';
import { makeDeal, makeLead, makeNote, makeOrganization, makePerson } from './factories.ts';
import {
  appWithWorkspace,
  get,
  type TestStore,
  type TestWorkspace,
  testWorkspace,
  walk,
} from './helpers.ts';

let store: TestStore;
let app: FastifyInstance;
let ws: TestWorkspace;
appWithWorkspace((made) => ({ store, app, ws } = made));

const UNKNOWN = '01890000-0000-7000-8000-000000000000';
const at = (ms: number) => new Date(Date.UTC(2024, 3, 8) + ms).toISOString();

/** An organization with two people, one of them with two deals, a lead and notes. */
async function linked(w: TestWorkspace) {
  return w.write(async (x) => {
    const org = await makeOrganization(x, { name: '한빛', createdAt: at(0) });
    const kim = await makePerson(x, { name: '김', organizationId: org, createdAt: at(1) });
    const lee = await makePerson(x, { name: '이', organizationId: org, createdAt: at(2) });
    const loner = await makePerson(x, { name: '박', createdAt: at(3) });
    const deal1 = await makeDeal(x, { peopleId: kim, organizationId: org, createdAt: at(4) });
    const deal2 = await makeDeal(x, { peopleId: kim, createdAt: at(5) });
    const lead = await makeLead(x, { organizationId: org, createdAt: at(6) });
    const note1 = await makeNote(x, { subjectType: 'people', subjectId: kim, createdAt: at(7) });
    const note2 = await makeNote(x, { subjectType: 'deal', subjectId: deal1, createdAt: at(8) });
    return { org, kim, lee, loner, deal1, deal2, lead, note1, note2 };
  });
}

const primary = (type: string, id: string, to: string, q = '') =>
  get(app, ws.token, `/v2/object/${type}/${id}/association/${to}/primary${q}`);
const custom = (type: string, id: string, to: string, q = '') =>
  get(app, ws.token, `/v2/object/${type}/${id}/association/${to}/custom${q}`);

describe('GET /v2/object/{targetType}/{targetId}/association/{toTargetType}/primary', () => {
  it('lists the ids each record type links to, oldest first', async () => {
    const r = await linked(ws);
    const cases: [string, string, string, string[]][] = [
      ['people', r.kim, 'organization', [r.org]],
      ['people', r.kim, 'deal', [r.deal1, r.deal2]],
      ['people', r.kim, 'lead', []],
      ['people', r.kim, 'people', []],
      ['people', r.kim, 'memo', [r.note1]],
      ['people', r.loner, 'organization', []],
      ['organization', r.org, 'people', [r.kim, r.lee]],
      ['organization', r.org, 'deal', [r.deal1]],
      ['organization', r.org, 'lead', [r.lead]],
      ['organization', r.org, 'organization', []],
      ['deal', r.deal1, 'people', [r.kim]],
      ['deal', r.deal1, 'organization', [r.org]],
      ['deal', r.deal2, 'organization', []],
      ['deal', r.deal1, 'memo', [r.note2]],
      ['deal', r.deal1, 'lead', []],
      ['lead', r.lead, 'organization', [r.org]],
      ['lead', r.lead, 'people', []],
    ];
    for (const [type, id, to, ids] of cases) {
      const res = await primary(type, id, to);
      expect(res.status, `${type} → ${to}: ${res.text}`).toBe(200);
      expect(Object.keys(res.json.data)).toEqual(['associationIdList', 'nextCursor']);
      expect(res.json.data, `${type} → ${to}`).toEqual({
        associationIdList: ids,
        nextCursor: null,
      });
    }
  });

  it('pages with a cursor bound to its record and type', async () => {
    const r = await linked(ws);
    const more = await ws.write(async (x) => [
      await makePerson(x, { organizationId: r.org, createdAt: at(10) }),
      await makePerson(x, { organizationId: r.org, createdAt: at(11) }),
    ]);
    const walked = await walk(
      app,
      ws.token,
      `/v2/object/organization/${r.org}/association/people/primary?limit=1`,
      'associationIdList',
    );
    expect(walked.records).toEqual([r.kim, r.lee, ...more]);
    expect(walked.pages).toBe(4);
    const other = await primary('organization', r.org, 'deal', `?cursor=${walked.cursors[0]}`);
    expect(other.status).toBe(400);
    expect(other.json.message).toContain('cursor');
  });

  it('refuses unknown types and ids in shape A; another workspace’s record is not found', async () => {
    const r = await linked(ws);
    const theirs = await linked(await testWorkspace(store, '다른 워크스페이스'));
    const cases: [string, number, string][] = [
      [`/v2/object/product/${r.kim}/association/deal/primary`, 400, "'targetType'"],
      [`/v2/object/people/${r.kim}/association/custom-object/primary`, 400, "'toTargetType'"],
      [`/v2/object/people/${r.kim}/association/todo/primary`, 400, "'toTargetType'"],
      [`/v2/object/people/a%20b/association/deal/primary`, 400, "'targetId'"],
      [`/v2/object/people/${UNKNOWN}/association/deal/primary`, 404, '고객을 찾을 수 없습니다'],
      [`/v2/object/people/${theirs.kim}/association/deal/primary`, 404, '고객을 찾을 수 없습니다'],
      [`/v2/object/deal/${theirs.deal1}/association/people/primary`, 404, '딜을 찾을 수 없습니다'],
      [`/v2/object/deal/${r.kim}/association/people/primary`, 404, '딜을 찾을 수 없습니다'],
      [`/v2/object/people/${r.kim}/association/deal/primary?limit=0`, 400, "'limit'"],
      [`/v2/object/people/${r.kim}/association/deal/primary?cursor=x`, 400, "'cursor'"],
    ];
    for (const [url, status, message] of cases) {
      const res = await get(app, ws.token, url);
      expect(res.status, `${url}: ${res.text}`).toBe(status);
      expect(res.json.success).toBe(false);
      expect(res.json.message).toContain(message);
    }
  });
});

describe('GET /v2/object/{targetType}/{targetId}/association/{toTargetType}/custom', () => {
  it('lists records linked by custom Ref fields, both ways, with the field’s name as label', async () => {
    const r = await linked(ws);
    const f = await ws.write(async (x) => ({
      referrer: await defineCustomField(x, { recordType: 'deal', name: '추천인', type: 'people' }),
      partners: await defineCustomField(x, {
        recordType: 'people',
        name: '파트너사',
        type: 'multiOrganization',
      }),
      rival: await defineCustomField(x, {
        recordType: 'organization',
        name: '경쟁사',
        type: 'organization',
      }),
      deals: await defineCustomField(x, {
        recordType: 'people',
        name: '관심 딜',
        type: 'multiDeal',
      }),
    }));
    const other = await ws.write(async (x) => ({
      org2: await makeOrganization(x, { name: '두번째', createdAt: at(20) }),
      referred: await makeDeal(x, {
        peopleId: r.lee,
        custom: { [f.referrer]: r.kim },
        createdAt: at(21),
      }),
    }));
    await ws.write(async (x) => {
      await x.trx
        .updateTable('people')
        .set({
          custom: JSON.stringify({
            [f.partners]: [other.org2, r.org, UNKNOWN],
            [f.deals]: [r.deal2],
          }),
        })
        .where('workspace_id', '=', ws.workspaceId)
        .where('id', '=', r.kim)
        .execute();
      await x.trx
        .updateTable('organizations')
        .set({ custom: JSON.stringify({ [f.rival]: r.org }) })
        .where('workspace_id', '=', ws.workspaceId)
        .where('id', '=', other.org2)
        .execute();
    });
    // The person's own fields (in value order, a deleted record's id left out), then the
    // deals whose 추천인 is the person.
    expect((await custom('people', r.kim, 'organization')).json.data).toEqual({
      associationItemList: [
        { id: other.org2, label: '파트너사' },
        { id: r.org, label: '파트너사' },
      ],
      nextCursor: null,
    });
    const deals = await custom('people', r.kim, 'deal');
    expect(deals.json.data.associationItemList).toEqual([
      { id: r.deal2, label: '관심 딜' },
      { id: other.referred, label: '추천인' },
    ]);
    expect(Object.keys(deals.json.data.associationItemList[0])).toEqual(['id', 'label']);
    // From the other side.
    expect((await custom('deal', other.referred, 'people')).json.data.associationItemList).toEqual([
      { id: r.kim, label: '추천인' },
    ]);
    expect((await custom('organization', r.org, 'people')).json.data.associationItemList).toEqual([
      { id: r.kim, label: '파트너사' },
    ]);
    // An organization → organization field, seen from both ends.
    expect(
      (await custom('organization', other.org2, 'organization')).json.data.associationItemList,
    ).toEqual([{ id: r.org, label: '경쟁사' }]);
    expect(
      (await custom('organization', r.org, 'organization')).json.data.associationItemList,
    ).toEqual([{ id: other.org2, label: '경쟁사' }]);
    // Nothing links leads or custom objects by a custom field here.
    for (const to of ['lead', 'custom-object']) {
      const res = await custom('people', r.kim, to);
      expect(res.status, res.text).toBe(200);
      expect(res.json.data).toEqual({ associationItemList: [], nextCursor: null });
    }
    // Pages.
    const walked = await walk(
      app,
      ws.token,
      `/v2/object/people/${r.kim}/association/deal/custom?limit=1`,
      'associationItemList',
    );
    expect(walked.records).toEqual(deals.json.data.associationItemList);
    expect(walked.pages).toBe(2);
  });

  it('never lists another workspace’s records, and refuses what the path does not name', async () => {
    const r = await linked(ws);
    const other = await testWorkspace(store, '다른 워크스페이스');
    const theirs = await linked(other);
    // Their deal names our person's id as its 추천인: it is not ours to show.
    await other.write(async (x) => {
      const field = await defineCustomField(x, {
        recordType: 'deal',
        name: '추천인',
        type: 'people',
      });
      await makeDeal(x, { peopleId: theirs.kim, custom: { [field]: r.kim } });
    });
    expect((await custom('people', r.kim, 'deal')).json.data.associationItemList).toEqual([]);
    const cases: [string, number][] = [
      [`/v2/object/people/${theirs.kim}/association/deal/custom`, 404],
      [`/v2/object/people/${r.kim}/association/memo/custom`, 400],
      [`/v2/object/quote/${r.kim}/association/deal/custom`, 400],
      [`/v2/object/people/${r.kim}/association/deal/custom?cursor=abc`, 400],
    ];
    for (const [url, status] of cases) {
      const res = await get(app, ws.token, url);
      expect(res.status, `${url}: ${res.text}`).toBe(status);
      expect(res.json.success).toBe(false);
    }
  });
});

describe('hostile paths and cursors to the association reads', () => {
  it('answers over-long or odd ids and types, and a cursor of the other list, with a 400 in shape A', async () => {
    const r = await linked(ws);
    const first = await primary('people', r.kim, 'deal', '?limit=1');
    const primaryCursor = first.json.data.nextCursor as string;
    expect(primaryCursor).toBeTypeOf('string');
    const long = 'a'.repeat(600);
    const cases: [string, string][] = [
      [`/v2/object/people/${long}/association/deal/primary`, '요청 경로가 올바르지 않습니다'],
      [`/v2/object/people/${long}/association/deal/custom`, '요청 경로가 올바르지 않습니다'],
      [`/v2/object/people/${r.kim}/association/${long}/custom`, '요청 경로가 올바르지 않습니다'],
      [`/v2/object/people/%25%22x/association/deal/custom`, "'targetId'"],
      [`/v2/object/people/${r.kim}/association/deal/custom?cursor=${primaryCursor}`, "'cursor'"],
      [`/v2/object/people/${r.lee}/association/deal/primary?cursor=${primaryCursor}`, "'cursor'"],
      [
        `/v2/object/people/${r.kim}/association/deal/primary?cursor=${'x'.repeat(5000)}`,
        "'cursor'",
      ],
    ];
    for (const [url, message] of cases) {
      const res = await get(app, ws.token, url);
      expect(res.status, `${url.slice(0, 90)}: ${res.text}`).toBe(400);
      expect(res.json.success).toBe(false);
      expect(res.json.message).toContain(message);
      expect(res.json.reason).toBeTypeOf('string');
    }
  });
});

/**
 * Contract tests of the record-level reads (docs/decisions.md, Reads and writes): one person,
 * organization and lead; a deal's quotes; the activity lists of people, organizations,
 * leads and deals with their filters; the history lists of deals, leads, organizations and
 * people. Keys in order, kinds and nulls, cursor walks, each filter, bad input, and
 * another workspace's ids. The expected keys are written out here, never imported from src/.
 */
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertActivities, type NewActivity } from '../src/resources/deal-activities/writes.ts';
import { recordPeopleHistory } from '../src/resources/people-history/writes.ts';
import { recordHistory } from '../src/resources/record-history/writes.ts';
import {
  makeDeal,
  makeLead,
  makeOrganization,
  makePerson,
  makeProduct,
  makeQuote,
} from './factories.ts';
import {
  appForFile,
  get,
  type TestResponse,
  type TestStore,
  type TestWorkspace,
  testWorkspace,
  walk,
} from './helpers.ts';
import { expectErrorA, expectShape, type Field, N } from './shapes.ts';

let store: TestStore;
let app: FastifyInstance;
appForFile((s, a) => {
  store = s;
  app = a;
});

// ---------------------------------------------------------------------------------------------
// Shapes.

const RELATED: Field[] = [
  ['webFormId', 'string', N],
  ['smsId', 'string', N],
  ['todoId', 'string', N],
  ['memoId', 'string', N],
  ['emailMessageId', 'string', N],
];
/**
 * The deal activity (docs/decisions.md, Activities and history) with the subject's id key in place
 * of `dealId`, without `dealStatus`, and the e-mail's id also under `emailId` (the live API's key
 * in these lists).
 */
const subjectActivity = (idKey: string): Field[] => [
  ['id', 'string'],
  ['type', 'string'],
  ['date', 'timestamp'],
  [idKey, 'string'],
  ...RELATED,
  ['emailId', 'string', N],
];
const DEAL_ACTIVITY: Field[] = [
  ['id', 'string'],
  ['type', 'string'],
  ['date', 'timestamp'],
  ['dealStatus', 'string', N],
  ['dealId', 'string'],
  ...RELATED,
];
const linkedHistory = (idKey: string): Field[] => [
  ['id', 'string'],
  [idKey, 'string'],
  ['type', 'string'],
  ['people', 'ref', N],
  ['organization', 'ref', N],
  ['fieldName', 'string'],
  ['fieldValue', 'string', N],
  ['ownerId', 'string', N],
  ['createdAt', 'timestamp'],
];
const ORGANIZATION_HISTORY: Field[] = [
  ['id', 'string'],
  ['organizationId', 'string'],
  ['type', 'string'],
  ['fieldName', 'string'],
  ['fieldValue', 'string', N],
  ['ownerId', 'string', N],
  ['createdAt', 'timestamp'],
];
const PEOPLE_HISTORY: Field[] = [
  ['id', 'string'],
  ['peopleId', 'string'],
  ['type', 'string'],
  ['organization', 'ref', N],
  ['fieldName', 'string'],
  ['fieldValue', 'string', N],
  ['ownerId', 'string', N],
  ['createdAt', 'timestamp'],
];

/** A list page's envelope: `success`, then `data` with the list and `nextCursor`. */
function listOf(res: TestResponse, listKey: string): Record<string, unknown>[] {
  expect(res.status, res.text).toBe(200);
  expect(Object.keys(res.json)).toEqual(['success', 'data']);
  expect(res.json.success).toBe(true);
  expect(Object.keys(res.json.data)).toEqual([listKey, 'nextCursor']);
  return res.json.data[listKey];
}

const ids = (records: Record<string, unknown>[]) => records.map((r) => r.id as string);

// ---------------------------------------------------------------------------------------------
// The fixture.

/**
 * Six activity times around the Korean day 2024-04-08 (UTC+9), which runs from
 * 2024-04-07T15:00:00.000Z to 2024-04-08T15:00:00.000Z.
 */
const TIMES = [
  '2024-04-07T14:59:59.999Z',
  '2024-04-07T15:00:00.000Z',
  '2024-04-08T03:00:00.000Z',
  '2024-04-08T14:59:59.999Z',
  '2024-04-08T15:00:00.000Z',
  '2024-04-09T00:00:00.000Z',
];

/** Six activities of a record, one per time, each kind with its related id. */
function sixActivities(
  subjectType: NewActivity['subjectType'],
  subjectId: string,
  tag: string,
): NewActivity[] {
  const at = (i: number) => ({ id: `${tag}-a${i + 1}`, subjectType, subjectId, date: TIMES[i] });
  return [
    { ...at(0), type: 'create' },
    { ...at(1), type: 'email', emailMessageId: `${tag}-mail` },
    { ...at(2), type: 'memoCreate', memoId: `${tag}-memo` },
    { ...at(3), type: 'todoCreate', todoId: `${tag}-todo` },
    { ...at(4), type: 'webFormSubmit', webFormId: `${tag}-form` },
    { ...at(5), type: 'smsSend', smsId: `${tag}-sms` },
  ];
}

interface Fixture {
  ws: TestWorkspace;
  orgs: string[];
  people: string[];
  deals: string[];
  leads: string[];
  dealQuotes: string[];
}

async function buildFixture(ws: TestWorkspace, tag: string): Promise<Fixture> {
  return ws.write(async (w) => {
    const orgs = [
      await makeOrganization(w, { name: `${tag} 회사 1` }),
      await makeOrganization(w, { name: `${tag} 회사 2` }),
    ];
    const people = [
      await makePerson(w, { name: `${tag} 고객 1`, organizationId: orgs[0] }),
      await makePerson(w, { name: `${tag} 고객 2` }),
    ];
    const deals = [
      await makeDeal(w, { peopleId: people[0], organizationId: orgs[0], outcome: 'Won' }),
      await makeDeal(w, { peopleId: people[1] }),
    ];
    const leads = [
      await makeLead(w, { peopleId: people[0], organizationId: orgs[0] }),
      await makeLead(w, { peopleId: people[1] }),
    ];
    const product = await makeProduct(w);
    const dealQuotes = [
      await makeQuote(w, { dealId: deals[0], isMain: true, lines: [{ productId: product }] }),
      await makeQuote(w, { dealId: deals[0], lines: [{ productId: product, quantity: 3 }] }),
    ];
    await makeQuote(w, { leadId: leads[0], lines: [{ productId: product }] });
    const single = (
      subjectType: NewActivity['subjectType'],
      subjectId: string,
      id: string,
    ): NewActivity => ({
      id,
      subjectType,
      subjectId,
      type: 'kakaoAlimtalkSend',
      date: '2024-04-10T00:00:00.000Z',
    });
    await insertActivities(w, [
      ...sixActivities('people', people[0]!, `${tag}-p1`),
      single('people', people[1]!, `${tag}-p2-a1`),
      ...sixActivities('organization', orgs[0]!, `${tag}-o1`),
      single('organization', orgs[1]!, `${tag}-o2-a1`),
      ...sixActivities('lead', leads[0]!, `${tag}-l1`),
      single('lead', leads[1]!, `${tag}-l2-a1`),
      ...sixActivities('deal', deals[0]!, `${tag}-d1`),
      single('deal', deals[1]!, `${tag}-d2-a1`),
    ]);
    const change = (subjectType: 'deal' | 'lead' | 'organization', subjectId: string) => ({
      subjectType,
      subjectId,
      peopleId: people[0],
      organizationId: orgs[0],
      ownerId: ws.userId,
    });
    await recordHistory(w, [
      {
        ...change('deal', deals[0]!),
        id: `${tag}-dh1`,
        type: 'editField',
        fieldName: '금액',
        fieldValue: '1000',
        createdAt: '2024-04-01T00:00:00.000Z',
      },
      {
        ...change('deal', deals[0]!),
        id: `${tag}-dh2`,
        type: 'editPeopleConnection',
        peopleId: null,
        organizationId: null,
        fieldName: 'peopleId',
        fieldValue: null,
        createdAt: '2024-04-02T00:00:00.000Z',
      },
      {
        ...change('deal', deals[1]!),
        id: `${tag}-dh3`,
        type: 'editField',
        fieldName: '이름',
        fieldValue: '새 이름',
        ownerId: null,
        createdAt: '2024-04-03T00:00:00.000Z',
      },
      {
        ...change('lead', leads[0]!),
        id: `${tag}-lh1`,
        type: 'editField',
        fieldName: '이름',
        fieldValue: '리드 이름',
        createdAt: '2024-04-01T00:00:00.000Z',
      },
      {
        ...change('lead', leads[1]!),
        id: `${tag}-lh2`,
        type: 'editOrganizationConnect',
        peopleId: null,
        organizationId: null,
        fieldName: 'organizationId',
        fieldValue: null,
        ownerId: null,
        createdAt: '2024-04-02T00:00:00.000Z',
      },
      {
        ...change('organization', orgs[0]!),
        id: `${tag}-oh1`,
        type: 'editField',
        fieldName: '전화',
        fieldValue: '02-123-4567',
        createdAt: '2024-04-01T00:00:00.000Z',
      },
      {
        ...change('organization', orgs[1]!),
        id: `${tag}-oh2`,
        type: 'editField',
        fieldName: '전화',
        fieldValue: null,
        ownerId: null,
        createdAt: '2024-04-02T00:00:00.000Z',
      },
    ]);
    await recordPeopleHistory(w, [
      {
        id: `${tag}-ph1`,
        peopleId: people[0]!,
        type: 'editField',
        fieldName: '포지션',
        fieldValue: null,
        ownerId: ws.userId,
        createdAt: '2024-04-01T00:00:00.000Z',
      },
      {
        id: `${tag}-ph2`,
        peopleId: people[1]!,
        type: 'editOrganizationConnect',
        organizationId: orgs[1],
        fieldName: 'organizationId',
        fieldValue: orgs[1]!,
        ownerId: null,
        createdAt: '2024-04-02T00:00:00.000Z',
      },
    ]);
    return { ws, orgs, people, deals, leads, dealQuotes };
  });
}

let A: Fixture;
let B: Fixture;
beforeAll(async () => {
  A = await buildFixture(await testWorkspace(store, '워크스페이스 A'), 'A');
  B = await buildFixture(await testWorkspace(store, '워크스페이스 B'), 'B');
});

/** The activity lists: path, list key, id parameter, shape, and the fixture's records. */
const ACTIVITY_LISTS = [
  {
    path: '/v2/people/activity',
    listKey: 'peopleActivityList',
    idParam: 'peopleId',
    shape: subjectActivity('peopleId'),
    subjects: (f: Fixture) => f.people,
    tags: ['p1', 'p2'],
  },
  {
    path: '/v2/organization/activity',
    listKey: 'organizationActivityList',
    idParam: 'organizationId',
    shape: subjectActivity('organizationId'),
    subjects: (f: Fixture) => f.orgs,
    tags: ['o1', 'o2'],
  },
  {
    path: '/v2/lead/activity',
    listKey: 'leadActivityList',
    idParam: 'leadId',
    shape: subjectActivity('leadId'),
    subjects: (f: Fixture) => f.leads,
    tags: ['l1', 'l2'],
  },
  {
    path: '/v2/deal/activity',
    listKey: 'dealActivityList',
    idParam: 'dealId',
    shape: DEAL_ACTIVITY,
    subjects: (f: Fixture) => f.deals,
    tags: ['d1', 'd2'],
  },
] as const;

/** The ids of the fixture's six-activity record of a list, by 1-based activity number. */
const sixIds = (tag: string, ...n: number[]) => n.map((i) => `A-${tag}-a${i}`);

// ---------------------------------------------------------------------------------------------

describe('GET /v2/people/{peopleId}, /v2/organization/{organizationId}, /v2/lead/{leadId}', () => {
  const SINGLES = [
    { path: '/v2/people', key: 'people', listKey: 'peopleList', ids: (f: Fixture) => f.people },
    {
      path: '/v2/organization',
      key: 'organization',
      listKey: 'organizationList',
      ids: (f: Fixture) => f.orgs,
    },
    { path: '/v2/lead', key: 'lead', listKey: 'leadList', ids: (f: Fixture) => f.leads },
  ] as const;

  for (const single of SINGLES) {
    it(`${single.path}/{id}: data.${single.key} is the list record, byte for byte`, async () => {
      const list = await get(app, A.ws.token, single.path);
      for (const id of single.ids(A)) {
        const res = await get(app, A.ws.token, `${single.path}/${id}`);
        expect(res.status).toBe(200);
        expect(Object.keys(res.json)).toEqual(['success', 'data']);
        expect(Object.keys(res.json.data)).toEqual([single.key]);
        expect(res.json.data[single.key]).toHaveLength(1);
        const record = res.json.data[single.key][0];
        expect(record.id).toBe(id);
        const prefix = `{"success":true,"data":{"${single.key}":[`;
        expect(res.text.startsWith(prefix)).toBe(true);
        expect(res.text.endsWith(']}}')).toBe(true);
        const bytes = res.text.slice(prefix.length, -3);
        // The same bytes as in the list page, which splices the same stored JSON.
        expect(list.text).toContain(bytes);
        const fromList = (list.json.data[single.listKey] as Record<string, unknown>[]).find(
          (r) => r.id === id,
        );
        expect(Object.keys(record)).toEqual(Object.keys(fromList!));
        expect(record).toEqual(fromList);
      }
    });
  }

  it('names ignored query parameters', async () => {
    const res = await get(app, A.ws.token, `/v2/people/${A.people[0]}?limit=3&foo=1`);
    expect(res.status).toBe(200);
    expect(res.headers['x-ignored-parameters']).toBe('limit,foo');
  });
});

describe('GET /v2/deal/{dealId}/quote', () => {
  it("lists the deal's quotes oldest first, under quoteList with no cursor", async () => {
    const res = await get(app, A.ws.token, `/v2/deal/${A.deals[0]}/quote`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.json)).toEqual(['success', 'data']);
    expect(Object.keys(res.json.data)).toEqual(['quoteList']);
    expect(ids(res.json.data.quoteList)).toEqual(A.dealQuotes);
    // The same record shape as a lead's quotes.
    const leadQuotes = await get(app, A.ws.token, `/v2/lead/${A.leads[0]}/quote`);
    const leadKeys = Object.keys(leadQuotes.json.data.quoteList[0]);
    for (const quote of res.json.data.quoteList) expect(Object.keys(quote)).toEqual(leadKeys);
    expect(res.json.data.quoteList[0]['메인 견적서 여부']).toBe(true);
    expect(res.json.data.quoteList[1]['금액']).toBe(30_000);
  });

  it('answers an empty list for a deal without quotes', async () => {
    const res = await get(app, A.ws.token, `/v2/deal/${A.deals[1]}/quote`);
    expect(res.text).toBe('{"success":true,"data":{"quoteList":[]}}');
  });
});

describe.each(ACTIVITY_LISTS)('GET $path', (list) => {
  const url = (query = '') => `${list.path}${query ? `?${query}` : ''}`;
  const fetch = async (query = '') => listOf(await get(app, A.ws.token, url(query)), list.listKey);

  it('lists the activities of its records, oldest first by date then id; keys in order', async () => {
    const records = await fetch();
    const [big, small] = list.tags;
    const expected = [...sixIds(big, 1, 2, 3, 4, 5, 6), `A-${small}-a1`];
    if (list.path === '/v2/deal/activity') {
      // Deals and leads: lead activities in deal shape (docs/decisions.md, Activities and history).
      expected.push(...sixIds('l1', 1, 2, 3, 4, 5, 6), 'A-l2-a1');
    }
    const dates = new Map(records.map((r) => [r.id, `${r.date}\n${r.id}`]));
    expect(ids(records).sort()).toEqual([...expected].sort());
    const keys = ids(records).map((id) => dates.get(id)!);
    expect(keys).toEqual([...keys].sort());
    expectShape(records, list.shape);
    if (list.path === '/v2/deal/activity') {
      const lead = records.find((r) => r.id === 'A-l1-a1')!;
      expect(lead.dealId).toBe(A.leads[0]);
      expect(lead.dealStatus).toBeNull();
      expect(records.find((r) => r.id === 'A-d1-a1')!.dealStatus).toBe('Won');
    }
  });

  it('walks every page with limit, each cursor once, to the same records', async () => {
    const all = ids(await fetch());
    for (const limit of [1, 2, 5]) {
      const { records, pages, cursors } = await walk(
        app,
        A.ws.token,
        url(`limit=${limit}`),
        list.listKey,
      );
      expect(ids(records)).toEqual(all);
      expect(pages).toBe(Math.ceil(all.length / limit));
      expect(new Set(cursors).size).toBe(cursors.length);
    }
  });

  it(`filters by ${list.idParam}`, async () => {
    const [first, second] = list.subjects(A);
    const records = await fetch(`${list.idParam}=${first}`);
    expect(ids(records)).toEqual(sixIds(list.tags[0], 1, 2, 3, 4, 5, 6));
    expect(ids(await fetch(`${list.idParam}=${second}`))).toEqual([`A-${list.tags[1]}-a1`]);
    expect(await fetch(`${list.idParam}=no-such-record`)).toEqual([]);
  });

  it('filters by types, a comma list', async () => {
    const [first] = list.subjects(A);
    const records = await fetch(`${list.idParam}=${first}&types=smsSend,create`);
    expect(ids(records)).toEqual(sixIds(list.tags[0], 1, 6));
    expect(ids(await fetch(`${list.idParam}=${first}&types=memoCreate`))).toEqual(
      sixIds(list.tags[0], 3),
    );
    expect(await fetch(`${list.idParam}=${first}&types=meeting`)).toEqual([]);
    const everyType = await fetch('types=kakaoAlimtalkSend');
    expect(everyType.length).toBeGreaterThan(0);
    expect(everyType.every((r) => r.type === 'kakaoAlimtalkSend')).toBe(true);
  });

  it('filters by startDate and endDate: a YYYY-MM-DD is a whole day in Korea time', async () => {
    const of = async (query: string) =>
      ids(await fetch(`${list.idParam}=${list.subjects(A)[0]}&${query}`));
    const tag = list.tags[0];
    expect(await of('startDate=2024-04-08')).toEqual(sixIds(tag, 2, 3, 4, 5, 6));
    expect(await of('endDate=2024-04-08')).toEqual(sixIds(tag, 1, 2, 3, 4));
    expect(await of('startDate=2024-04-08&endDate=2024-04-08')).toEqual(sixIds(tag, 2, 3, 4));
    expect(await of('startDate=2024-04-09&endDate=2024-04-09')).toEqual(sixIds(tag, 5, 6));
    expect(await of('startDate=2024-04-11')).toEqual([]);
  });

  it('filters by startDate and endDate: an ISO 8601 time with offset is an exact instant, both ends included', async () => {
    const of = async (query: string) =>
      ids(await fetch(`${list.idParam}=${list.subjects(A)[0]}&${query}`));
    const tag = list.tags[0];
    expect(await of('startDate=2024-04-08T03:00:00.000Z')).toEqual(sixIds(tag, 3, 4, 5, 6));
    expect(await of('endDate=2024-04-08T03:00:00.000Z')).toEqual(sixIds(tag, 1, 2, 3));
    expect(
      await of(
        `startDate=${encodeURIComponent('2024-04-08T00:00:00+09:00')}&endDate=2024-04-08T12:00:00Z`,
      ),
    ).toEqual(sixIds(tag, 2, 3));
    // A `+` sent unencoded arrives as a space, and still reads as the offset.
    expect(await of('startDate=2024-04-09T00:00:00+09:00')).toEqual(sixIds(tag, 5, 6));
    expect(await of('startDate=2024-04-08T03:00:00Z&endDate=2024-04-08T03:00:00Z')).toEqual(
      sixIds(tag, 3),
    );
  });

  it('filters without a record id, and walks a filtered list', async () => {
    const query = 'types=create,email,smsSend&startDate=2024-04-08&endDate=2024-04-09';
    const records = await fetch(query);
    expect(records.length).toBeGreaterThan(1);
    for (const r of records) {
      const date = r.date as string;
      expect(['create', 'email', 'smsSend']).toContain(r.type);
      expect(date >= '2024-04-07T15:00:00.000Z' && date < '2024-04-09T15:00:00.000Z').toBe(true);
    }
    const walked = await walk(app, A.ws.token, url(`${query}&limit=1`), list.listKey);
    expect(ids(walked.records)).toEqual(ids(records));
    // Same filters in another order or spelling: the same list, and the cursor still fits.
    const first = await get(
      app,
      A.ws.token,
      url('limit=1&endDate=2024-04-09&startDate=2024-04-08&types=smsSend,email,create'),
    );
    const cursor = first.json.data.nextCursor as string;
    const next = await get(app, A.ws.token, url(`${query}&limit=1&cursor=${cursor}`));
    expect(ids(listOf(next, list.listKey))).toEqual([ids(records)[1]]);
  });

  it('binds a cursor to every filter value', async () => {
    const [first, second] = list.subjects(A);
    const filtered = `${list.idParam}=${first}&types=create,email&startDate=2024-04-01&endDate=2024-04-30`;
    const page = await get(app, A.ws.token, url(`${filtered}&limit=1`));
    const cursor = page.json.data.nextCursor as string;
    expect(typeof cursor).toBe('string');
    for (const other of [
      '',
      `${list.idParam}=${second}&types=create,email&startDate=2024-04-01&endDate=2024-04-30`,
      `${list.idParam}=${first}&types=create&startDate=2024-04-01&endDate=2024-04-30`,
      `${list.idParam}=${first}&types=create,email&startDate=2024-04-02&endDate=2024-04-30`,
      `${list.idParam}=${first}&types=create,email&startDate=2024-04-01&endDate=2024-04-29`,
      `${list.idParam}=${first}&types=create,email&startDate=2024-04-01`,
    ]) {
      const res = await get(app, A.ws.token, url(`${other}&cursor=${cursor}`));
      expectErrorA(res, 400, "'cursor'");
    }
    const same = await get(app, A.ws.token, url(`${filtered}&limit=5&cursor=${cursor}`));
    expect(same.status).toBe(200);
  });
});

describe('GET /v2/deal/activity?dealId=', () => {
  it("lists a lead's activities by its id too, in deal shape", async () => {
    const res = await get(app, A.ws.token, `/v2/deal/activity?dealId=${A.leads[0]}`);
    const records = listOf(res, 'dealActivityList');
    expect(ids(records)).toEqual(sixIds('l1', 1, 2, 3, 4, 5, 6));
    expect(records.every((r) => r.dealId === A.leads[0] && r.dealStatus === null)).toBe(true);
    // The same activities as the lead's own list, which names the lead `leadId`.
    const own = listOf(
      await get(app, A.ws.token, `/v2/lead/activity?leadId=${A.leads[0]}`),
      'leadActivityList',
    );
    expect(ids(own)).toEqual(ids(records));
    for (const [i, r] of own.entries()) {
      const { dealId, dealStatus, ...rest } = records[i]!;
      expect(r).toEqual({ ...rest, leadId: dealId, emailId: rest.emailMessageId });
      expect(dealStatus).toBeNull();
    }
  });
});

/** The history lists: path, list key, id parameter, shape, and the fixture's rows. */
const HISTORY_LISTS = [
  {
    path: '/v2/deal/history',
    listKey: 'dealHistoryList',
    idParam: 'dealId',
    shape: linkedHistory('dealId'),
    subjects: (f: Fixture) => f.deals,
    rows: [['A-dh1', 'A-dh2'], ['A-dh3']],
  },
  {
    path: '/v2/lead/history',
    listKey: 'leadHistoryList',
    idParam: 'leadId',
    shape: linkedHistory('leadId'),
    subjects: (f: Fixture) => f.leads,
    rows: [['A-lh1'], ['A-lh2']],
  },
  {
    path: '/v2/organization/history',
    listKey: 'organizationHistoryList',
    idParam: 'organizationId',
    shape: ORGANIZATION_HISTORY,
    subjects: (f: Fixture) => f.orgs,
    rows: [['A-oh1'], ['A-oh2']],
  },
  {
    path: '/v2/people/history',
    listKey: 'peopleHistoryList',
    idParam: 'peopleId',
    shape: PEOPLE_HISTORY,
    subjects: (f: Fixture) => f.people,
    rows: [['A-ph1'], ['A-ph2']],
  },
] as const;

describe.each(HISTORY_LISTS)('GET $path', (list) => {
  it('lists the changes oldest first by createdAt then id; keys in order', async () => {
    const records = listOf(await get(app, A.ws.token, list.path), list.listKey);
    expect(ids(records)).toEqual(list.rows.flat());
    expectShape(records, list.shape);
  });

  it(`filters by ${list.idParam}, and walks with limit`, async () => {
    const [first, second] = list.subjects(A);
    for (const [i, id] of [first, second].entries()) {
      const res = await get(app, A.ws.token, `${list.path}?${list.idParam}=${id}`);
      expect(ids(listOf(res, list.listKey))).toEqual(list.rows[i]);
    }
    const none = await get(app, A.ws.token, `${list.path}?${list.idParam}=no-such-record`);
    expect(listOf(none, list.listKey)).toEqual([]);
    const { records, cursors } = await walk(app, A.ws.token, `${list.path}?limit=1`, list.listKey);
    expect(ids(records)).toEqual(list.rows.flat());
    expect(new Set(cursors).size).toBe(cursors.length);
    if (list.rows[0].length > 1) {
      const url = `${list.path}?${list.idParam}=${first}&limit=1`;
      const walked = await walk(app, A.ws.token, url, list.listKey);
      expect(ids(walked.records)).toEqual(list.rows[0]);
    }
  });

  it('binds a cursor to the id filter', async () => {
    const page = await get(app, A.ws.token, `${list.path}?limit=1`);
    const cursor = page.json.data.nextCursor as string;
    const [first] = list.subjects(A);
    const res = await get(
      app,
      A.ws.token,
      `${list.path}?${list.idParam}=${first}&cursor=${cursor}`,
    );
    expectErrorA(res, 400, "'cursor'");
  });
});

// ---------------------------------------------------------------------------------------------

describe('bad input', () => {
  /** One bad request per row: path, status, and the text its message must contain. */
  const rows: { url: (f: Fixture) => string; status: number; names: string }[] = [
    { url: () => '/v2/people/bad!id', status: 400, names: "'peopleId'" },
    { url: () => `/v2/people/${'x'.repeat(65)}`, status: 400, names: "'peopleId'" },
    { url: () => '/v2/people/no-such-person', status: 404, names: 'no-such-person' },
    { url: (f) => `/v2/people/${f.orgs[0]}`, status: 404, names: '고객' },
    { url: () => '/v2/organization/bad.id', status: 400, names: "'organizationId'" },
    { url: () => '/v2/organization/no-such-org', status: 404, names: 'no-such-org' },
    { url: (f) => `/v2/organization/${f.people[0]}`, status: 404, names: '회사' },
    { url: () => '/v2/lead/bad%20id', status: 400, names: "'leadId'" },
    { url: () => '/v2/lead/no-such-lead', status: 404, names: 'no-such-lead' },
    { url: (f) => `/v2/lead/${f.deals[0]}`, status: 404, names: '리드' },
    { url: () => '/v2/deal/bad!id/quote', status: 400, names: "'dealId'" },
    { url: () => '/v2/deal/no-such-deal/quote', status: 404, names: 'no-such-deal' },
    { url: (f) => `/v2/deal/${f.leads[0]}/quote`, status: 404, names: '딜' },
    ...ACTIVITY_LISTS.flatMap(({ path, idParam }) => [
      { url: () => `${path}?${idParam}=bad!id`, status: 400, names: `'${idParam}'` },
      { url: () => `${path}?${idParam}=`, status: 400, names: `'${idParam}'` },
      { url: () => `${path}?${idParam}=activity`, status: 400, names: `'${idParam}'` },
      { url: () => `${path}?${idParam}=a&${idParam}=b`, status: 400, names: `'${idParam}'` },
      { url: () => `${path}?types=call`, status: 400, names: "'call'" },
      { url: () => `${path}?types=create,Email`, status: 400, names: "'Email'" },
      { url: () => `${path}?types=`, status: 400, names: "'types'" },
      { url: () => `${path}?types=create,,email`, status: 400, names: "'types'" },
      { url: () => `${path}?startDate=2024-4-8`, status: 400, names: "'startDate'" },
      { url: () => `${path}?startDate=2024-02-30`, status: 400, names: "'startDate'" },
      { url: () => `${path}?startDate=`, status: 400, names: "'startDate'" },
      { url: () => `${path}?endDate=2024-04-08T12:00:00`, status: 400, names: "'endDate'" },
      { url: () => `${path}?endDate=yesterday`, status: 400, names: "'endDate'" },
      { url: () => `${path}?endDate=1712553926`, status: 400, names: "'endDate'" },
      {
        url: () => `${path}?startDate=2024-04-09&endDate=2024-04-08`,
        status: 400,
        names: "'startDate'",
      },
      {
        url: () => `${path}?startDate=2024-04-08T00:00:00.001Z&endDate=2024-04-08T00:00:00Z`,
        status: 400,
        names: "'endDate'",
      },
      { url: () => `${path}?limit=0`, status: 400, names: "'limit'" },
      { url: () => `${path}?limit=abc`, status: 400, names: "'limit'" },
      { url: () => `${path}?cursor=garbage`, status: 400, names: "'cursor'" },
    ]),
    ...HISTORY_LISTS.flatMap(({ path, idParam }) => [
      { url: () => `${path}?${idParam}=bad!id`, status: 400, names: `'${idParam}'` },
      { url: () => `${path}?${idParam}=`, status: 400, names: `'${idParam}'` },
      { url: () => `${path}?${idParam}=a&${idParam}=b`, status: 400, names: `'${idParam}'` },
      { url: () => `${path}?limit=-1`, status: 400, names: "'limit'" },
      { url: () => `${path}?cursor=garbage`, status: 400, names: "'cursor'" },
    ]),
  ];

  it.each(rows.map((r, i) => [i, r] as const))('row %i', async (_, row) => {
    const url = row.url(A);
    const res = await get(app, A.ws.token, url);
    expect(res.status, url).toBe(row.status);
    expectErrorA(res, row.status, row.names);
  });

  it('answers 401 without a token on every new endpoint', async () => {
    for (const url of [
      `/v2/people/${A.people[0]}`,
      `/v2/organization/${A.orgs[0]}`,
      `/v2/lead/${A.leads[0]}`,
      `/v2/deal/${A.deals[0]}/quote`,
      ...ACTIVITY_LISTS.map((l) => l.path),
      ...HISTORY_LISTS.map((l) => l.path),
    ]) {
      expectErrorA(await get(app, null, url), 401);
    }
  });
});

describe('another workspace', () => {
  it("answers 404 for the other workspace's records, as for ids that exist nowhere", async () => {
    const reads = [
      (id: string) => `/v2/people/${id}`,
      (id: string) => `/v2/organization/${id}`,
      (id: string) => `/v2/lead/${id}`,
      (id: string) => `/v2/deal/${id}/quote`,
    ];
    const theirs = [B.people[0]!, B.orgs[0]!, B.leads[0]!, B.deals[0]!];
    for (const [i, path] of reads.entries()) {
      const id = theirs[i]!;
      const res = await get(app, A.ws.token, path(id));
      expectErrorA(res, 404);
      const nowhere = `${id.slice(0, -1)}${id.endsWith('0') ? '1' : '0'}`;
      const none = await get(app, A.ws.token, path(nowhere));
      expect(res.json.message.replaceAll(id, 'ID')).toBe(
        none.json.message.replaceAll(nowhere, 'ID'),
      );
    }
  });

  it("lists nothing when filtered by the other workspace's records, and never shows them", async () => {
    const lists = [...ACTIVITY_LISTS, ...HISTORY_LISTS];
    const foreign = [B.ws.workspaceId, ...B.people, ...B.orgs, ...B.deals, ...B.leads];
    for (const list of lists) {
      for (const id of list.subjects(B)) {
        const res = await get(app, A.ws.token, `${list.path}?${list.idParam}=${id}`);
        expect(listOf(res, list.listKey), `${list.path} ${id}`).toEqual([]);
      }
      const { records } = await walk(app, A.ws.token, `${list.path}?limit=3`, list.listKey);
      expect(records.length).toBeGreaterThan(0);
      const text = JSON.stringify(records);
      for (const id of foreign) expect(text, list.path).not.toContain(id);
      expect(text).not.toContain('"B-');
    }
  });

  it("refuses the other workspace's cursors", async () => {
    for (const list of [...ACTIVITY_LISTS, ...HISTORY_LISTS]) {
      const page = await get(app, B.ws.token, `${list.path}?limit=1`);
      const cursor = page.json.data.nextCursor as string;
      expect(typeof cursor).toBe('string');
      expectErrorA(await get(app, A.ws.token, `${list.path}?cursor=${cursor}`), 400, "'cursor'");
    }
  });
});

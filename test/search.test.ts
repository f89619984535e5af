/**
 * `POST /v2/object/{targetType}/search` (docs/search.md), on each store: random
 * filters, sorts and page sizes (fast-check) against the same filter computed here from a
 * full walk of the list; cursors over a sorted search while records are written between
 * pages; another workspace's records never matching; and the 400s and the rate cost.
 */
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { CrmClient } from '../src/client/index.ts';
import {
  defineCustomField,
  deleteCustomField,
  renameCustomField,
} from '../src/resources/custom-fields/writes.ts';
import { searchTuning } from '../src/resources/search/run-search.ts';
import { bumpCatalogVersion } from '../src/store/catalog.ts';
import { placedSelectValues } from '../src/store/migrations/019-placed-select-values.ts';
import { fillSearchIndex } from '../src/store/migrations/frozen/search-index.ts';
import { verifyWorkspace } from '../src/store/read-model/verify.ts';
import { listen } from './client-server.ts';
import { makeCustomField, makePerson, makeUser } from './factories.ts';
import {
  appForFile,
  get,
  post,
  TEST_DIALECT,
  type TestStore,
  type TestWorkspace,
  testApp,
  testWorkspace,
  walk,
} from './helpers.ts';

type Rec = Record<string, unknown>;

let store: TestStore;
let app: FastifyInstance;
appForFile((s, a) => {
  store = s;
  app = a;
});

const TODAY = new Date().toISOString().slice(0, 10);
const dayFrom = (days: number) =>
  new Date(Date.parse(`${TODAY}T00:00:00.000Z`) + days * 86_400_000).toISOString().slice(0, 10);

const SURNAMES = ['김', '이', '박', '최', '정'];
const GIVEN = ['민준', '서연', '지호', '하은', '도윤', '민서'];
const GRADES = ['A', 'B', 'C'];
const INTERESTS = ['CRM', '분석', '모바일'];

let ws: TestWorkspace;
let other: TestWorkspace;
let users: { id: string; name: string }[];
/** Every person of `ws`, as `GET /v2/people` lists them (oldest first). */
let people: Rec[];

/** Creates a person through the API with the i-th mix of values. */
async function createPerson(w: TestWorkspace, i: number): Promise<void> {
  const name = `${SURNAMES[i % 5]}${GIVEN[(i * 7) % 6]}`;
  const fieldList: Rec[] = [];
  if (i % 4 !== 0)
    fieldList.push({ name: '이메일', stringValue: `p${i}@${i % 3 ? 'a.com' : 'b.kr'}` });
  if (i % 3 !== 1) fieldList.push({ name: '전화', stringValue: `010-${1000 + (i % 13)}` });
  if (i % 5 !== 2) fieldList.push({ name: '등급', stringValue: GRADES[i % 3] });
  if (i % 6 !== 3) fieldList.push({ name: '점수', numberValue: (i * 37) % 101 });
  if (i % 7 !== 4) fieldList.push({ name: 'VIP', booleanValue: i % 2 === 0 });
  if (i % 5 !== 0)
    fieldList.push({
      name: '생일',
      dateValue: `${dayFrom(((i * 11) % 91) - 45)}T0${i % 10}:30:00.000Z`,
    });
  if (i % 4 !== 1)
    fieldList.push({ name: '관심', stringValueList: INTERESTS.filter((_, k) => (i >> k) & 1) });
  if (i % 3 === 0)
    fieldList.push({ name: '메모', stringValue: i % 2 ? '재계약 검토' : '신규 문의' });
  if (users.length > 0) {
    fieldList.push({ name: '담당자', userValueId: users[i % users.length]!.id });
    if (i % 2)
      fieldList.push({ name: '추천 담당자', userValueId: users[(i + 1) % users.length]!.id });
  }
  const res = await post(app, w.token, '/v2/people', { name, fieldList });
  expect(res.status, res.text).toBe(201);
}

/** Creates the first `n` people of the mix in `w`, without owners (whose users `w` lacks). */
async function createPeopleWithoutOwners(w: TestWorkspace, n: number): Promise<void> {
  const mine = users;
  users = [];
  try {
    for (let i = 0; i < n; i++) await createPerson(w, i);
  } finally {
    users = mine;
  }
}

async function defineFields(w: TestWorkspace): Promise<void> {
  await w.write(async (t) => {
    await defineCustomField(t, {
      recordType: 'people',
      name: '등급',
      type: 'singleSelect',
      options: GRADES,
    });
    await defineCustomField(t, {
      recordType: 'people',
      name: '관심',
      type: 'multiSelect',
      options: INTERESTS,
    });
    await makeCustomField(t, 'people', '점수', 'number');
    await makeCustomField(t, 'people', 'VIP', 'boolean');
    await makeCustomField(t, 'people', '생일', 'date');
    await makeCustomField(t, 'people', '메모', 'string');
    await makeCustomField(t, 'people', '추천 담당자', 'user');
  });
}

beforeAll(async () => {
  ws = await testWorkspace(store);
  other = await testWorkspace(store, '다른 워크스페이스');
  await defineFields(ws);
  await defineFields(other);
  users = [{ id: ws.userId, name: '김관리' }];
  for (const name of ['박영업', '이매니저'])
    users.push({ id: await ws.write((w) => makeUser(w, name)), name });
  for (let i = 0; i < 90; i++) await createPerson(ws, i);
  // The other workspace has people with the very same names and values.
  await createPeopleWithoutOwners(other, 30);
  people = (await walk(app, ws.token, '/v2/people?limit=100', 'peopleList')).records;
  expect(people).toHaveLength(90);
}, 120_000);

// ---------------------------------------------------------------------------------------
// The meaning of each operator, written out again here from the documented rules.

interface Filter {
  fieldName: string;
  operator: string;
  value?: unknown;
}

type Kind = 'text' | 'id' | 'number' | 'boolean' | 'date' | 'textList' | 'ref' | 'refList';

const FIELDS: Record<string, Kind> = {
  id: 'id',
  이름: 'text',
  이메일: 'text',
  전화: 'text',
  등급: 'text',
  메모: 'text',
  점수: 'number',
  '딜 개수': 'number',
  VIP: 'boolean',
  '수신 거부 여부': 'boolean',
  생일: 'date',
  '생성 날짜': 'date',
  관심: 'textList',
  담당자: 'ref',
  '추천 담당자': 'ref',
  팀: 'refList',
};

function isThere(v: unknown): boolean {
  return !(v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0));
}

function refIs(v: unknown, x: unknown): boolean {
  return typeof v === 'object' && v !== null && ((v as Rec).id === x || (v as Rec).name === x);
}

function expectedMatch(rec: Rec, f: Filter): boolean {
  const v = rec[f.fieldName];
  const x = f.value;
  const list = (Array.isArray(x) ? x : [x]) as unknown[];
  const day = typeof v === 'string' ? v.slice(0, 10) : null;
  const d = (n: number) => dayFrom(n);
  switch (f.operator) {
    case 'EXISTS':
      return isThere(v);
    case 'NOT_EXISTS':
      return !isThere(v);
    case 'EQ':
      return FIELDS[f.fieldName] === 'ref' ? refIs(v, x) : v === x;
    case 'NEQ':
      return FIELDS[f.fieldName] === 'ref' ? !refIs(v, x) : v !== x;
    case 'IN':
      return FIELDS[f.fieldName] === 'ref' ? list.some((y) => refIs(v, y)) : list.includes(v);
    case 'NOT_IN':
      return FIELDS[f.fieldName] === 'ref' ? !list.some((y) => refIs(v, y)) : !list.includes(v);
    case 'CONTAINS':
      return typeof v === 'string' && v.toLowerCase().includes(String(x).toLowerCase());
    case 'NOT_CONTAINS':
      return !(typeof v === 'string' && v.toLowerCase().includes(String(x).toLowerCase()));
    case 'LT':
      return typeof v === 'number' && v < (x as number);
    case 'LTE':
      return typeof v === 'number' && v <= (x as number);
    case 'GT':
      return typeof v === 'number' && v > (x as number);
    case 'GTE':
      return typeof v === 'number' && v >= (x as number);
    case 'LIST_CONTAIN':
    case 'LIST_NOT_CONTAIN': {
      const has =
        Array.isArray(v) &&
        v.some((item) =>
          list.some((y) => (FIELDS[f.fieldName] === 'refList' ? refIs(item, y) : item === y)),
        );
      return f.operator === 'LIST_CONTAIN' ? has : !has;
    }
  }
  if (day === null) return false;
  const n = x as number;
  switch (f.operator) {
    case 'DATE_ON_OR_AFTER':
      return day >= (x as string);
    case 'DATE_ON_OR_BEFORE':
      return day <= (x as string);
    case 'DATE_IS_SPECIFIC_DAY':
      return day === x;
    case 'DATE_BETWEEN':
      return day >= (x as string[])[0]! && day <= (x as string[])[1]!;
    case 'DATE_MORE_THAN_DAYS_AGO':
      return day < d(-n);
    case 'DATE_LESS_THAN_DAYS_AGO':
      return day > d(-n) && day <= TODAY;
    case 'DATE_LESS_THAN_DAYS_LATER':
      return day >= TODAY && day < d(n);
    case 'DATE_MORE_THAN_DAYS_LATER':
      return day > d(n);
    case 'DATE_AGO':
      return day === d(-n);
    case 'DATE_LATER':
      return day === d(n);
  }
  throw new Error(`no meaning for ${f.operator}`);
}

interface Sort {
  fieldName: string;
  direction?: 'asc' | 'desc';
}

function sortValue(rec: Rec, name: string): string | number | null {
  const v = rec[name];
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'object') return String((v as Rec).name);
  return v as string | number;
}

function expectedIds(groups: Filter[][], sortList: Sort[]): string[] {
  const found = people.filter(
    (rec) => groups.length === 0 || groups.some((g) => g.every((f) => expectedMatch(rec, f))),
  );
  const keys: Sort[] = sortList.length > 0 ? sortList : [{ fieldName: '생성 날짜' }];
  return found
    .slice()
    .sort((a, b) => {
      for (const k of keys) {
        const x = sortValue(a, k.fieldName);
        const y = sortValue(b, k.fieldName);
        if (x === y) continue;
        if (x === null) return 1;
        if (y === null) return -1;
        const o = x < y ? -1 : 1;
        return k.direction === 'desc' ? -o : o;
      }
      return String(a.id) < String(b.id) ? -1 : 1;
    })
    .map((r) => String(r.id));
}

/**
 * A filter every record passes: a search needs at least one (`[filterGroupList]: 필수 입력
 * 사항입니다.` otherwise, as the live API answers).
 */
const EVERY = [{ filters: [{ fieldName: 'id', operator: 'EXISTS' as const }] }];

/** Every id a search finds, following its cursors; with the pages' sizes. */
async function searchAll(
  w: TestWorkspace,
  body: Rec,
  between?: () => Promise<void>,
): Promise<{ ids: string[]; pages: number[] }> {
  const ids: string[] = [];
  const pages: number[] = [];
  let cursor: string | null = null;
  do {
    const url: string = `/v2/object/people/search${cursor ? `?cursor=${cursor}` : ''}`;
    const res = await post(app, w.token, url, body);
    expect(res.status, res.text).toBe(200);
    const list = res.json.data.objectList as Rec[];
    pages.push(list.length);
    ids.push(...list.map((o) => String(o.id)));
    cursor = res.json.data.nextCursor;
    if (cursor && between) await between();
  } while (cursor);
  return { ids, pages };
}

// ---------------------------------------------------------------------------------------
// Random filters.

const pick = <T>(xs: readonly T[]) => fc.constantFrom(...xs);
const names = () => pick([...new Set(people.map((p) => String(p['이름'])))].concat(['없는 이름']));
const emails = () => pick(people.map((p) => p['이메일']).filter((e): e is string => !!e));
const ids = () =>
  pick(people.map((p) => String(p.id)).concat(['0190aaaa-0000-7000-8000-000000000000']));
const dayArb = fc.integer({ min: -50, max: 50 }).map(dayFrom);
const dayCount = fc.integer({ min: 0, max: 50 });
const who = () => pick(users.flatMap((u) => [u.id, u.name]));

function filterArb(): fc.Arbitrary<Filter> {
  const f = (fieldName: string, operator: string, value?: fc.Arbitrary<unknown>) =>
    value
      ? value.map((v) => ({ fieldName, operator, value: v }))
      : fc.constant({ fieldName, operator });
  const exists = (name: string) => fc.oneof(f(name, 'EXISTS'), f(name, 'NOT_EXISTS'));
  const text = (name: string, values: fc.Arbitrary<string>, parts: fc.Arbitrary<string>) =>
    fc.oneof(
      exists(name),
      f(name, 'EQ', values),
      f(name, 'NEQ', values),
      f(name, 'IN', fc.uniqueArray(values, { minLength: 1, maxLength: 4 })),
      f(name, 'NOT_IN', fc.uniqueArray(values, { minLength: 1, maxLength: 4 })),
      f(name, 'CONTAINS', parts),
      f(name, 'NOT_CONTAINS', parts),
    );
  const number = (name: string) =>
    fc.oneof(
      exists(name),
      ...['EQ', 'LT', 'LTE', 'GT', 'GTE'].map((op) =>
        f(name, op, fc.integer({ min: -5, max: 105 })),
      ),
    );
  const date = (name: string) =>
    fc.oneof(
      exists(name),
      ...['DATE_ON_OR_AFTER', 'DATE_ON_OR_BEFORE', 'DATE_IS_SPECIFIC_DAY'].map((op) =>
        f(name, op, dayArb),
      ),
      f(
        name,
        'DATE_BETWEEN',
        fc.tuple(dayArb, dayArb).map(([a, b]) => (a <= b ? [a, b] : [b, a])),
      ),
      ...[
        'DATE_MORE_THAN_DAYS_AGO',
        'DATE_LESS_THAN_DAYS_AGO',
        'DATE_LESS_THAN_DAYS_LATER',
        'DATE_MORE_THAN_DAYS_LATER',
        'DATE_AGO',
        'DATE_LATER',
      ].map((op) => f(name, op, dayCount)),
    );
  const syllables = pick(['민', '준', '서연', '김', '이지', 'A', 'a.com', '@', '010', '검토']);
  return fc.oneof(
    text('이름', names(), syllables),
    text('이메일', emails(), syllables),
    text('전화', pick(people.map((p) => p['전화']).filter((e): e is string => !!e)), syllables),
    text('등급', pick(GRADES), syllables),
    text('메모', pick(['재계약 검토', '신규 문의', '없음']), syllables),
    fc.oneof(
      exists('id'),
      f('id', 'EQ', ids()),
      f('id', 'IN', fc.uniqueArray(ids(), { minLength: 1, maxLength: 5 })),
      f('id', 'NOT_IN', fc.uniqueArray(ids(), { minLength: 1, maxLength: 5 })),
    ),
    number('점수'),
    number('딜 개수'),
    fc.oneof(exists('VIP'), f('VIP', 'EQ', fc.boolean()), f('VIP', 'NEQ', fc.boolean())),
    f('수신 거부 여부', 'EQ', fc.boolean()),
    date('생일'),
    date('생성 날짜'),
    fc.oneof(
      exists('관심'),
      f('관심', 'LIST_CONTAIN', fc.uniqueArray(pick(INTERESTS), { minLength: 1, maxLength: 2 })),
      f(
        '관심',
        'LIST_NOT_CONTAIN',
        fc.uniqueArray(pick(INTERESTS), { minLength: 1, maxLength: 2 }),
      ),
    ),
    fc.oneof(exists('담당자'), f('담당자', 'EQ', who()), f('담당자', 'NEQ', who())),
    fc.oneof(
      exists('추천 담당자'),
      f('추천 담당자', 'IN', fc.uniqueArray(who(), { minLength: 1, maxLength: 3 })),
      f('추천 담당자', 'NOT_IN', fc.uniqueArray(who(), { minLength: 1, maxLength: 3 })),
    ),
    fc.oneof(exists('팀'), f('팀', 'LIST_CONTAIN', pick(['영업1팀', '없는 팀']))),
  );
}

const sortArb: fc.Arbitrary<Sort[]> = fc.oneof(
  fc.constant([] as Sort[]),
  fc.uniqueArray(
    fc.record({
      fieldName: pick(['이름', '점수', '생일', 'VIP', '담당자', '등급', '이메일', '생성 날짜']),
      direction: pick(['asc', 'desc'] as const),
    }),
    { minLength: 1, maxLength: 2, selector: (s) => s.fieldName },
  ),
);

/**
 * Checks random filters (up to 3 groups of up to 3), sorts from `sorts` and page sizes up to
 * `maxLimit` against the same filter computed from a full walk, over every page
 * (`SEARCH_RUNS`, else `runs`, cases).
 */
async function matchesWalk(
  sorts: fc.Arbitrary<Sort[]>,
  maxLimit: number,
  runs: number,
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.array(filterArb(), { minLength: 1, maxLength: 3 }), { maxLength: 3 }),
      sorts,
      fc.integer({ min: 1, max: maxLimit }),
      async (groups, sortList, limit) => {
        const filterGroupList = groups.length ? groups.map((filters) => ({ filters })) : EVERY;
        const body: Rec = { filterGroupList, limit };
        if (sortList.length > 0) body.sortList = sortList;
        const { ids, pages } = await searchAll(ws, body);
        expect(ids).toEqual(expectedIds(groups, sortList));
        // Every page but the last is full; an empty search is one empty page.
        expect(pages.slice(0, -1).every((n) => n === limit)).toBe(true);
      },
    ),
    { numRuns: Number(process.env.SEARCH_RUNS ?? runs) },
  );
}

describe('search', () => {
  it('finds what the same filter finds in a full walk, in order, over every page', async () => {
    await matchesWalk(sortArb, 100, 100);
  }, 240_000);

  it('gives each operator on each field type the documented meaning, at every boundary', async () => {
    const valuesOf = (name: string) => [
      ...new Set(people.map((p) => p[name]).filter((v) => v !== null && v !== undefined)),
    ];
    const days = Array.from({ length: 47 }, (_, n) => n);
    const dates = Array.from({ length: 95 }, (_, n) => dayFrom(n - 47));
    const cases: Filter[] = [];
    const add = (fieldName: string, operator: string, values: unknown[]) => {
      for (const value of values) cases.push({ fieldName, operator, value });
    };
    for (const [name, kind] of Object.entries(FIELDS)) {
      cases.push(
        { fieldName: name, operator: 'EXISTS' },
        { fieldName: name, operator: 'NOT_EXISTS' },
      );
      const seen = valuesOf(name).slice(0, 12);
      if (kind === 'text' || kind === 'id') {
        for (const op of ['EQ', 'NEQ']) add(name, op, [...seen, '없는 값']);
        for (const op of ['IN', 'NOT_IN']) add(name, op, [seen.slice(0, 3), ['없는 값']]);
      }
      if (kind === 'text')
        for (const op of ['CONTAINS', 'NOT_CONTAINS'])
          add(name, op, ['민', '김', 'A', 'a', 'A.COM', '@', '010-10', '검토']);
      if (kind === 'number')
        for (const op of ['EQ', 'LT', 'LTE', 'GT', 'GTE']) add(name, op, [-1, 0, 1, 37, 50, 100]);
      if (kind === 'boolean') for (const op of ['EQ', 'NEQ']) add(name, op, [true, false]);
      if (kind === 'date') {
        for (const op of ['DATE_ON_OR_AFTER', 'DATE_ON_OR_BEFORE', 'DATE_IS_SPECIFIC_DAY'])
          add(
            name,
            op,
            dates.filter((_, i) => i % 3 === 0),
          );
        add(name, 'DATE_BETWEEN', [
          [dates[10], dates[50]],
          [dates[47], dates[47]],
          [dates[0], dates[94]],
        ]);
        for (const op of [
          'DATE_MORE_THAN_DAYS_AGO',
          'DATE_LESS_THAN_DAYS_AGO',
          'DATE_LESS_THAN_DAYS_LATER',
          'DATE_MORE_THAN_DAYS_LATER',
          'DATE_AGO',
          'DATE_LATER',
        ])
          add(name, op, days);
      }
      if (kind === 'textList')
        for (const op of ['LIST_CONTAIN', 'LIST_NOT_CONTAIN'])
          add(name, op, [['CRM'], ['분석', '모바일'], ['없는 값']]);
      const refs = users.flatMap((u) => [u.id, u.name]);
      if (kind === 'ref') {
        for (const op of ['EQ', 'NEQ']) add(name, op, refs);
        for (const op of ['IN', 'NOT_IN']) add(name, op, [refs.slice(0, 3), ['없는 값']]);
      }
      if (kind === 'refList')
        for (const op of ['LIST_CONTAIN', 'LIST_NOT_CONTAIN'])
          add(name, op, [['영업1팀'], [ws.teamId], ['없는 팀']]);
    }
    const wrong: string[] = [];
    for (const filter of cases) {
      const { ids } = await searchAll(ws, { filterGroupList: [{ filters: [filter] }], limit: 100 });
      if (JSON.stringify(ids) !== JSON.stringify(expectedIds([[filter]], [])))
        wrong.push(JSON.stringify(filter));
    }
    expect(wrong).toEqual([]);
    expect(cases.length).toBeGreaterThan(800);
  }, 240_000);

  it('answers {id, name} and the chosen fields in the record key order; 50 a page by default', async () => {
    const res = await post(app, ws.token, '/v2/object/people/search', {
      filterGroupList: EVERY,
      fieldList: ['점수', '이메일', '이름'],
    });
    expect(res.status).toBe(200);
    const list = res.json.data.objectList as Rec[];
    expect(list).toHaveLength(50);
    const first = people.find((p) => p.id === list[0]!.id)!;
    expect(Object.keys(list[0]!)).toEqual(['id', 'name', '이름', '이메일', '점수']);
    expect(list[0]).toEqual({
      id: first.id,
      name: first['이름'],
      이름: first['이름'],
      이메일: first['이메일'],
      점수: first['점수'],
    });
    const plain = await post(app, ws.token, '/v2/object/people/search', {
      filterGroupList: [{ filters: [{ fieldName: '이름', operator: 'EQ', value: '김민준' }] }],
    });
    expect(Object.keys(plain.json.data.objectList[0])).toEqual(['id', 'name']);
    expect(plain.json.data.nextCursor).toBeNull();
  });

  it('is crm.people.search in the typed client, following the cursors', async () => {
    const crm = new CrmClient({ baseUrl: await listen(app), token: ws.token });
    const request = {
      filterGroupList: [{ filters: [{ fieldName: '점수', operator: 'GTE' as const, value: 30 }] }],
      sortList: [{ fieldName: '점수', direction: 'asc' as const }],
      fieldList: ['점수'],
    };
    const found = await crm.people.search(request, { limit: 9 }).toArray({ max: 1000 });
    expect(found.map((o) => o.id)).toEqual(
      expectedIds(
        request.filterGroupList.map((g) => g.filters),
        request.sortList,
      ),
    );
    expect(found.every((o) => typeof o['점수'] === 'number' && o['점수'] >= 30)).toBe(true);
    const page = await crm.deals.search({ filterGroupList: EVERY }).page();
    expect(page).toEqual({ items: [], nextCursor: null });
  });

  it('walks a sorted search without a gap or a repeat while records are written between pages', async () => {
    const body = {
      filterGroupList: EVERY,
      sortList: [{ fieldName: '점수', direction: 'desc' }],
      limit: 7,
    };
    const before = expectedIds([], body.sortList as Sort[]);
    let n = 1000;
    const { ids } = await searchAll(ws, body, async () => {
      await createPerson(ws, n++);
      await createPerson(ws, n++);
    });
    expect(new Set(ids).size).toBe(ids.length);
    const seen = ids.filter((id) => before.includes(id));
    expect(seen).toEqual(before);
    // Restore the walk's view of the workspace for the tests after this one.
    people = (await walk(app, ws.token, '/v2/people?limit=100', 'peopleList')).records;
  });

  it('walks a sort by a long text field through its own cursors', async () => {
    const long = await testWorkspace(store, '긴 메모');
    await defineFields(long);
    for (const [i, fill] of ['가', '나', '다', '라'].entries()) {
      const res = await post(app, long.token, '/v2/people', {
        name: `긴 메모 ${i}`,
        fieldList: [{ name: '메모', stringValue: `${fill.repeat(3_000)}${i}` }],
      });
      expect(res.status, res.text).toBe(201);
    }
    const { ids, pages } = await searchAll(long, {
      filterGroupList: EVERY,
      sortList: [{ fieldName: '메모', direction: 'desc' }, { fieldName: '이름' }],
      limit: 1,
    });
    expect(pages).toEqual([1, 1, 1, 1]);
    const names = await Promise.all(
      ids.map(
        async (id) => (await get(app, long.token, `/v2/people/${id}`)).json.data.people[0]['이름'],
      ),
    );
    expect(names).toEqual(['긴 메모 3', '긴 메모 2', '긴 메모 1', '긴 메모 0']);
  });

  it("never finds another workspace's records", async () => {
    const theirs = new Set(
      (await walk(app, other.token, '/v2/people?limit=100', 'peopleList')).records.map((r) => r.id),
    );
    const mine = new Set(people.map((r) => r.id));
    for (const filters of [
      [],
      [{ fieldName: '이름', operator: 'EQ', value: '김민준' }],
      [{ fieldName: '이름', operator: 'CONTAINS', value: '민' }],
      [{ fieldName: 'id', operator: 'IN', value: [...theirs].slice(0, 5) }],
    ]) {
      const body = { filterGroupList: filters.length ? [{ filters }] : EVERY };
      const { ids } = await searchAll(ws, body);
      expect(ids.some((id) => theirs.has(id))).toBe(false);
      expect(ids.every((id) => mine.has(id))).toBe(true);
      const { ids: others } = await searchAll(other, body);
      expect(others.every((id) => theirs.has(id))).toBe(true);
    }
  });

  it.each([
    [
      { filterGroupList: [{ filters: [{ fieldName: '이룸', operator: 'EQ', value: 'x' }] }] },
      /알 수 없는 필드.*'이룸'.*비슷한 필드: '이름'/,
    ],
    [
      { filterGroupList: [{ filters: [{ fieldName: '점수', operator: 'NEQ', value: 1 }] }] },
      /'점수' 필드\(number\)에는 NEQ/,
    ],
    [
      { filterGroupList: [{ filters: [{ fieldName: '이름', operator: 'LT', value: 'x' }] }] },
      /LT 연산자를 쓸 수 없습니다/,
    ],
    [
      { filterGroupList: [{ filters: [{ fieldName: '점수', operator: 'GT', value: '3' }] }] },
      /filters\[0\]\.value.*숫자/,
    ],
    [
      { filterGroupList: [{ filters: [{ fieldName: 'VIP', operator: 'EQ', value: 'true' }] }] },
      /true 또는 false/,
    ],
    [
      {
        filterGroupList: [
          {
            filters: [
              { fieldName: '생일', operator: 'DATE_BETWEEN', value: ['2024-02-01', '2024-01-01'] },
            ],
          },
        ],
      },
      /시작이 끝보다/,
    ],
    [
      { filterGroupList: [{ filters: [{ fieldName: '생일', operator: 'DATE_AGO', value: -1 }] }] },
      /정수/,
    ],
    [
      { filterGroupList: [{ filters: [{ fieldName: '이름', operator: 'IN', value: [] }] }] },
      /배열/,
    ],
    [
      { filterGroupList: [{ filters: [{ fieldName: '이름', operator: 'CONTAINS', value: '' }] }] },
      /빈 문자열이 아닌/,
    ],
    [
      { filterGroupList: [{ filters: [{ fieldName: '이름', operator: 'LIKE', value: 'x' }] }] },
      /operator/,
    ],
    [
      { filterGroupList: Array(4).fill({ filters: [{ fieldName: '이름', operator: 'EXISTS' }] }) },
      /filterGroupList/,
    ],
    [
      { filterGroupList: [{ filters: Array(4).fill({ fieldName: '이름', operator: 'EXISTS' }) }] },
      /filters/,
    ],
    [{ filterGroupList: [{ filters: [] }] }, /filters/],
    [{ filterGroupList: EVERY, sortList: [{ fieldName: '관심' }] }, /목록 필드/],
    [{ filterGroupList: EVERY, fieldList: ['없는 필드'] }, /fieldList\[0\].*알 수 없는 필드/],
    [{ filterGroupList: EVERY, limit: 101 }, /limit/],
  ])('refuses %j with a 400 in shape A', async (body, message) => {
    const res = await post(app, ws.token, '/v2/object/people/search', body);
    expect(res.status, res.text).toBe(400);
    expect(res.json.success).toBe(false);
    expect(res.json.message).toMatch(message);
  });

  it('fuzz: any body, target and cursor gets 200 or a 400 in shape A, never a 5xx', async () => {
    const known = Object.keys(FIELDS);
    const value = fc.oneof(
      fc.jsonValue(),
      fc.string({ maxLength: 20_000 }),
      fc.string({ unit: 'grapheme' }),
      fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 600 }),
      fc.constantFrom(Number.MAX_VALUE, -0, 1e308, '2024-02-30', '9999-12-31T23:59:59Z', ''),
    );
    const filter = fc.record(
      {
        fieldName: fc.oneof(fc.constantFrom(...known), fc.string(), fc.jsonValue()),
        operator: fc.oneof(
          fc.constantFrom('EQ', 'IN', 'CONTAINS', 'DATE_BETWEEN', 'LIST_CONTAIN', 'GT', 'DATE_AGO'),
          fc.jsonValue(),
        ),
        value,
      },
      { requiredKeys: [] },
    );
    const body = fc.oneof(
      fc.jsonValue(),
      fc.record(
        {
          filterGroupList: fc.oneof(
            fc.array(fc.record({ filters: fc.array(filter, { maxLength: 4 }) }), { maxLength: 4 }),
            fc.jsonValue(),
          ),
          sortList: fc.oneof(
            fc.array(
              fc.record({
                fieldName: fc.oneof(fc.constantFrom(...known), fc.string()),
                direction: fc.jsonValue(),
              }),
              { maxLength: 4 },
            ),
            fc.jsonValue(),
          ),
          fieldList: fc.oneof(
            fc.array(fc.oneof(fc.constantFrom(...known), fc.string())),
            fc.jsonValue(),
          ),
          limit: fc.oneof(fc.integer({ min: -5, max: 200 }), fc.jsonValue()),
        },
        { requiredKeys: [] },
      ),
    );
    const target = fc.oneof(fc.constantFrom('people', 'organization', 'deal', 'lead'), fc.string());
    const cursor = fc.option(fc.oneof(fc.string(), fc.base64String()), { nil: undefined });
    const before = people.length;
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(body, target, cursor, async (b, t, c) => {
        const url = `/v2/object/${encodeURIComponent(t)}/search${c === undefined ? '' : `?cursor=${encodeURIComponent(c)}`}`;
        const res = await post(app, ws.token, url, b);
        seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
        expect(
          [200, 400, 404],
          `${url} ${JSON.stringify(b).slice(0, 300)} → ${res.text.slice(0, 300)}`,
        ).toContain(res.status);
        expect(res.json.success).toBe(res.status === 200);
        if (res.status !== 200) expect(typeof res.json.message).toBe('string');
      }),
      // Random bodies are seldom valid (one run in about 20 had no 200 at all): these are.
      {
        numRuns: 200,
        examples: [
          [{ filterGroupList: EVERY }, 'people', undefined],
          [
            {
              filterGroupList: EVERY,
              limit: 5,
              sortList: [{ fieldName: '이름', direction: 'desc' }],
            },
            'deal',
            undefined,
          ],
        ],
      },
    );
    expect(seen.get(400)).toBeGreaterThan(50);
    expect(seen.get(200)).toBeGreaterThan(0);
    expect((await walk(app, ws.token, '/v2/people?limit=100', 'peopleList')).records).toHaveLength(
      before,
    );
  }, 120_000);

  it('refuses a search without filters as the live API does, whatever else the body holds', async () => {
    for (const [type, body] of [
      ['people', {}],
      ['people', { filterGroupList: [] }],
      ['organization', { filterGroupList: null, limit: 5 }],
      // A misspelt key: the filters are not where the API reads them.
      ['deal', { filterList: [{ fieldName: '이름', operator: 'EQ', value: '김민준' }] }],
      ['lead', { fieldId: '이름', sortList: [{ fieldName: '이름' }] }],
    ] as const) {
      const res = await post(app, ws.token, `/v2/object/${type}/search`, body);
      expect(res.status, res.text).toBe(400);
      expect(res.json).toEqual({
        success: false,
        message: '[filterGroupList]: 필수 입력 사항입니다.',
        reason: '[filterGroupList]: 필수 입력 사항입니다.',
      });
    }
    const misspelt = await post(app, ws.token, '/v2/object/people/search', {
      filterList: [],
      filterGroupList: EVERY,
    });
    expect(misspelt.status).toBe(200);
    expect(misspelt.headers['x-ignored-parameters']).toBe('filterList');
  });

  it('refuses an unknown target type, and a cursor of another search or workspace', async () => {
    const bad = await post(app, ws.token, '/v2/object/product/search', {});
    expect(bad.status).toBe(400);
    expect(bad.json.message).toMatch(/targetType.*people, organization, deal, lead/);
    const first = await post(app, ws.token, '/v2/object/people/search', {
      filterGroupList: EVERY,
      limit: 2,
    });
    const cursor = first.json.data.nextCursor as string;
    const same = await post(app, ws.token, `/v2/object/people/search?cursor=${cursor}`, {
      filterGroupList: EVERY,
      limit: 5,
    });
    expect(same.status).toBe(200);
    for (const [token, body] of [
      [ws.token, { filterGroupList: EVERY, sortList: [{ fieldName: '점수' }] }],
      [ws.token, { filterGroupList: [{ filters: [{ fieldName: '이름', operator: 'EXISTS' }] }] }],
      [other.token, { filterGroupList: EVERY }],
    ] as const) {
      const res = await post(app, token, `/v2/object/people/search?cursor=${cursor}`, body);
      expect(res.status).toBe(400);
      expect(res.json.message).toMatch(/cursor/);
    }
  });

  it("reads a workspace's custom fields as they are now, whoever changed them: those it keeps between searches move with the catalog", async () => {
    const fresh = await testWorkspace(store, '필드 변경');
    await fresh.write((w) => makePerson(w, { name: '필드 고객' }));
    const byField = (fieldName: string) =>
      post(app, fresh.token, '/v2/object/people/search', {
        filterGroupList: [{ filters: [{ fieldName, operator: 'EXISTS' }] }],
      });
    const unknown = await byField('등급X');
    expect(unknown.status).toBe(400);
    expect(unknown.json.message).toMatch(/등급X/);
    await fresh.write((w) => makeCustomField(w, 'people', '등급X'));
    expect((await byField('등급X')).status).toBe(200);
    // Renamed and then dropped outside any write of the service (no data version moves),
    // as a change of the catalog must be made: only the catalog version tells.
    await store.transaction(async (trx) => {
      await sql`update custom_fields set name = '등급Y' where workspace_id = ${fresh.workspaceId}`.execute(
        trx,
      );
      await bumpCatalogVersion(trx, fresh.workspaceId);
    });
    expect((await byField('등급Y')).status).toBe(200);
    expect((await byField('등급X')).status).toBe(400);
    await store.transaction(async (trx) => {
      await sql`delete from custom_fields where workspace_id = ${fresh.workspaceId}`.execute(trx);
      await bumpCatalogVersion(trx, fresh.workspaceId);
    });
    expect((await byField('등급Y')).status).toBe(400);
  });

  it('searches organizations, deals and leads by their names', async () => {
    for (const [type, path, key] of [
      ['organization', '/v2/organization', 'organization'],
      ['deal', '/v2/deal', 'deal'],
      ['lead', '/v2/lead', 'lead'],
    ] as const) {
      const empty = await post(app, ws.token, `/v2/object/${type}/search`, {
        filterGroupList: EVERY,
      });
      expect(empty.status, empty.text).toBe(200);
      expect(empty.json.data).toEqual({ objectList: [], nextCursor: null });
      if (type !== 'organization') continue;
      const made = await post(app, ws.token, path, { name: '검색 테스트 회사' });
      expect(made.status, made.text).toBe(201);
      const id = made.json.data[key].id;
      const found = await post(app, ws.token, `/v2/object/${type}/search`, {
        filterGroupList: [
          { filters: [{ fieldName: '이름', operator: 'CONTAINS', value: '테스트' }] },
        ],
      });
      expect(found.json.data.objectList).toEqual([{ id, name: '검색 테스트 회사' }]);
    }
  });

  it('stops a search that runs past REQUEST_TIMEOUT_MS with a 503 and Retry-After', async () => {
    const hurried = await testApp(store, { requestTimeoutMs: 0 });
    try {
      const res = await post(hurried, ws.token, '/v2/object/people/search', {
        filterGroupList: [
          { filters: [{ fieldName: '메모', operator: 'CONTAINS', value: '검토' }] },
        ],
      });
      expect(res.status, res.text).toBe(503);
      expect(res.json).toMatchObject({
        success: false,
        message: expect.stringMatching(/제한 시간/),
      });
      expect(res.headers['retry-after']).toBe('5');
      // One that reads rows by a unique field's index is done before any walk.
      const quick = await post(hurried, ws.token, '/v2/object/people/search', {
        filterGroupList: [{ filters: [{ fieldName: 'id', operator: 'EQ', value: people[0]!.id }] }],
      });
      expect(quick.status, quick.text).toBe(200);
    } finally {
      await hurried.close();
    }
  });

  it('counts each search as 10 requests against the rate limit', async () => {
    const limited = await testApp(store, { rateLimitMax: 25 });
    try {
      const statuses: number[] = [];
      const remaining: unknown[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await post(limited, ws.token, '/v2/object/people/search', {
          filterGroupList: EVERY,
          limit: 1,
        });
        statuses.push(res.status);
        remaining.push(res.headers['ratelimit-remaining']);
      }
      expect(statuses).toEqual([200, 200, 429]);
      expect(remaining.slice(0, 2)).toEqual(['15', '5']);
    } finally {
      await limited.close();
    }
  });
});

// ---------------------------------------------------------------------------------------
// The search index: the same answers whichever way a search reads it, kept with every write.

describe('search index', () => {
  /** Runs `fn` with searches reading at most `few` candidates by id (0: always walking). */
  async function withFew<T>(few: number, fn: () => Promise<T>): Promise<T> {
    const was = searchTuning.few;
    searchTuning.few = few;
    try {
      return await fn();
    } finally {
      searchTuning.few = was;
    }
  }

  const oneKeySort: fc.Arbitrary<Sort[]> = fc.oneof(
    sortArb,
    fc
      .record({
        fieldName: pick(['점수', '생일', 'VIP', '등급', '메모', '딜 개수', '생성 날짜']),
        direction: pick(['asc', 'desc'] as const),
      })
      .map((s) => [s]),
  );

  it('finds what a full walk finds when it walks the table probing the index, or the index in a sort order', async () => {
    await withFew(0, () => matchesWalk(oneKeySort, 40, 80));
  }, 240_000);

  it('answers CONTAINS of two characters or more from the pairs of a name, ignoring case, as a walk does', async () => {
    const mixed = await testWorkspace(store, '이름 쌍');
    const names = [
      'Anna Kim',
      'ANNA',
      '김민준',
      '민준김',
      'İstanbul',
      '😀😃 smile',
      'nn',
      '박 서연',
      'Straße',
    ];
    for (const name of names) {
      const res = await post(app, mixed.token, '/v2/people', { name });
      expect(res.status, res.text).toBe(201);
    }
    const all = (await walk(app, mixed.token, '/v2/people?limit=100', 'peopleList')).records;
    const wrong: string[] = [];
    for (const needle of [
      'nn',
      'NA',
      'a k',
      '민준',
      '준김',
      'i̇s',
      'İS',
      '😀😃',
      '😃 s',
      'n',
      'ß',
      'SS',
      '서연',
      '박 서',
    ]) {
      const expected = all
        .filter((p) => String(p['이름']).toLowerCase().includes(needle.toLowerCase()))
        .map((p) => String(p.id));
      for (const few of [0, 2_000]) {
        const found = await withFew(few, async () => {
          const res = await post(app, mixed.token, '/v2/object/people/search', {
            filterGroupList: [
              { filters: [{ fieldName: '이름', operator: 'CONTAINS', value: needle }] },
            ],
            limit: 100,
          });
          expect(res.status, res.text).toBe(200);
          return (res.json.data.objectList as Rec[]).map((o) => String(o.id));
        });
        if (JSON.stringify(found) !== JSON.stringify(expected)) wrong.push(`${needle} (${few})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('walks a sort by an indexed field without a gap or a repeat while records are created, changed and merged between pages', async () => {
    const body = {
      filterGroupList: EVERY,
      sortList: [{ fieldName: '점수', direction: 'desc' }],
      limit: 7,
    };
    const before = expectedIds([], body.sortList as Sort[]);
    // Records changed or merged away while the walk runs; the rest must come in order.
    const changed = before.filter((_, i) => i % 9 === 4);
    const merged = before.filter((_, i) => i % 9 === 7);
    const stable = before.filter((id) => !changed.includes(id) && !merged.includes(id));
    let n = 2000;
    let k = 0;
    const { ids } = await searchAll(ws, body, async () => {
      await createPerson(ws, n++);
      const id = changed[k];
      if (id) {
        const res = await post(app, ws.token, `/v2/people/${id}`, {
          fieldList: [{ name: '점수', numberValue: (k * 53) % 101 }],
        });
        expect(res.status, res.text).toBe(200);
      }
      const gone = merged[k];
      if (gone) {
        const res = await post(app, ws.token, `/v2/people/${stable[0]}/merge`, { mergedId: gone });
        expect(res.status, res.text).toBe(200);
      }
      k++;
    });
    // A record changed to a place the walk has yet to reach may come again; no other does.
    const once = ids.filter((id) => !changed.includes(id));
    expect(new Set(once).size).toBe(once.length);
    expect(ids.filter((id) => stable.includes(id))).toEqual(stable);
    expect(ids.some((id) => merged.includes(id) && ids.indexOf(id) > before.indexOf(id))).toBe(
      false,
    );
    people = (await walk(app, ws.token, '/v2/people?limit=100', 'peopleList')).records;
    // And a search now finds what the records now hold.
    const now = await withFew(0, () => searchAll(ws, body));
    expect(now.ids).toEqual(expectedIds([], body.sortList as Sort[]));
  });

  it('holds what the records hold through creates, updates, merges and field changes; verify finds and mends a damaged index', async () => {
    const kept = await testWorkspace(store, '색인 유지');
    await defineFields(kept);
    await createPeopleWithoutOwners(kept, 12);
    const list = async () =>
      (await walk(app, kept.token, '/v2/people?limit=100', 'peopleList')).records;
    let all = await list();
    for (const [i, p] of all.slice(0, 5).entries()) {
      const res = await post(app, kept.token, `/v2/people/${p.id}`, {
        name: `바뀐 이름 ${i}`,
        fieldList: [
          { name: '점수', numberValue: 500 + i },
          { name: '등급', stringValue: GRADES[(i + 1) % 3] },
          { name: '관심', stringValueList: ['모바일'] },
        ],
      });
      expect(res.status, res.text).toBe(200);
    }
    const merge = await post(app, kept.token, `/v2/people/${all[0]!.id}/merge`, {
      mergedId: all[1]!.id,
    });
    expect(merge.status, merge.text).toBe(200);
    const fields = await store.db
      .selectFrom('custom_fields')
      .select(['id', 'name'])
      .where('workspace_id', '=', kept.workspaceId)
      .execute();
    const idOf = (name: string) => fields.find((f) => f.name === name)!.id;
    await kept.write((w) => renameCustomField(w, idOf('점수'), '점수2'));
    await kept.write((w) => deleteCustomField(w, idOf('메모')));
    all = await list();

    const report = await verifyWorkspace(store, kept.workspaceId);
    expect(report.differences).toBe(0);
    expect(report.indexDifferences).toBe(0);
    const rows = await store.db
      .selectFrom('search_values')
      .select(['record_id', 'field'])
      .where('workspace_id', '=', kept.workspaceId)
      .execute();
    expect(
      rows.some((r) => r.record_id === all[1]?.id && !all.some((p) => p.id === r.record_id)),
    ).toBe(false);
    expect(rows.every((r) => all.some((p) => p.id === r.record_id))).toBe(true);
    expect(rows.some((r) => r.field === idOf('메모'))).toBe(false);

    const search = async (filters: Filter[], sortList: Sort[] = []) =>
      withFew(0, async () => {
        const res = await post(app, kept.token, '/v2/object/people/search', {
          filterGroupList: filters.length ? [{ filters }] : EVERY,
          ...(sortList.length ? { sortList } : {}),
          limit: 100,
        });
        expect(res.status, res.text).toBe(200);
        return (res.json.data.objectList as Rec[]).map((o) => String(o.id));
      });
    const expect점수 = all
      .filter((p) => typeof p['점수2'] === 'number' && (p['점수2'] as number) >= 500)
      .map((p) => String(p.id));
    expect(await search([{ fieldName: '점수2', operator: 'GTE', value: 500 }])).toEqual(expect점수);
    expect(
      await search([{ fieldName: '관심', operator: 'LIST_CONTAIN', value: ['모바일'] }]),
    ).toEqual(
      all
        .filter((p) => Array.isArray(p['관심']) && (p['관심'] as string[]).includes('모바일'))
        .map((p) => String(p.id)),
    );

    // A damaged index: rows of one record gone, a row of another that its JSON does not hold.
    await store.db
      .deleteFrom('search_values')
      .where('workspace_id', '=', kept.workspaceId)
      .where('record_id', '=', String(all[2]!.id))
      .execute();
    await store.db
      .insertInto('search_values')
      .values({
        workspace_id: kept.workspaceId,
        record_type: 'people',
        field: idOf('등급'),
        value: '없는 등급',
        record_id: String(all[3]!.id),
      })
      .execute();
    const damaged = await verifyWorkspace(store, kept.workspaceId);
    expect(damaged.differences).toBe(0);
    expect(damaged.indexDifferences).toBe(2);
    const mended = await verifyWorkspace(store, kept.workspaceId, { repair: true });
    expect(mended.indexRepaired).toBe(2);
    expect((await verifyWorkspace(store, kept.workspaceId)).indexDifferences).toBe(0);
    expect(await search([{ fieldName: '점수2', operator: 'GTE', value: 500 }])).toEqual(expect점수);
  });

  // SQLite writes a record's index rows in one cached multi-row insert, a large write's in
  // chunks of them (PostgreSQL writes them in the write's last statement: nothing to count).
  it.skipIf(TEST_DIALECT === 'postgres')(
    "inserts a created person's index rows in one statement, and a write of many records' in chunks that keep every row",
    async () => {
      const w = await testWorkspace(store, '색인 한 문장');
      await defineFields(w);
      const run = store.runEach!.bind(store);
      const inserts: number[] = [];
      store.runEach = (text, rows) => {
        if (text.startsWith('insert or ignore into search_values'))
          for (const row of rows) inserts.push(row.length / 5);
        run(text, rows);
      };
      try {
        const res = await post(app, w.token, '/v2/people', {
          name: '한 문장',
          fieldList: [
            { name: '점수', numberValue: 7 },
            { name: '등급', stringValue: 'B' },
            { name: '관심', stringValueList: ['CRM', '분석'] },
          ],
        });
        expect(res.status, res.text).toBe(201);
        expect(inserts).toHaveLength(1);
        expect(inserts[0]).toBeGreaterThan(3);
        inserts.length = 0;
        await w.write(async (t) => {
          for (let i = 0; i < 40; i++) await makePerson(t, { name: `일괄 고객 ${i}` });
        });
      } finally {
        store.runEach = run;
      }
      expect(inserts.length).toBeGreaterThan(1);
      expect(Math.max(...inserts)).toBeLessThanOrEqual(64);
      expect((await verifyWorkspace(store, w.workspaceId)).indexDifferences).toBe(0);
      const found = await post(app, w.token, '/v2/object/people/search', {
        filterGroupList: [
          { filters: [{ fieldName: '이름', operator: 'CONTAINS', value: '일괄 고객' }] },
        ],
        limit: 100,
      });
      expect(found.status, found.text).toBe(200);
      expect(found.json.data.objectList).toHaveLength(40);
    },
  );

  it('reads the records of single-select values in the list order from their placed rows, page after page, as a walk does', async () => {
    const grades = fc.oneof(
      pick([...GRADES, '없는 등급']).map((value) => ({ fieldName: '등급', operator: 'EQ', value })),
      fc
        .uniqueArray(pick([...GRADES, '없는 등급']), { minLength: 1, maxLength: 4 })
        .map((value) => ({ fieldName: '등급', operator: 'IN', value })),
    );
    await withFew(0, () =>
      fc.assert(
        fc.asyncProperty(
          grades,
          fc.array(filterArb(), { maxLength: 2 }),
          fc.integer({ min: 1, max: 30 }),
          async (grade, others, limit) => {
            const groups = [[grade, ...others]];
            const body: Rec = { filterGroupList: [{ filters: groups[0] }], limit };
            const { ids, pages } = await searchAll(ws, body);
            expect(ids).toEqual(expectedIds(groups, []));
            expect(pages.slice(0, -1).every((n) => n === limit)).toBe(true);
          },
        ),
        { numRuns: Number(process.env.SEARCH_RUNS ?? 60) },
      ),
    );
  }, 240_000);

  it("fills the index in migration 012 with the rows its writer keeps (the migration's frozen copy agrees)", async () => {
    const w = await testWorkspace(store, '이관 색인');
    await defineFields(w);
    await createPeopleWithoutOwners(w, 12);
    const rows = () =>
      store.db
        .selectFrom('search_values')
        .select(['record_type', 'field', 'value', 'record_id'])
        .where('workspace_id', '=', w.workspaceId)
        .orderBy(['record_type', 'field', 'value', 'record_id'])
        .execute();
    const kept = await rows();
    expect(kept.some((r) => r.field.startsWith('p:'))).toBe(true);
    await store.db.deleteFrom('search_values').where('workspace_id', '=', w.workspaceId).execute();
    await fillSearchIndex(store.db as never);
    expect(await rows()).toEqual(kept);
  });

  it('keeps placed rows of single-select values: made by migration 019 where missing, gone with their field', async () => {
    const w = await testWorkspace(store, '등급 자리');
    await defineFields(w);
    await createPeopleWithoutOwners(w, 12);
    const placed = () =>
      store.db
        .selectFrom('search_values')
        .select(['field', 'value', 'record_id'])
        .where('workspace_id', '=', w.workspaceId)
        .where('field', 'like', 'p:%')
        .orderBy('record_id')
        .execute();
    const made = await placed();
    const listed = (await walk(app, w.token, '/v2/people?limit=100', 'peopleList')).records;
    expect(made.map((r) => [r.record_id, r.value])).toEqual(
      listed
        .filter((p) => typeof p['등급'] === 'string')
        .map((p) => [p.id, `${p['등급']}\u0001${p['생성 날짜']}`])
        .sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1)),
    );
    // An index from before placed rows: verify finds them missing; the migration makes them.
    const migration = placedSelectValues({ dialect: store.dialect });
    await migration.down(store.db as never);
    expect(await placed()).toEqual([]);
    expect((await verifyWorkspace(store, w.workspaceId)).indexDifferences).toBe(made.length);
    await migration.up(store.db as never);
    expect(await placed()).toEqual(made);
    expect((await verifyWorkspace(store, w.workspaceId)).indexDifferences).toBe(0);
    // Records made in one write share their creation time: ties go by id, across values too.
    const batch = await post(app, w.token, '/v3/object/create', {
      objectType: 'people',
      inputList: Array.from({ length: 8 }, (_, i) => ({
        data: { 이름: `동시 ${i}`, 등급: GRADES[i % 3] },
      })),
    });
    expect(batch.status, batch.text).toBe(201);
    const all = (await walk(app, w.token, '/v2/people?limit=100', 'peopleList')).records;
    const at = all.find((p) => p['이름'] === '동시 0')!['생성 날짜'];
    expect(all.filter((p) => p['생성 날짜'] === at)).toHaveLength(8);
    for (const limit of [1, 2, 3, 50]) {
      const { ids } = await withFew(0, () =>
        searchAll(w, {
          filterGroupList: [
            { filters: [{ fieldName: '등급', operator: 'IN', value: ['A', 'B'] }] },
          ],
          limit,
        }),
      );
      expect(ids).toEqual(
        all.filter((p) => ['A', 'B'].includes(String(p['등급']))).map((p) => p.id),
      );
    }
    const gradeId = made[0]!.field.slice(2);
    await w.write((t) => deleteCustomField(t, gradeId));
    expect(await placed()).toEqual([]);
  });

  it('has the index its SQLite hints name (a query hinting a missing index fails)', async () => {
    const { sql } = await import('kysely');
    const { BY_RECORD_INDEX } = await import('../src/resources/search/index-plan.ts');
    const { rows } =
      store.dialect === 'sqlite'
        ? await sql<{
            name: string;
          }>`select name from sqlite_master where type = 'index' and name = ${BY_RECORD_INDEX}`.execute(
            store.db,
          )
        : await sql<{
            name: string;
          }>`select indexname as name from pg_indexes where indexname = ${BY_RECORD_INDEX}`.execute(
            store.db,
          );
    expect(rows).toEqual([{ name: BY_RECORD_INDEX }]);
  });

  it('holds, finds and walks in order values of 10,000 characters and of characters beyond the BMP, and refuses lone surrogates', async () => {
    const w = await testWorkspace(store, '긴 값');
    await w.write(async (t) => {
      await makeCustomField(t, 'people', '메모');
      await makeCustomField(t, 'people', '관심', 'multiSelect');
    });
    const long = '가'.repeat(9_999);
    const values = [`${long}b`, `${long}a`, '😀x', 'x😀', '   '];
    const ids: string[] = [];
    for (const [i, v] of values.entries()) {
      const res = await post(app, w.token, '/v2/people', {
        name: `n${i}`,
        fieldList: [
          { name: '메모', stringValue: v },
          { name: '관심', stringValueList: [v] },
        ],
      });
      expect(res.status, res.text).toBe(201);
      ids.push(res.json.data.people.id);
    }
    const search = async (filters: Rec[]) => {
      const res = await post(app, w.token, '/v2/object/people/search', {
        filterGroupList: [{ filters }],
      });
      expect(res.status, res.text).toBe(200);
      return (res.json.data.objectList as { id: string }[]).map((o) => o.id).sort();
    };
    expect(await search([{ fieldName: '메모', operator: 'EQ', value: `${long}a` }])).toEqual([
      ids[1],
    ]);
    expect(await search([{ fieldName: '메모', operator: 'CONTAINS', value: `${long}` }])).toEqual(
      [ids[0], ids[1]].sort(),
    );
    expect(await search([{ fieldName: '메모', operator: 'CONTAINS', value: '😀' }])).toEqual(
      [ids[2], ids[3]].sort(),
    );
    expect(await search([{ fieldName: '관심', operator: 'LIST_CONTAIN', value: ['😀x'] }])).toEqual(
      [ids[2]],
    );
    // Half of a pair is text the stores would keep differently: refused, written or searched.
    const lone = await post(app, w.token, '/v2/people', {
      name: 'lone',
      fieldList: [{ name: '메모', stringValue: '\ud800x' }],
    });
    expect(lone.status).toBe(400);
    const searched = await post(app, w.token, '/v2/object/people/search', {
      filterGroupList: [
        { filters: [{ fieldName: '메모', operator: 'CONTAINS', value: '\ud800' }] },
      ],
    });
    expect(searched.status).toBe(400);
    expect(await search([{ fieldName: '메모', operator: 'CONTAINS', value: ' ' }])).toEqual([
      ids[4],
    ]);
    for (const direction of ['asc', 'desc'] as const) {
      const { ids: walked } = await searchAll(w, {
        filterGroupList: EVERY,
        sortList: [{ fieldName: '메모', direction }],
        limit: 1,
      });
      expect(walked).toHaveLength(values.length);
      expect(new Set(walked).size).toBe(values.length);
    }
  });

  it('answers CONTAINS of a needle of 10,000 distinct characters, walking or not, and checks the pairs past those it looks up', async () => {
    const w = await testWorkspace(store, '긴 바늘');
    const needle = Array.from({ length: 10_000 }, (_, i) => String.fromCodePoint(0x4e00 + i)).join(
      '',
    );
    const made = await post(app, w.token, '/v2/people', { name: needle.slice(0, 40) });
    expect(made.status, made.text).toBe(201);
    const id = made.json.data.people.id;
    const other = await post(app, w.token, '/v2/people', { name: '가나다' });
    expect(other.status, other.text).toBe(201);
    const contains = async (...values: string[]) => {
      const res = await post(app, w.token, '/v2/object/people/search', {
        filterGroupList: values.map((value) => ({
          filters: [{ fieldName: '이름', operator: 'CONTAINS', value }],
        })),
      });
      expect(res.status, res.text).toBe(200);
      return (res.json.data.objectList as { id: string }[]).map((o) => o.id);
    };
    for (const few of [searchTuning.few, 0])
      await withFew(few, async () => {
        expect(await contains(needle)).toEqual([]);
        expect(await contains(needle.slice(0, 40))).toEqual([id]);
        expect(await contains(needle.slice(1, 39))).toEqual([id]);
        // The same first pairs, then one the name lacks.
        expect(await contains(`${needle.slice(0, 30)}가`)).toEqual([]);
        // Either group: the needle's records (none) or those of another filter.
        expect(await contains(needle, '가나')).toEqual([other.json.data.people.id]);
      });
  });
});

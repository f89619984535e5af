/**
 * Contract tests: the real responses of every list and record read, compared with
 * docs/decisions.md (Wire format, Record keys, Cursors, Limits and defaults, Error shapes):
 * keys in order, their kinds and nulls, envelopes, cursors, page sizes, filters and error
 * shapes. The expected keys are written out here by hand, never imported from src/.
 */
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CustomFieldType } from '../src/domain/custom-fields.ts';
import { setPersonOrganization } from '../src/resources/people/writes.ts';
import type { WorkspaceWrite } from '../src/store/write.ts';
import {
  makeActivity,
  makeCustomField,
  makeDeal,
  makeEnrollment,
  makeHistory,
  makeLead,
  makeNote,
  makeOrganization,
  makePerson,
  makePipeline,
  makeProduct,
  makeQuote,
  makeSequence,
  makeSubmission,
  makeTodo,
  makeUser,
  makeWebForm,
} from './factories.ts';
import {
  appForFile,
  get,
  type TestResponse,
  type TestStore,
  type TestWorkspace,
  testWorkspace,
} from './helpers.ts';
import { expectErrorA, expectErrorB, expectShape, type Field, type Kind, N } from './shapes.ts';

// ---------------------------------------------------------------------------------------------
// The record shapes (docs/decisions.md, Record keys), written out. `N` marks a nullable key.

/** The shared field groups. */
const NOTE: Field[] = [
  ['최근 작성된 노트', 'string', N],
  ['최근 노트 작성일', 'timestamp', N],
  ['최근 노트 작성자', 'ref', N],
];
const WEBFORM: Field[] = [
  ['최근 제출된 웹폼', 'ref', N],
  ['최근 웹폼 제출 날짜', 'timestamp', N],
];
/** SEQUENCE without `등록된 시퀀스 목록`, which closes the fixed keys (docs/decisions.md, Record keys). */
const SEQUENCE: Field[] = [
  ['최근 등록한 시퀀스', 'ref', N],
  ['최근 시퀀스 등록일', 'timestamp', N],
  ['누적 시퀀스 등록수', 'integer'],
  ['현재 진행중인 시퀀스 여부', 'boolean'],
];
const SEQUENCE_LIST: Field = ['등록된 시퀀스 목록', 'refs', N];
const OWNERSHIP: Field[] = [
  ['담당자', 'ref'],
  ['생성 날짜', 'timestamp'],
  ['팀', 'refs'],
  ['수정 날짜', 'timestamp'],
];
const TODO: Field[] = [
  ['다음 TODO', 'string', N],
  ['전체 TODO', 'integer'],
  ['완료 TODO', 'integer'],
  ['미완료 TODO', 'integer'],
];
const COUNTERS: Field[] = [
  ['리드 개수', 'integer'],
  ['딜 개수', 'integer'],
  ['진행중 딜 개수', 'integer'],
  ['성사된 딜 개수', 'integer'],
  ['실패된 딜 개수', 'integer'],
];

/** People. */
const PEOPLE: Field[] = [
  ['id', 'string'],
  ['organizationId', 'string', N],
  ['이름', 'string'],
  ['이메일', 'string', N],
  ['전화', 'string', N],
  ['포지션', 'string', N],
  ['프로필 사진', 'string', N],
  ['링크드인', 'string', N],
  ...COUNTERS,
  ...NOTE,
  ...WEBFORM,
  ...SEQUENCE,
  ['수신 거부 여부', 'boolean'],
  ['수신 거부 사유', 'string', N],
  ...OWNERSHIP,
  ...TODO,
  ['제출된 웹폼 목록', 'refs'],
  SEQUENCE_LIST,
];

/**
 * Organization (an organization's `등록된 시퀀스 목록` is `[]` when none: docs/decisions.md, Derived
 * fields).
 */
const ORGANIZATION: Field[] = [
  ['id', 'string'],
  ['이름', 'string'],
  ['이메일', 'string', N],
  ['전화', 'string', N],
  ['프로필 사진', 'string', N],
  ['링크드인', 'string', N],
  ...COUNTERS,
  ...NOTE,
  ...WEBFORM,
  ...OWNERSHIP,
  ...TODO,
  ['제출된 웹폼 목록', 'refs'],
  ['등록된 시퀀스 목록', 'refs'],
];

/** Deals and leads. */
const DEAL: Field[] = [
  ['id', 'string'],
  ['peopleId', 'string', N],
  ['organizationId', 'string', N],
  ['이름', 'string'],
  ['파이프라인', 'ref', N],
  ['파이프라인 단계', 'ref', N],
  ['메인 견적 상품 리스트', 'refs', N],
  ['금액', 'number', N],
  ['상태', 'string'],
  ['마감일', 'timestamp', N],
  ['수주 예정일', 'timestamp', N],
  ['최근 이메일 오픈일', 'timestamp', N],
  ['소스', 'string'],
  ...NOTE,
  ...WEBFORM,
  ...SEQUENCE,
  ...OWNERSHIP,
  ...TODO,
  SEQUENCE_LIST,
];
const LEAD = DEAL;
/** The single-deal response only. */
const SINGLE_DEAL_EXTRAS: Field[] = [
  ['상담 일수', 'integer'],
  ['정체 일수', 'integer'],
  ['팔로워', 'refs', N],
  ['참여자', 'refs', N],
];

/**
 * Deal activity (related ids and a lead's `dealStatus` are null: docs/decisions.md, Activities and
 * history).
 */
const DEAL_ACTIVITY: Field[] = [
  ['id', 'string'],
  ['type', 'string'],
  ['date', 'timestamp'],
  ['dealStatus', 'string', N],
  ['dealId', 'string'],
  ['webFormId', 'string', N],
  ['smsId', 'string', N],
  ['todoId', 'string', N],
  ['memoId', 'string', N],
  ['emailMessageId', 'string', N],
];

/** People history. */
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

/** Product. */
const PRODUCT: Field[] = [
  ['id', 'string'],
  ['이름', 'string'],
  ['코드', 'string', N],
  ['유형', 'string'],
  ['금액', 'number'],
  ['단위', 'string', N],
  ...NOTE,
  ...OWNERSHIP,
];

/** Quote. */
const QUOTE: Field[] = [
  ['id', 'string'],
  ['메인 견적서 여부', 'boolean'],
  ['이름', 'string'],
  ['공유 링크', 'string', N],
  ['견적 구성 상품', 'array'],
  ['금액', 'number'],
  ...NOTE,
  ...OWNERSHIP,
];
const QUOTE_PRODUCT: Field[] = [
  ['id', 'string'],
  ['productId', 'string'],
  ['금액', 'number'],
  ['수량', 'number'],
  ['결제 횟수', 'integer'],
  ['시작 결제일', 'timestamp'],
  ['마지막 결제일', 'timestamp'],
  ['전체금액', 'number'],
];

/** The custom fields the fixture defines, per record type, in definition order. */
const CUSTOM = {
  people: [
    ['고객 등급', 'string', N],
    ['추천 담당자', 'ref', N],
  ],
  organization: [
    ['업종', 'string', N],
    ['직원 수', 'number', N],
  ],
  deal: [
    ['경쟁사', 'string', N],
    ['관련 고객', 'refs', N],
  ],
  lead: [
    ['유입 경로', 'string', N],
    ['예상 예산', 'number', N],
  ],
  product: [
    ['제조사', 'string', N],
    ['재고 있음', 'boolean', N],
  ],
  quote: [
    ['유효 기간', 'timestamp', N],
    ['할인율', 'number', N],
  ],
  quoteProduct: [
    ['비고', 'string', N],
    ['할인 금액', 'number', N],
  ],
} as const satisfies Record<string, Field[]>;

// ---------------------------------------------------------------------------------------------
// Checks.

/** Checks the envelope of a list page and returns its records. */
function expectListEnvelope(
  res: TestResponse,
  listKey: string,
  cursorKeys: readonly string[],
): Record<string, unknown>[] {
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(Object.keys(res.json)).toEqual(['success', 'data']);
  expect(res.json.success).toBe(true);
  expect(Object.keys(res.json.data)).toEqual([listKey, ...cursorKeys]);
  expect(Array.isArray(res.json.data[listKey])).toBe(true);
  const cursors = cursorKeys.map((k) => res.json.data[k]);
  for (const c of cursors) expect(c === null || typeof c === 'string').toBe(true);
  expect(new Set(cursors).size).toBe(1);
  if (cursorKeys.length === 2) {
    // `nextCurosr` first, then `nextCursor`, in the bytes themselves.
    const misspelt = res.text.indexOf('"nextCurosr":');
    const correct = res.text.indexOf('"nextCursor":');
    expect(misspelt).toBeGreaterThan(0);
    expect(correct).toBeGreaterThan(misspelt);
  }
  return res.json.data[listKey];
}

/** A list endpoint. */
interface ListEndpoint {
  path: string;
  listKey: string;
  cursorKeys: readonly string[];
}
const PEOPLE_LIST: ListEndpoint = {
  path: '/v2/people',
  listKey: 'peopleList',
  cursorKeys: ['nextCursor'],
};
const ORGANIZATION_LIST: ListEndpoint = {
  path: '/v2/organization',
  listKey: 'organizationList',
  cursorKeys: ['nextCursor'],
};
const DEAL_LIST: ListEndpoint = {
  path: '/v2/deal',
  listKey: 'dealList',
  cursorKeys: ['nextCurosr', 'nextCursor'],
};
const LEAD_LIST: ListEndpoint = {
  path: '/v2/lead',
  listKey: 'leadList',
  cursorKeys: ['nextCurosr', 'nextCursor'],
};
const PRODUCT_LIST: ListEndpoint = {
  path: '/v2/product',
  listKey: 'productList',
  cursorKeys: ['nextCursor'],
};
const ACTIVITY_LIST: ListEndpoint = {
  path: '/v2/deal/activity',
  listKey: 'dealActivityList',
  cursorKeys: ['nextCursor'],
};
const HISTORY_LIST: ListEndpoint = {
  path: '/v2/people/history',
  listKey: 'peopleHistoryList',
  cursorKeys: ['nextCursor'],
};

/** One page of a list: its records and next cursor, envelope checked. */
async function page(
  app: FastifyInstance,
  token: string,
  list: ListEndpoint,
  query: { cursor?: string | null; limit?: number | string; filter?: string } = {},
): Promise<{ records: Record<string, unknown>[]; next: string | null }> {
  const params: string[] = [];
  if (query.filter) params.push(query.filter);
  if (query.limit !== undefined) params.push(`limit=${query.limit}`);
  // Cursors go into the URL as they are: they are URL-safe (docs/decisions.md, Cursors).
  if (query.cursor) params.push(`cursor=${query.cursor}`);
  const res = await get(app, token, params.length ? `${list.path}?${params.join('&')}` : list.path);
  const records = expectListEnvelope(res, list.listKey, list.cursorKeys);
  return { records, next: res.json.data[list.cursorKeys[0]!] };
}

/** Every page of a list, following the cursor; checks that no cursor comes twice. */
async function walkAll(
  app: FastifyInstance,
  token: string,
  list: ListEndpoint,
  query: { limit?: number; filter?: string } = {},
): Promise<{ ids: string[]; records: Record<string, unknown>[]; pageSizes: number[] }> {
  const records: Record<string, unknown>[] = [];
  const pageSizes: number[] = [];
  const seen = new Set<string>();
  let cursor: string | null = null;
  do {
    const p = await page(app, token, list, { ...query, cursor });
    records.push(...p.records);
    pageSizes.push(p.records.length);
    if (p.next !== null) {
      expect(seen.has(p.next)).toBe(false);
      expect(encodeURIComponent(p.next)).toBe(p.next);
      seen.add(p.next);
    }
    cursor = p.next;
    expect(pageSizes.length).toBeLessThan(1000);
  } while (cursor);
  return { ids: records.map((r) => r.id as string), records, pageSizes };
}

// ---------------------------------------------------------------------------------------------
// The fixture: for each record type, a "full" record (every value set) and a "bare" one
// (nothing optional), so every key is seen both set and null.

type Ids = Awaited<ReturnType<typeof buildFixture>>;

/** The custom field type that reads as `kind` (docs/decisions.md, Custom fields). */
function customTypeFor(kind: Kind): CustomFieldType {
  switch (kind) {
    case 'ref':
      return 'user';
    case 'refs':
      return 'multiPeople';
    case 'timestamp':
      return 'date';
    case 'string':
    case 'number':
    case 'boolean':
      return kind;
    default:
      throw new Error(`no custom field type reads as ${kind}`);
  }
}

async function buildFixture(w: WorkspaceWrite, adminId: string) {
  const seller = await makeUser(w, '이영업');
  const f: Record<string, Record<string, string>> = {};
  for (const [type, fields] of Object.entries(CUSTOM)) {
    f[type] = {};
    for (const [name, kind] of fields) {
      f[type]![name] = await makeCustomField(
        w,
        type as keyof typeof CUSTOM,
        name,
        customTypeFor(kind),
      );
    }
  }
  const dealPipeline = await makePipeline(w, { name: '신규 영업', stages: ['미팅', '제안'] });
  const leadPipeline = await makePipeline(w, {
    kind: 'lead',
    name: '리드 발굴',
    stages: ['자격 확인'],
  });
  const form = await makeWebForm(w, '문의하기');
  const sequence = await makeSequence(w, '온보딩 메일');

  const fullOrg = await makeOrganization(w, {
    name: '(주)한빛소프트',
    email: 'contact@hanbit.example',
    phone: '02-1234-5678',
    profileImage: 'https://img.example/hanbit.png',
    linkedin: 'https://linkedin.example/company/hanbit',
    custom: { [f.organization!['업종']!]: 'IT', [f.organization!['직원 수']!]: 120 },
  });
  const bareOrg = await makeOrganization(w, { name: '(주)누리' });
  const fullPerson = await makePerson(w, {
    name: '홍길동',
    organizationId: fullOrg,
    email: 'gildong@hanbit.example',
    phone: '010-1234-5678',
    jobTitle: '팀장',
    profileImage: 'https://img.example/gildong.png',
    linkedin: 'https://linkedin.example/in/gildong',
    unsubscribed: true,
    unsubscribeReason: '요청에 의한 수신 거부',
    custom: { [f.people!['고객 등급']!]: 'VIP', [f.people!['추천 담당자']!]: seller },
  });
  const barePerson = await makePerson(w, { name: '김철수' });
  const fullProduct = await makeProduct(w, {
    name: 'CRM 구독',
    code: 'CRM-M',
    kind: '구독 (월간)',
    price: 49_000.5,
    unit: '계정',
    custom: { [f.product!['제조사']!]: '세일즈맵', [f.product!['재고 있음']!]: true },
  });
  const bareProduct = await makeProduct(w, { name: '설치 지원', price: 300_000 });

  const fullDeal = await makeDeal(w, {
    name: '한빛 CRM 도입',
    peopleId: fullPerson,
    organizationId: fullOrg,
    pipelineId: dealPipeline.id,
    stageId: dealPipeline.stage['제안'],
    amount: 1_234_567.5,
    label: 'Convert',
    outcome: 'Won',
    expectedCloseAt: '2024-06-30T00:00:00.000Z',
    followerIds: [seller],
    participantIds: [fullPerson],
    custom: { [f.deal!['경쟁사']!]: '경쟁사 A', [f.deal!['관련 고객']!]: [fullPerson, barePerson] },
  });
  const bareDeal = await makeDeal(w, { name: '빈 딜' });
  const fullLead = await makeLead(w, {
    name: '한빛 추가 문의',
    peopleId: fullPerson,
    organizationId: fullOrg,
    pipelineId: leadPipeline.id,
    stageId: leadPipeline.stage['자격 확인'],
    amount: 500_000,
    label: 'MQL',
    expectedCloseAt: '2024-07-31T00:00:00.000Z',
    custom: { [f.lead!['유입 경로']!]: '웹사이트', [f.lead!['예상 예산']!]: 1_000_000 },
  });
  const bareLead = await makeLead(w, { name: '빈 리드' });

  for (const [subjectType, subjectId] of [
    ['people', fullPerson],
    ['organization', fullOrg],
    ['deal', fullDeal],
    ['lead', fullLead],
  ] as const) {
    await makeNote(w, { subjectType, subjectId, text: '첫 미팅 메모', authorId: seller });
    await makeTodo(w, {
      subjectType,
      subjectId,
      title: '견적 보내기',
      dueAt: '2024-05-01T01:00:00.000Z',
    });
  }
  await makeNote(w, { subjectType: 'product', subjectId: fullProduct, text: '인기 상품' });
  await makeSubmission(w, {
    webFormId: form,
    peopleId: fullPerson,
    organizationId: fullOrg,
    dealId: fullDeal,
  });
  await makeSubmission(w, { webFormId: form, leadId: fullLead });
  for (const [subjectType, subjectId] of [
    ['people', fullPerson],
    ['deal', fullDeal],
    ['lead', fullLead],
  ] as const) {
    await makeEnrollment(w, { sequenceId: sequence, subjectType, subjectId });
  }
  const lines = [
    {
      productId: fullProduct,
      quantity: 2,
      paymentCount: 12,
      paymentStartAt: '2024-01-31T00:00:00.000Z',
      custom: { [f.quoteProduct!['비고']!]: '연간 약정', [f.quoteProduct!['할인 금액']!]: 5_000 },
    },
    { productId: bareProduct },
  ];
  await makeQuote(w, { dealId: fullDeal, isMain: true, lines });
  const fullQuote = await makeQuote(w, {
    leadId: fullLead,
    name: '기본 견적',
    isMain: true,
    shareLink: 'https://quote.example/q/1',
    custom: { [f.quote!['유효 기간']!]: '2024-02-29T00:00:00.000Z', [f.quote!['할인율']!]: 0.1 },
    lines,
  });
  await makeNote(w, { subjectType: 'quote', subjectId: fullQuote, text: '할인 협의 중' });
  const bareQuote = await makeQuote(w, { leadId: fullLead, name: '빈 견적' });

  await makeActivity(w, { subjectId: fullDeal, type: 'create', dealStatus: 'In progress' });
  await makeActivity(w, {
    subjectId: fullDeal,
    type: 'emailOpen',
    dealStatus: 'Won',
    emailMessageId: 'msg-1',
  });
  await makeActivity(w, {
    subjectId: fullDeal,
    type: 'webFormSubmit',
    dealStatus: 'Won',
    webFormId: form,
  });
  await makeActivity(w, {
    subjectId: fullDeal,
    type: 'smsSend',
    dealStatus: 'Won',
    smsId: 'sms-1',
  });
  await makeActivity(w, {
    subjectId: fullDeal,
    type: 'todoCreate',
    dealStatus: 'Won',
    todoId: 'todo-1',
  });
  await makeActivity(w, {
    subjectId: fullDeal,
    type: 'memoCreate',
    dealStatus: 'Won',
    memoId: 'memo-1',
  });
  await makeActivity(w, {
    subjectType: 'lead',
    subjectId: fullLead,
    type: 'emailOpen',
    emailMessageId: 'msg-2',
  });

  const mover = await makePerson(w, { name: '이동훈' });
  await setPersonOrganization(w, mover, bareOrg, adminId);
  await makeHistory(w, { peopleId: fullPerson, fieldName: '포지션', fieldValue: '팀장' });
  await makeHistory(w, {
    peopleId: barePerson,
    fieldName: '전화',
    fieldValue: null,
    ownerId: null,
  });

  return {
    seller,
    fullOrg,
    bareOrg,
    fullPerson,
    barePerson,
    fullProduct,
    bareProduct,
    fullDeal,
    bareDeal,
    fullLead,
    bareLead,
    fullQuote,
    bareQuote,
    fields: f,
  };
}

/**
 * The stage timing keys of deals or leads: three per stage of every pipeline of the type,
 * in pipeline and stage order (as `GET /v2/{type}/pipeline` lists them), all nullable. The
 * fixture changes no stage, so no `퇴장한 날짜` is ever set, nor the keys of a stage no record
 * of `records` is in.
 */
async function stageFields(
  token: string,
  kind: 'deal' | 'lead',
  records: Record<string, unknown>[],
): Promise<{ fields: Field[]; neverSet: string[] }> {
  const res = await get(app, token, `/v2/${kind}/pipeline`);
  const present = new Set(records.map((r) => (r['파이프라인 단계'] as { id: string } | null)?.id));
  const fields: Field[] = [];
  const neverSet: string[] = [];
  for (const p of res.json.data.pipelineList as {
    name: string;
    pipelineStageList: { id: string; name: string }[];
  }[]) {
    for (const s of p.pipelineStageList) {
      const prefix = `${s.name}(${p.name})`;
      const keys = [
        `${prefix}로 진입한 날짜`,
        `${prefix}에서 보낸 누적 시간`,
        `${prefix}에서 퇴장한 날짜`,
      ];
      fields.push([keys[0]!, 'timestamp', N], [keys[1]!, 'integer', N], [keys[2]!, 'timestamp', N]);
      neverSet.push(keys[2]!);
      if (!present.has(s.id)) neverSet.push(keys[0]!, keys[1]!);
    }
  }
  return { fields, neverSet };
}

const withCustom = (fields: Field[], type: keyof typeof CUSTOM): Field[] => [
  ...fields,
  ...CUSTOM[type],
];

// ---------------------------------------------------------------------------------------------

let store: TestStore;
let app: FastifyInstance;
appForFile((s, a) => {
  store = s;
  app = a;
});

describe('record shapes (docs/decisions.md, Record keys)', () => {
  let ws: TestWorkspace;
  let ids: Ids;
  beforeAll(async () => {
    ws = await testWorkspace(store);
    ids = await ws.write((w) => buildFixture(w, ws.userId));
  });

  it('GET /v2/people: envelope, keys in order, kinds and nulls, custom fields last', async () => {
    const res = await get(app, ws.token, '/v2/people');
    const records = expectListEnvelope(res, 'peopleList', ['nextCursor']);
    expect(res.json.data.nextCursor).toBeNull();
    expectShape(records, withCustom(PEOPLE, 'people'));
    const full = records.find((r) => r.id === ids.fullPerson)!;
    expect(full['추천 담당자']).toEqual({ id: ids.seller, name: '이영업' });
    expect(full['고객 등급']).toBe('VIP');
  });

  it('GET /v2/organization', async () => {
    const res = await get(app, ws.token, '/v2/organization');
    const records = expectListEnvelope(res, 'organizationList', ['nextCursor']);
    expect(res.json.data.nextCursor).toBeNull();
    expectShape(records, withCustom(ORGANIZATION, 'organization'));
  });

  it('GET /v2/deal: `nextCurosr` then `nextCursor`', async () => {
    const res = await get(app, ws.token, '/v2/deal');
    const records = expectListEnvelope(res, 'dealList', ['nextCurosr', 'nextCursor']);
    expect(res.json.data.nextCurosr).toBeNull();
    const stages = await stageFields(ws.token, 'deal', records);
    expect(stages.fields.length).toBeGreaterThan(0);
    expectShape(records, [...DEAL, ...stages.fields, ...CUSTOM.deal], stages.neverSet);
    const full = records.find((r) => r.id === ids.fullDeal)!;
    expect(full['관련 고객']).toEqual([
      { id: ids.fullPerson, name: '홍길동' },
      { id: ids.barePerson, name: '김철수' },
    ]);
  });

  it('GET /v2/deal/{dealId}: the list record with the four extra keys before the custom fields', async () => {
    const list = (await get(app, ws.token, '/v2/deal')).json.data.dealList as Record<
      string,
      unknown
    >[];
    const singles: Record<string, unknown>[] = [];
    for (const id of [ids.fullDeal, ids.bareDeal]) {
      const res = await get(app, ws.token, `/v2/deal/${id}`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.json)).toEqual(['success', 'data']);
      expect(res.json.success).toBe(true);
      expect(Object.keys(res.json.data)).toEqual(['deal']);
      expect(res.json.data.deal).toHaveLength(1);
      const single = res.json.data.deal[0] as Record<string, unknown>;
      const fromList = list.find((r) => r.id === id)!;
      for (const [key, value] of Object.entries(fromList)) expect(single[key], key).toEqual(value);
      singles.push(single);
    }
    const stages = await stageFields(ws.token, 'deal', singles);
    expectShape(
      singles,
      [...DEAL, ...SINGLE_DEAL_EXTRAS, ...stages.fields, ...CUSTOM.deal],
      stages.neverSet,
    );
    expect(singles[0]!['팔로워']).toEqual([{ id: ids.seller, name: '이영업' }]);
    expect(singles[0]!['참여자']).toEqual([{ id: ids.fullPerson, name: '홍길동' }]);
  });

  it('GET /v2/deal/activity: deal and lead activities', async () => {
    const res = await get(app, ws.token, '/v2/deal/activity');
    const records = expectListEnvelope(res, 'dealActivityList', ['nextCursor']);
    expect(res.json.data.nextCursor).toBeNull();
    expectShape(records, DEAL_ACTIVITY);
  });

  it('GET /v2/lead: `nextCurosr` then `nextCursor`; the deal shape', async () => {
    const res = await get(app, ws.token, '/v2/lead');
    const records = expectListEnvelope(res, 'leadList', ['nextCurosr', 'nextCursor']);
    expect(res.json.data.nextCursor).toBeNull();
    // A lead never closes, so its `마감일` stays null.
    const stages = await stageFields(ws.token, 'lead', records);
    expectShape(
      records,
      [...LEAD, ...stages.fields, ...CUSTOM.lead],
      ['마감일', ...stages.neverSet],
    );
  });

  it('GET /v2/lead/{leadId}/quote: quotes with their products, no cursor', async () => {
    const res = await get(app, ws.token, `/v2/lead/${ids.fullLead}/quote`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.json)).toEqual(['success', 'data']);
    expect(Object.keys(res.json.data)).toEqual(['quoteList']);
    const quotes = res.json.data.quoteList as Record<string, unknown>[];
    expect(quotes.map((q) => q.id)).toEqual([ids.fullQuote, ids.bareQuote]);
    expectShape(quotes, withCustom(QUOTE, 'quote'));
    const lines = quotes.flatMap((q) => q['견적 구성 상품'] as Record<string, unknown>[]);
    expect(lines).toHaveLength(2);
    expectShape(lines, withCustom(QUOTE_PRODUCT, 'quoteProduct'));

    const none = await get(app, ws.token, `/v2/lead/${ids.bareLead}/quote`);
    expect(none.status).toBe(200);
    expect(none.json).toEqual({ success: true, data: { quoteList: [] } });
  });

  it('GET /v2/product', async () => {
    const res = await get(app, ws.token, '/v2/product');
    const records = expectListEnvelope(res, 'productList', ['nextCursor']);
    expect(res.json.data.nextCursor).toBeNull();
    expectShape(records, withCustom(PRODUCT, 'product'));
  });

  it('GET /v2/people/history', async () => {
    const res = await get(app, ws.token, '/v2/people/history');
    const records = expectListEnvelope(res, 'peopleHistoryList', ['nextCursor']);
    expect(res.json.data.nextCursor).toBeNull();
    expectShape(records, PEOPLE_HISTORY);
    expect(records.map((r) => r.type)).toEqual([
      'editOrganizationConnect',
      'editField',
      'editField',
    ]);
  });

  it('answers errors in the shape of the endpoint (docs/decisions.md, Error shapes)', async () => {
    expectErrorB(await get(app, ws.token, '/v2/deal/no-such-deal'), 404);
    expectErrorB(await get(app, null, `/v2/deal/${ids.fullDeal}`), 401);
    expectErrorA(await get(app, ws.token, '/v2/lead/no-such-lead/quote'), 404);
    // A lead's id is not a deal's, and a deal's not a lead's.
    expectErrorB(await get(app, ws.token, `/v2/deal/${ids.fullLead}`), 404);
    expectErrorA(await get(app, ws.token, `/v2/lead/${ids.fullDeal}/quote`), 404);
    for (const path of ['/v2/people', '/v2/organization', '/v2/deal', '/v2/lead', '/v2/product']) {
      expectErrorA(await get(app, null, path), 401);
      expectErrorA(await get(app, 'not-a-real-token', path), 401);
      expectErrorA(await get(app, ws.token, `${path}?cursor=garbage`), 400);
    }
    expectErrorA(await get(app, ws.token, '/v2/deal/activity?cursor=garbage'), 400);
    expectErrorA(await get(app, ws.token, '/v2/people/history?cursor=garbage'), 400);
  });

  it('does not show one workspace the records of another', async () => {
    const other = await testWorkspace(store, '다른 워크스페이스');
    expectErrorB(await get(app, other.token, `/v2/deal/${ids.fullDeal}`), 404);
    expectErrorA(await get(app, other.token, `/v2/lead/${ids.fullLead}/quote`), 404);
    const people = await get(app, other.token, '/v2/people');
    expect(people.json).toEqual({ success: true, data: { peopleList: [], nextCursor: null } });
    const deals = await get(app, other.token, '/v2/deal');
    expect(deals.text).toBe(
      '{"success":true,"data":{"dealList":[],"nextCurosr":null,"nextCursor":null}}',
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Cursor walks of every list endpoint (docs/decisions.md, Cursors).

/** How a list endpoint's records are made, with a given creation time and id. */
interface Seeded extends ListEndpoint {
  seed: (w: WorkspaceWrite, n: number, at?: { createdAt: string; id: string }) => Promise<void>;
}

async function personOf(w: WorkspaceWrite): Promise<string> {
  const row = await w.trx
    .selectFrom('people')
    .select('id')
    .where('workspace_id', '=', w.workspaceId)
    .executeTakeFirst();
  return row?.id ?? (await makePerson(w, { createdAt: '2020-01-01T00:00:00.000Z' }));
}
async function dealOf(w: WorkspaceWrite): Promise<string> {
  const row = await w.trx
    .selectFrom('deals')
    .select('id')
    .where('workspace_id', '=', w.workspaceId)
    .executeTakeFirst();
  return row?.id ?? (await makeDeal(w, { createdAt: '2020-01-01T00:00:00.000Z' }));
}

const SEEDED: Seeded[] = [
  {
    ...PEOPLE_LIST,
    seed: async (w, n, at) => void (await makePerson(w, { ...at, name: `고객 ${n}` })),
  },
  {
    ...ORGANIZATION_LIST,
    seed: async (w, n, at) => void (await makeOrganization(w, { ...at, name: `회사 ${n}` })),
  },
  { ...DEAL_LIST, seed: async (w, n, at) => void (await makeDeal(w, { ...at, name: `딜 ${n}` })) },
  {
    ...LEAD_LIST,
    seed: async (w, n, at) => void (await makeLead(w, { ...at, name: `리드 ${n}` })),
  },
  {
    ...PRODUCT_LIST,
    seed: async (w, n, at) => void (await makeProduct(w, { ...at, name: `상품 ${n}` })),
  },
  {
    ...ACTIVITY_LIST,
    seed: async (w, _n, at) =>
      void (await makeActivity(w, {
        subjectId: await dealOf(w),
        type: 'meeting',
        id: at?.id,
        date: at?.createdAt,
      })),
  },
  {
    ...HISTORY_LIST,
    seed: async (w, n, at) =>
      makeHistory(w, { peopleId: await personOf(w), fieldValue: `이름 ${n}`, ...at }),
  },
];

/** `count` records of a list, created in shuffled id order with some equal creation times. */
async function seedList(ws: TestWorkspace, list: Seeded, count: number): Promise<string[]> {
  const base = Date.parse('2024-03-01T00:00:00.000Z');
  const rows = Array.from({ length: count }, (_, i) => ({
    // Three records share each creation time, and ids are not in creation order.
    createdAt: new Date(base + Math.floor(i / 3) * 60_000).toISOString(),
    id: `r${String((i * 37) % count).padStart(4, '0')}`,
  }));
  await ws.write(async (w) => {
    for (const [n, at] of rows.entries()) await list.seed(w, n, at);
  });
  return rows
    .sort((a, b) =>
      a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1,
    )
    .map((r) => r.id);
}

describe.each(SEEDED)('cursor walk of $path', (list) => {
  let ws: TestWorkspace;
  let expected: string[];
  beforeAll(async () => {
    ws = await testWorkspace(store);
    expected = await seedList(ws, list, 130);
  });

  it.each([50, 7, 100, 1])(
    'walks 130 records with limit %i: none skipped or repeated',
    async (limit) => {
      const walked = await walkAll(app, ws.token, list, { limit });
      expect(walked.ids).toEqual(expected);
      const pages = Math.ceil(130 / limit);
      expect(walked.pageSizes).toEqual([
        ...Array(pages - 1).fill(limit),
        130 - limit * (pages - 1),
      ]);
    },
  );

  it('pages 50 records by default, caps `limit` at 100, and takes a new limit mid-walk', async () => {
    const first = await page(app, ws.token, list);
    expect(first.records.map((r) => r.id)).toEqual(expected.slice(0, 50));
    expect(typeof first.next).toBe('string');
    const capped = await page(app, ws.token, list, { limit: 500 });
    expect(capped.records).toHaveLength(100);
    const p1 = await page(app, ws.token, list, { limit: 7 });
    const p2 = await page(app, ws.token, list, { limit: 100, cursor: p1.next });
    const p3 = await page(app, ws.token, list, { cursor: p2.next });
    expect(p3.next).toBeNull();
    expect([...p1.records, ...p2.records, ...p3.records].map((r) => r.id)).toEqual(expected);
    expect(p3.records).toHaveLength(23);
  });

  it('refuses a malformed `limit` or cursor, and a cursor of another endpoint', async () => {
    for (const limit of ['0', '-1', '1.5', 'abc', '']) {
      expectErrorA(await get(app, ws.token, `${list.path}?limit=${limit}`), 400);
    }
    const p1 = await page(app, ws.token, list, { limit: 5 });
    const tampered = `${p1.next!.slice(0, 4)}${p1.next![4] === 'A' ? 'B' : 'A'}${p1.next!.slice(5)}`;
    expectErrorA(await get(app, ws.token, `${list.path}?cursor=${tampered}`), 400);
    const other = list.path === '/v2/people' ? ORGANIZATION_LIST : PEOPLE_LIST;
    expectErrorA(await get(app, ws.token, `${other.path}?cursor=${p1.next}`), 400);
  });
});

describe.each(SEEDED)('walk of $path while records are added', (list) => {
  it('shows the new records at the end, and nothing seen before again', async () => {
    const ws = await testWorkspace(store);
    const before = await seedList(ws, list, 30);
    const ids: string[] = [];
    let cursor: string | null = null;
    const added: string[] = [];
    for (let n = 0; ; n++) {
      const p = await page(app, ws.token, list, { limit: 7, cursor });
      ids.push(...p.records.map((r) => r.id as string));
      if (n === 1 || n === 3) {
        // New records are created now: a later `생성 날짜` than every seeded one.
        const known = new Set(await allIds(ws, list));
        await ws.write(async (w) => {
          for (let i = 0; i < 4; i++) await list.seed(w, 1000 + i);
        });
        added.push(...(await allIds(ws, list)).filter((id) => !known.has(id)));
      }
      cursor = p.next;
      if (!cursor) break;
    }
    expect(added).toHaveLength(8);
    expect(ids).toEqual([...before, ...added]);
  });
});

async function allIds(ws: TestWorkspace, list: ListEndpoint): Promise<string[]> {
  return (await walkAll(app, ws.token, list, { limit: 100 })).ids;
}

describe('order', () => {
  it('orders records of equal `생성 날짜` by id', async () => {
    const ws = await testWorkspace(store);
    await ws.write(async (w) => {
      for (const id of ['p-c', 'p-a', 'p-e', 'p-b', 'p-d']) {
        await makePerson(w, { id, createdAt: '2024-01-01T00:00:00.000Z' });
      }
      await makePerson(w, { id: 'p-0', createdAt: '2024-01-01T00:00:00.001Z' });
      await makePerson(w, { id: 'p-z', createdAt: '2023-12-31T23:59:59.999Z' });
    });
    const walked = await walkAll(app, ws.token, PEOPLE_LIST, { limit: 2 });
    expect(walked.ids).toEqual(['p-z', 'p-a', 'p-b', 'p-c', 'p-d', 'p-e', 'p-0']);
  });

  it('lists records created in one write (same `생성 날짜`) in creation order', async () => {
    const ws = await testWorkspace(store);
    const made = await ws.write(async (w) => {
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) ids.push(await makeDeal(w));
      return ids;
    });
    expect((await walkAll(app, ws.token, DEAL_LIST, { limit: 3 })).ids).toEqual(made);
  });
});

// ---------------------------------------------------------------------------------------------
// Filters of GET /v2/deal (docs/decisions.md, Cursors).

describe('GET /v2/deal filters', () => {
  let ws: TestWorkspace;
  const d: Record<string, string[]> = {};
  let all: string[];

  const q = (params: Record<string, string>) =>
    Object.entries(params)
      .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
      .join('&');

  beforeAll(async () => {
    ws = await testWorkspace(store);
    all = await ws.write(async (w) => {
      const sales = await makePipeline(w, { name: '신규 영업', stages: ['미팅', '제안', '계약'] });
      const renewal = await makePipeline(w, { name: '재계약', stages: ['미팅', '협상'] });
      await makePipeline(w, { name: 'Enterprise', stages: ['Kickoff'] });
      await makePipeline(w, { kind: 'lead', name: '리드 발굴', stages: ['미팅', '자격 확인'] });
      // Interleaved in time, so each filter's deals are scattered through the whole list.
      const plan: [string, string | null, string | null][] = [
        ['sales/미팅', sales.id, sales.stage['미팅']!],
        ['renewal/미팅', renewal.id, renewal.stage['미팅']!],
        ['sales/제안', sales.id, sales.stage['제안']!],
        ['none', null, null],
        ['renewal/협상', renewal.id, renewal.stage['협상']!],
        ['sales/미팅', sales.id, sales.stage['미팅']!],
        ['sales/계약', sales.id, sales.stage['계약']!],
        ['renewal/미팅', renewal.id, renewal.stage['미팅']!],
        ['sales/미팅', sales.id, sales.stage['미팅']!],
        ['sales/제안', sales.id, sales.stage['제안']!],
      ];
      const ids: string[] = [];
      for (const [i, [key, pipelineId, stageId]] of plan.entries()) {
        const id = await makeDeal(w, {
          pipelineId,
          stageId,
          createdAt: new Date(Date.parse('2024-04-01T00:00:00.000Z') + i * 1000).toISOString(),
        });
        d[key] = [...(d[key] ?? []), id];
        ids.push(id);
      }
      return ids;
    });
  });

  const filtered = (ids: string[]) => all.filter((id) => ids.includes(id));

  it('filters by pipelineName', async () => {
    const sales = [...d['sales/미팅']!, ...d['sales/제안']!, ...d['sales/계약']!];
    expect(
      (await walkAll(app, ws.token, DEAL_LIST, { filter: q({ pipelineName: '신규 영업' }) })).ids,
    ).toEqual(filtered(sales));
    const renewal = [...d['renewal/미팅']!, ...d['renewal/협상']!];
    expect(
      (await walkAll(app, ws.token, DEAL_LIST, { filter: q({ pipelineName: '재계약' }), limit: 1 }))
        .ids,
    ).toEqual(filtered(renewal));
    const none = await page(app, ws.token, DEAL_LIST, {
      filter: q({ pipelineName: 'Enterprise' }),
    });
    expect(none).toEqual({ records: [], next: null });
  });

  it('filters by pipelineStageName alone: that stage in every deal pipeline that has it', async () => {
    const meetings = filtered([...d['sales/미팅']!, ...d['renewal/미팅']!]);
    expect(meetings).toHaveLength(5);
    for (const limit of [2, 50]) {
      const walked = await walkAll(app, ws.token, DEAL_LIST, {
        filter: q({ pipelineStageName: '미팅' }),
        limit,
      });
      expect(walked.ids).toEqual(meetings);
    }
    expect(
      (await walkAll(app, ws.token, DEAL_LIST, { filter: q({ pipelineStageName: '제안' }) })).ids,
    ).toEqual(d['sales/제안']);
  });

  it('filters by both', async () => {
    const both = q({ pipelineName: '재계약', pipelineStageName: '미팅' });
    expect((await walkAll(app, ws.token, DEAL_LIST, { filter: both, limit: 1 })).ids).toEqual(
      d['renewal/미팅'],
    );
    const sales = q({ pipelineName: '신규 영업', pipelineStageName: '미팅' });
    expect((await walkAll(app, ws.token, DEAL_LIST, { filter: sales })).ids).toEqual(
      d['sales/미팅'],
    );
  });

  it('refuses names that no deal pipeline has, in shape A (never an empty list)', async () => {
    const cases: Record<string, string>[] = [
      { pipelineName: '없는 파이프라인' },
      { pipelineName: '리드 발굴' },
      { pipelineName: 'enterprise' },
      { pipelineStageName: '자격 확인' },
      { pipelineStageName: '없는 단계' },
      { pipelineName: '재계약', pipelineStageName: '제안' },
      { pipelineName: '없는 파이프라인', pipelineStageName: '미팅' },
    ];
    for (const params of cases) {
      const res = await get(app, ws.token, `/v2/deal?${q(params)}`);
      expectErrorA(res, 400);
    }
  });

  it('binds a cursor to its filters, not to its limit', async () => {
    const meetings = q({ pipelineStageName: '미팅' });
    const first = await page(app, ws.token, DEAL_LIST, { filter: meetings, limit: 2 });
    expect(first.next).not.toBeNull();
    const sameFilters = await page(app, ws.token, DEAL_LIST, {
      filter: meetings,
      limit: 50,
      cursor: first.next,
    });
    expect(sameFilters.records.map((r) => r.id)).toEqual(
      filtered([...d['sales/미팅']!, ...d['renewal/미팅']!]).slice(2),
    );
    for (const filter of [
      '',
      q({ pipelineName: '신규 영업' }),
      q({ pipelineStageName: '제안' }),
      q({ pipelineName: '신규 영업', pipelineStageName: '미팅' }),
    ]) {
      const sep = filter ? `${filter}&` : '';
      expectErrorA(await get(app, ws.token, `/v2/deal?${sep}cursor=${first.next}`), 400);
    }
    const unfiltered = await page(app, ws.token, DEAL_LIST, { limit: 2 });
    expectErrorA(await get(app, ws.token, `/v2/deal?${meetings}&cursor=${unfiltered.next}`), 400);
    expectErrorA(await get(app, ws.token, `/v2/lead?cursor=${unfiltered.next}`), 400);
    // Nor does it work in another workspace.
    const other = await testWorkspace(store);
    expectErrorA(await get(app, other.token, `/v2/deal?cursor=${unfiltered.next}`), 400);
  });
});

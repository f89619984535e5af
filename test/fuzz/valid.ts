/**
 * A valid request of every operation of the OpenAPI document, as fast-check arbitraries:
 * ids from the fixture's workspace `m`, and free values where the operation's schema has
 * them (names, notes, numbers, `limit`, field names, filters). `§new:deal§` in a path or body
 * stands for a record made for that request alone (one the request deletes or merges away),
 * `§uniq§` for a suffix no other name has.
 */
import fc from 'fast-check';
import { BATCH_READ_TYPE_LABELS } from '../../src/api-schema/bodies/batch.ts';
import { ACTIVITY_TYPES } from '../../src/domain/activities.ts';
import { EVENT_OBJECT_TYPES, EVENT_TOPICS } from '../../src/domain/events.ts';
import { FIELD_TYPE_OF_PATH } from '../../src/domain/field-catalogue.ts';
import { FILE_EXTENSIONS } from '../../src/domain/file-types.ts';
import { MEMO_TYPE_IDS } from '../../src/domain/memo-types.ts';
import { SINGLE_DEAL_KEYS } from '../../src/resources/batch/reads.ts';
import { CREATABLE_FIELD_TYPES } from '../../src/resources/fields/commands.ts';
import { TODO_KINDS } from '../../src/resources/todos/writes.ts';
import { type FormPart, SAMPLE_FILES } from '../multipart.ts';
import type { Fixture } from './fixture.ts';

/** One request as the fuzz sends it. */
export interface Req {
  method: 'GET' | 'POST';
  path: string;
  query?: [string, string][];
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as it is (instead of `body`). */
  payload?: string | Buffer;
  /** `application/json` for a POST unless given; null sends none. */
  contentType?: string | null;
  /** Sent as `multipart/form-data` (a file upload), instead of `body`. */
  form?: FormPart[];
  /** More request headers (`Accept` of the MCP endpoint). */
  headers?: Record<string, string>;
}

type Gen = (fx: Fixture) => fc.Arbitrary<Req>;

/** How a formula names the record of each field path (custom objects: none, literals only). */
const OBJECT_OF_PATH: Record<string, string | undefined> = {
  people: '고객',
  organization: '회사',
  deal: '딜',
  lead: '리드',
  product: '상품',
  quote: '견적',
};

/** Formula fields the fuzz makes: result type and formula, by the record's object name. */
const FORMULAS: readonly ((object: string | undefined) => [type: string, formula: string])[] = [
  () => ['number', '(1 + 2.5) * 3 / 4 - -1'],
  (o) => ['string', o ? `{{${o}.이름}} & " 님"` : '"값 " & 1'],
  (o) => (o ? ['dateTime', `{{${o}.생성 날짜}} + 1`] : ['string', '"a" + "b"']),
];

/**
 * Some non-blank text: any Unicode graphemes but U+0000 (refused everywhere, by design) and
 * `§`, which marks the tokens a request is prepared from (`§uniq§`): a name with one of its
 * own beside a token read as an unknown token (found at the 2,695th of 10,000 cases).
 */
export const text = (maxLength = 40) =>
  fc
    .string({ unit: 'grapheme', minLength: 1, maxLength })
    .filter((s) => /\S/.test(s) && !s.includes('\u0000') && !s.includes('§'));
const name = () => text(40);
const memo = () => fc.option(text(200), { nil: null });
const pick = <T>(xs: readonly T[]) => fc.constantFrom(...xs);
const limit = () =>
  fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 150 })).map(String);
const money = () =>
  fc.oneof(fc.integer({ min: 0, max: 10 ** 12 }), fc.double({ min: 0, max: 1e9, noNaN: true }));
const day = () =>
  fc
    .integer({ min: -400, max: 400 })
    .map((d) => new Date(Date.UTC(2024, 3, 8) + d * 86_400_000).toISOString().slice(0, 10));

/** Field names of `type` a comma-separated list can hold. */
const fieldListQuery = (fx: Fixture, type: string) =>
  fc
    .subarray(
      fx.fields[type]!.filter((f) => !f.includes(',')),
      { minLength: 1, maxLength: 6 },
    )
    .map((xs) => xs.join(','));

/** A stage timing key of a deal or lead (`미팅(영업)로 진입한 날짜`, ...). */
const STAGE_KEY = /\)(로 진입한 날짜|에서 보낸 누적 시간|에서 퇴장한 날짜)$/;

/** The record type of each subject id key of a todo. */
const SUBJECT_KIND = {
  dealId: 'deal',
  leadId: 'lead',
  peopleId: 'people',
  organizationId: 'organization',
} as const;

/** Some of a todo's own fields but `내용`, as `fieldList` items. */
const todoFields = () =>
  fc
    .record(
      {
        type: pick(TODO_KINDS).map((v) => ({ name: '유형', stringValue: v })),
        start: fc.option(day(), { nil: null }).map((v) => ({ name: '시작 날짜', dateValue: v })),
        due: fc.option(day(), { nil: null }).map((v) => ({ name: '마지막 날짜', dateValue: v })),
        done: fc.boolean().map((v) => ({ name: '완료', booleanValue: v })),
      },
      { requiredKeys: [] },
    )
    .map((r) => Object.values(r));

/** A note on one of `m`'s records of `type` (`path` its path segment), with or without a type. */
const memoOn = (
  fx: Fixture,
  type: 'people' | 'organization' | 'deal' | 'lead' | 'customObject' | 'product' | 'quote' | 'todo',
  path: string = type,
) =>
  fc
    .tuple(
      pick(fx.m.ids[type]),
      text(200),
      fc.option(pick(MEMO_TYPE_IDS), { nil: undefined }),
      // The text under either name the route takes.
      fc.constantFrom('text', 'memo'),
    )
    .map(([id, t, typeId, key]) => ({
      method: 'POST' as const,
      path: `/v2/${path}/${id}/memo`,
      body: typeId === undefined ? { [key]: t } : { [key]: t, typeId },
    }));

/** A query of optional parameters. */
function query(parts: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<[string, string][]> {
  return fc
    .record(parts, { requiredKeys: [] })
    .map((r) => Object.entries(r).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** An object with some of these keys. */
function some(parts: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  return fc.record(parts, { requiredKeys: [] });
}

const GET = (path: string, q: fc.Arbitrary<[string, string][]> = fc.constant([])) =>
  q.map((query): Req => ({ method: 'GET', path, query }));
const POST = (path: string, body: fc.Arbitrary<unknown>) =>
  body.map((b): Req => ({ method: 'POST', path, body: b }));
const getEach = (
  ids: string[],
  path: (id: string) => string,
  q?: fc.Arbitrary<[string, string][]>,
) =>
  fc
    .tuple(pick(ids), q ?? fc.constant([] as [string, string][]))
    .map(([id, query]): Req => ({ method: 'GET', path: path(id), query }));

/** The fixture's kind of each `targetType` of the association reads. */
const TARGET_KINDS = {
  people: 'people',
  organization: 'organization',
  deal: 'deal',
  lead: 'lead',
  'custom-object': 'customObject',
} as const;

/**
 * An association read of a record of `m`, of any type, to any type `to` lists; half of them
 * of a person with several deals (the third person's by their own key, the second's by the
 * fixture's 추천인 field), so that pages follow.
 */
const association = (fx: Fixture, to: readonly string[], kind: 'primary' | 'custom') =>
  fc
    .tuple(
      fc.oneof(
        pick(Object.keys(TARGET_KINDS) as (keyof typeof TARGET_KINDS)[]).chain((type) =>
          fc.tuple(fc.constant(type), pick(fx.m.ids[TARGET_KINDS[type]]), pick(to)),
        ),
        fc.constant([
          'people' as const,
          fx.m.ids.people[kind === 'primary' ? 2 : 1]!,
          'deal',
        ] as const),
      ),
      query({ limit: limit() }),
    )
    .map(([[type, id, toType], q]) => [[type, id], toType, q] as const)
    .map(
      ([[type, id], toType, q]): Req => ({
        method: 'GET',
        path: `/v2/object/${type}/${id}/association/${toType}/${kind}`,
        query: q,
      }),
    );

const activities = (idParam: string, ids: string[]) =>
  query({
    limit: limit(),
    [idParam]: pick(ids),
    types: fc.subarray([...ACTIVITY_TYPES], { minLength: 1 }).map((t) => t.join(',')),
    startDate: day().map((d) => (d < '2024-04-08' ? d : '2024-01-01')),
    endDate: day().map((d) => (d >= '2024-04-08' ? d : '2025-01-01')),
  });

const listRecords = (fx: Fixture, type: string) =>
  query({ limit: limit(), fieldList: fieldListQuery(fx, type) });

const personBody = (fx: Fixture) => ({
  name: name(),
  organizationId: fc.option(pick(fx.m.ids.organization), { nil: null }),
  memo: memo(),
  fieldList: fc.subarray([
    { name: '전화', stringValue: '010-1234-5678' },
    { name: '포지션', stringValue: '팀장' },
  ]),
});
const organizationBody = () => ({
  name: name().map((n) => `${n} §uniq§`),
  memo: memo(),
  fieldList: fc.subarray([{ name: '전화', stringValue: '02-000-0000' }]),
});
const dealBody = (fx: Fixture) => ({
  name: name(),
  pipelineId: fc.constant(fx.m.dealPipe.id),
  pipelineStageId: pick(fx.m.dealPipe.stageIds),
  status: pick(['In progress', 'Won', 'Lost']),
  // A deal or lead needs a person or an organization: the person is always given.
  peopleId: pick(fx.m.ids.people),
  organizationId: fc.option(pick(fx.m.ids.organization), { nil: null }),
  price: fc.option(money(), { nil: null }),
  memo: memo(),
  fieldList: fc.subarray([{ name: '수주 예정일', dateValue: '2024-12-31' }]),
});
const leadBody = (fx: Fixture) => ({
  name: name(),
  peopleId: pick(fx.m.ids.people),
  organizationId: pick(fx.m.ids.organization),
  memo: memo(),
});
/** A lead's pipeline and stage: both or neither. */
const leadPipeline = (fx: Fixture) =>
  fc.option(
    pick(fx.m.leadPipe.stageIds).map((stage) => ({
      pipelineId: fx.m.leadPipe.id,
      pipelineStageId: stage,
    })),
    { nil: {} },
  );

/** Webhook bodies. */
const objectTypeList = fc.uniqueArray(pick(['people', 'organization', 'lead', 'deal']), {
  minLength: 1,
  maxLength: 4,
});
const eventList = fc.uniqueArray(pick([...EVENT_TOPICS]), { minLength: 1, maxLength: 4 });
const hookFields = fc.option(
  fc.uniqueArray(pick(['이름', '전화', '이메일', '금액']), { minLength: 1 }),
  {
    nil: null,
  },
);

/** A file of kind `ext` as its format begins, then some bytes of its own. */
const fileOf = (ext: string) =>
  fc.uint8Array({ maxLength: 600 }).map((tail) => {
    const head: Buffer =
      (SAMPLE_FILES as Record<string, Buffer>)[ext] ??
      (ext === 'jpeg' ? SAMPLE_FILES.jpg : undefined) ??
      (['xlsx', 'pptx'].includes(ext) ? SAMPLE_FILES.docx : undefined) ??
      (['doc', 'ppt'].includes(ext) ? SAMPLE_FILES.xls : SAMPLE_FILES.txt);
    // Text stays text: its tail is printable ASCII.
    const text = ext === 'txt' || ext === 'csv';
    return Buffer.concat([head, Buffer.from(text ? tail.map((b) => 0x20 + (b % 95)) : tail)]);
  });
/** A file name's stem: any text a header's quoted string can carry. */
/** A file's name without its extension: no path separator (the server keeps a path's last part). */
const stem = () =>
  text(30).filter(
    (s) =>
      s.trim() === s &&
      [...s].every(
        (c) => c.codePointAt(0)! >= 0x20 && c !== '\u007f' && c !== '"' && c !== '\\' && c !== '/',
      ),
  );
/** An upload's form: the file, and maybe the record it goes to and a memo, in any order. */
const uploadForm = (fx: Fixture) =>
  fc
    .tuple(
      stem(),
      pick(FILE_EXTENSIONS),
      fc.option(
        fc.oneof(
          pick(fx.m.ids.deal).map((id) => ['deal', id] as const),
          pick(fx.m.ids.people).map((id) => ['people', id] as const),
          pick(fx.m.ids.organization).map((id) => ['organization', id] as const),
          pick(fx.m.ids.lead).map((id) => ['lead', id] as const),
          pick(fx.m.ids.product).map((id) => ['product', id] as const),
          pick(fx.m.ids.customObject).map((id) => ['customObject', id] as const),
        ),
        { nil: undefined },
      ),
      fc.option(text(100), { nil: undefined }),
      fc.boolean(),
    )
    .chain(([name, ext, target, memoText, fileFirst]) =>
      fileOf(ext).map((data): FormPart[] => {
        const fields: FormPart[] = [];
        if (target) {
          fields.push({ name: 'objectType', value: target[0] });
          fields.push({ name: 'objectId', value: target[1] });
        }
        if (memoText !== undefined) fields.push({ name: 'memo', value: memoText });
        const file: FormPart = { name: 'file', filename: `${name}.${ext}`, data };
        return fileFirst ? [file, ...fields] : [...fields, file];
      }),
    );

/** Batch bodies. */
const BATCH_TYPES = ['people', 'organization', 'deal', 'lead'] as const;
const batchData = (fx: Fixture, type: (typeof BATCH_TYPES)[number], n: string) =>
  type === 'deal'
    ? {
        이름: n,
        파이프라인: fx.m.dealPipe.id,
        '파이프라인 단계': fx.m.dealPipe.stageIds[0],
        상태: 'In progress',
      }
    : type === 'organization'
      ? { 이름: `${n} §uniq§` }
      : { 이름: n };

/** A valid request of each operation, by `operationId`. */
export const VALID: Record<string, Gen> = {
  listPeople: (fx) => GET('/v2/people', listRecords(fx, 'people')),
  getPeople: (fx) =>
    getEach(
      fx.m.ids.people,
      (id) => `/v2/people/${id}`,
      query({ fieldList: fieldListQuery(fx, 'people') }),
    ),
  createPeople: (fx) =>
    POST(
      '/v2/people',
      some(personBody(fx)).map((b) => ({ name: '고객', ...b })),
    ),
  updatePeople: (fx) =>
    fc.tuple(pick(fx.m.ids.people), some(personBody(fx))).map(([id, body]) => ({
      method: 'POST' as const,
      path: `/v2/people/${id}`,
      body,
    })),
  mergePeople: () =>
    fc.constant({
      method: 'POST',
      path: '/v2/people/§new:people§/merge',
      body: { mergedId: '§new:people§' },
    }),
  listPeopleActivities: (fx) => GET('/v2/people/activity', activities('peopleId', fx.m.ids.people)),
  listPeopleHistory: (fx) =>
    GET('/v2/people/history', query({ limit: limit(), peopleId: pick(fx.m.ids.people) })),

  listOrganizations: (fx) => GET('/v2/organization', listRecords(fx, 'organization')),
  getOrganization: (fx) =>
    getEach(
      fx.m.ids.organization,
      (id) => `/v2/organization/${id}`,
      query({ fieldList: fieldListQuery(fx, 'organization') }),
    ),
  createOrganization: () =>
    POST(
      '/v2/organization',
      some(organizationBody()).map((b) => ({ name: `회사 §uniq§`, ...b })),
    ),
  updateOrganization: (fx) =>
    fc.tuple(pick(fx.m.ids.organization), some(organizationBody())).map(([id, body]) => ({
      method: 'POST' as const,
      path: `/v2/organization/${id}`,
      body,
    })),
  mergeOrganization: () =>
    fc.constant({
      method: 'POST',
      path: '/v2/organization/§new:organization§/merge',
      body: { mergedId: '§new:organization§' },
    }),
  listOrganizationActivities: (fx) =>
    GET('/v2/organization/activity', activities('organizationId', fx.m.ids.organization)),
  listOrganizationHistory: (fx) =>
    GET(
      '/v2/organization/history',
      query({ limit: limit(), organizationId: pick(fx.m.ids.organization) }),
    ),

  listDeals: (fx) =>
    fc
      .tuple(
        listRecords(fx, 'deal'),
        fc.option(pick(fx.m.dealPipelines), { freq: 2 }),
        fc.nat(),
        fc.nat(2),
      )
      .map(([q, pipe, n, how]): Req => {
        const extra: [string, string][] = [];
        if (pipe && how !== 1) extra.push(['pipelineName', pipe.name]);
        if (pipe && how !== 2 && pipe.stages.length > 0)
          extra.push(['pipelineStageName', pipe.stages[n % pipe.stages.length]!]);
        return { method: 'GET', path: '/v2/deal', query: [...q, ...extra] };
      }),
  getDeal: (fx) => getEach(fx.m.ids.deal, (id) => `/v2/deal/${id}`),
  createDeal: (fx) => {
    const b = dealBody(fx);
    const { name: n, pipelineId, pipelineStageId, status, ...rest } = b;
    return fc
      .tuple(
        fc.record({ name: n, pipelineId, pipelineStageId, status, peopleId: rest.peopleId }),
        some(rest),
      )
      .map(([required, optional]) => ({
        method: 'POST' as const,
        path: '/v2/deal',
        body: { ...required, ...optional },
      }));
  },
  updateDeal: (fx) => {
    const { pipelineId, pipelineStageId, ...rest } = dealBody(fx);
    return fc
      .tuple(
        pick(fx.m.ids.deal),
        some(rest),
        fc.option(fc.record({ pipelineId, pipelineStageId }), { nil: {} }),
      )
      .map(([id, body, pipe]) => ({
        method: 'POST' as const,
        path: `/v2/deal/${id}`,
        body: { ...body, ...pipe },
      }));
  },
  deleteDeal: () => fc.constant({ method: 'POST', path: '/v2/deal/§new:deal§/delete' }),
  mergeDeal: () =>
    fc.constant({
      method: 'POST',
      path: '/v2/deal/§new:deal§/merge',
      body: { mergedId: '§new:deal§' },
    }),
  listDealQuotes: (fx) => getEach(fx.m.ids.deal, (id) => `/v2/deal/${id}/quote`),
  listDealActivities: (fx) => GET('/v2/deal/activity', activities('dealId', fx.m.ids.deal)),
  listDealHistory: (fx) =>
    GET('/v2/deal/history', query({ limit: limit(), dealId: pick(fx.m.ids.deal) })),
  listDealPipelines: () => GET('/v2/deal/pipeline'),

  listLeads: (fx) => GET('/v2/lead', listRecords(fx, 'lead')),
  getLead: (fx) =>
    getEach(
      fx.m.ids.lead,
      (id) => `/v2/lead/${id}`,
      query({ fieldList: fieldListQuery(fx, 'lead') }),
    ),
  createLead: (fx) =>
    fc
      .tuple(some(leadBody(fx)), leadPipeline(fx), name(), pick(fx.m.ids.people))
      .map(([body, pipe, n, person]) => ({
        method: 'POST' as const,
        path: '/v2/lead',
        body: { name: n, peopleId: person, ...body, ...pipe },
      })),
  updateLead: (fx) =>
    fc.tuple(pick(fx.m.ids.lead), some(leadBody(fx)), leadPipeline(fx)).map(([id, body, pipe]) => ({
      method: 'POST' as const,
      path: `/v2/lead/${id}`,
      body: { ...body, ...pipe },
    })),
  deleteLead: () => fc.constant({ method: 'POST', path: '/v2/lead/§new:lead§/delete' }),
  mergeLead: () =>
    fc.constant({
      method: 'POST',
      path: '/v2/lead/§new:lead§/merge',
      body: { mergedId: '§new:lead§' },
    }),
  listLeadQuotes: (fx) => getEach(fx.m.ids.lead, (id) => `/v2/lead/${id}/quote`),
  listLeadActivities: (fx) => GET('/v2/lead/activity', activities('leadId', fx.m.ids.lead)),
  listLeadHistory: (fx) =>
    GET('/v2/lead/history', query({ limit: limit(), leadId: pick(fx.m.ids.lead) })),
  listLeadPipelines: () => GET('/v2/lead/pipeline'),
  listPipelines: () => GET('/v2/pipeline'),
  updateProduct: (fx) =>
    fc
      .tuple(
        pick(fx.m.ids.product),
        fc.record({ name: name(), price: money() }, { requiredKeys: [] }),
      )
      .map(([id, body]) => ({ method: 'POST' as const, path: `/v2/product/${id}`, body })),
  deleteProduct: () =>
    fc.constant({ method: 'POST' as const, path: '/v2/product/§new:product§/delete' }),
  getMeShort: () => GET('/v2/me'),
  listMemoTypes: () => GET('/v2/memo/type-list'),
  listPrimaryAssociations: (fx) =>
    association(fx, ['people', 'organization', 'deal', 'lead', 'memo'], 'primary'),
  listCustomAssociations: (fx) =>
    association(fx, ['people', 'organization', 'deal', 'lead', 'custom-object'], 'custom'),
  listSequences: () => GET('/v2/sequence', query({ limit: limit() })),
  getSequence: (fx) => getEach(fx.m.ids.sequence, (id) => `/v2/sequence/${id}`),
  listSequenceSteps: (fx) =>
    getEach(fx.m.ids.sequence, (id) => `/v2/sequence/${id}/step`, query({ limit: limit() })),
  listSequenceEnrollments: (fx) =>
    getEach(fx.m.ids.sequence, (id) => `/v2/sequence/${id}/enrollment`, query({ limit: limit() })),
  listSequenceEnrollmentTimeline: (fx) =>
    getEach(
      fx.m.ids.enrollment,
      (id) => `/v2/sequence/enrollment/${id}/timeline`,
      query({ limit: limit() }),
    ),
  enrollInSequence: (fx) =>
    pick(fx.m.ids.sequence).map(
      (id): Req => ({
        method: 'POST',
        path: `/v2/sequence/${id}/enrollment`,
        body: { peopleId: '§new:people§' },
      }),
    ),
  deleteSequenceEnrollment: () =>
    fc.constant<Req>({ method: 'POST', path: '/v2/sequence/enrollment/§new:enrollment§/delete' }),

  uploadFile: (fx) =>
    uploadForm(fx).map((form): Req => ({ method: 'POST', path: '/v2/file', form })),
  listFiles: (fx) =>
    fc
      .tuple(
        fc.oneof(
          { weight: 3, arbitrary: fc.constant(['deal', fx.m.seed.deal] as const) },
          pick(fx.m.ids.people).map((id) => ['people', id] as const),
          pick(fx.m.ids.product).map((id) => ['product', id] as const),
        ),
        query({ limit: limit() }),
      )
      .map(
        ([[type, id], q]): Req => ({
          method: 'GET',
          path: '/v2/file',
          query: [['objectType', type], ['objectId', id], ...q],
        }),
      ),
  downloadFile: (fx) => getEach(fx.m.ids.file, (id) => `/v2/file/${id}/content`),
  deleteFile: () => fc.constant({ method: 'POST' as const, path: '/v2/file/§new:file§/delete' }),
  sendEmail: (fx) => {
    const address = fc.record(
      {
        email: fc
          .tuple(
            fc.stringMatching(/^[a-z0-9_+-]{1,10}(\.[a-z0-9_+-]{1,10}){0,2}$/),
            pick(['example.com', 'example.co.kr']),
          )
          .map(([user, domain]) => `${user}@${domain}`),
        name: text(30).filter((s) => !/[\r\n]/.test(s)),
      },
      { requiredKeys: ['email'] },
    );
    return fc
      .record(
        {
          emailProvider: pick(['gmail', 'outlook']),
          toAddressList: fc.array(address, { minLength: 1, maxLength: 3 }),
          ccAddressList: fc.array(address, { maxLength: 2 }),
          bccAddressList: fc.array(address, { maxLength: 2 }),
          subject: text(60).filter((s) => !/[\r\n]/.test(s)),
          htmlBody: text(300).map((t) => `<p>${t}</p>`),
          attachmentIdList: fc.uniqueArray(pick(fx.m.ids.file), { maxLength: 2 }),
        },
        { requiredKeys: ['emailProvider', 'toAddressList', 'subject', 'htmlBody'] },
      )
      .map((body): Req => ({ method: 'POST', path: '/v2/email', body }));
  },
  getEmail: (fx) => getEach(fx.m.ids.email, (id) => `/v2/email/${id}`),

  createRecording: (fx) => {
    const speakerIds = ['s1', 's2', 's3'];
    const segment = fc
      .tuple(
        fc.integer({ min: 0, max: 3_600_000 }),
        fc.integer({ min: 0, max: 60_000 }),
        text(80),
        pick(speakerIds),
        fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
      )
      .map(([startTime, length, t, speakerId, confidence]) => ({
        startTime,
        endTime: startTime + length,
        text: t,
        speakerId,
        confidence,
      }));
    return fc
      .tuple(
        fc.oneof(
          pick(fx.m.ids.deal).map((id) => ['deal', id] as const),
          pick(fx.m.ids.lead).map((id) => ['lead', id] as const),
          pick(fx.m.ids.people).map((id) => ['people', id] as const),
          pick(fx.m.ids.organization).map((id) => ['organization', id] as const),
          pick(fx.m.ids.customObject).map((id) => ['customObject', id] as const),
        ),
        some({
          source: text(20).filter((s) => s.length > 0),
          coreSummary: fc.option(text(200), { nil: null }),
          transcriptSegmentList: fc.array(segment, { maxLength: 5 }),
        }),
        text(60).filter((s) => /\S/.test(s)),
        fc.double({ min: 0, max: 100_000, noNaN: true }),
      )
      .map(
        ([[objectType, objectId], more, title, duration]): Req => ({
          method: 'POST',
          path: '/v2/recording',
          body: {
            fileId: '§new:file§',
            objectType,
            objectId,
            title,
            duration,
            ...more,
            speakerInfoList: speakerIds.map((speakerId) => ({ speakerId, label: speakerId })),
          },
        }),
      );
  },
  getRecording: (fx) => getEach(fx.m.ids.recording, (id) => `/v2/recording/${id}`),
  getRecordingTranscript: (fx) =>
    getEach(fx.m.ids.recording, (id) => `/v2/recording/${id}/transcript`),
  deleteRecording: () =>
    fc.constant<Req>({ method: 'POST', path: '/v2/recording/§new:recording§/delete' }),

  searchObjects: (fx) =>
    pick(BATCH_TYPES).chain((type) =>
      fc
        .record(
          {
            filterGroupList: fc.array(
              fc.record({
                filters: fc.array(
                  fc.oneof(
                    text(10).map((v) => ({ fieldName: '이름', operator: 'CONTAINS', value: v })),
                    pick(['EXISTS', 'NOT_EXISTS']).map((operator) => ({
                      fieldName: '이름',
                      operator,
                    })),
                    fc
                      .uniqueArray(pick(fx.m.ids[type]), { minLength: 1 })
                      .map((value) => ({ fieldName: 'id', operator: 'IN', value })),
                  ),
                  { minLength: 1, maxLength: 3 },
                ),
              }),
              // A search needs filters, as the live API's does.
              { minLength: 1, maxLength: 3 },
            ),
            sortList: fc.array(
              fc.record({
                fieldName: pick(['이름', '생성 날짜']),
                direction: pick(['asc', 'desc']),
              }),
              { maxLength: 2 },
            ),
            // The search does not know the stage timing keys (docs/api.md: not searched yet).
            fieldList: fc.subarray(
              fx.fields[type]!.filter((f) => !STAGE_KEY.test(f)),
              { maxLength: 5 },
            ),
            limit: fc.integer({ min: 1, max: 100 }),
          },
          { requiredKeys: ['filterGroupList'] },
        )
        .map((body): Req => ({ method: 'POST', path: `/v2/object/${type}/search`, body })),
    ),

  listProducts: (fx) => GET('/v2/product', listRecords(fx, 'product')),
  createProduct: () =>
    fc.tuple(name(), money(), some({ memo: memo() })).map(([n, price, rest]) => ({
      method: 'POST' as const,
      path: '/v2/product',
      body: { name: n, price, ...rest },
    })),
  createQuote: (fx) =>
    fc
      .tuple(
        name(),
        fc.oneof(
          pick(fx.m.ids.deal).map((dealId) => ({ dealId })),
          pick(fx.m.ids.lead).map((leadId) => ({ leadId })),
        ),
        some({
          isMainQuote: fc.boolean(),
          memo: memo(),
          quoteProductList: fc.array(
            fc.record(
              {
                productId: fc.constant(fx.m.ids.product[0]!),
                price: fc.integer({ min: 0, max: 10 ** 8 }),
                amount: fc.integer({ min: 1, max: 1000 }),
              },
              { requiredKeys: ['productId'] },
            ),
            { maxLength: 4 },
          ),
        }),
      )
      .map(([n, subject, rest]) => ({
        method: 'POST' as const,
        path: '/v2/quote',
        body: { name: n, ...subject, ...rest },
      })),

  listUsers: () => GET('/v2/user', query({ limit: limit() })),
  getMe: () => GET('/v2/user/me'),
  listTeams: () => GET('/v2/team', query({ limit: limit() })),
  listTodos: (fx) => GET('/v2/todo', query({ limit: limit(), ownerId: pick(fx.m.ids.user) })),
  createTodo: (fx) =>
    fc
      .tuple(
        pick(['dealId', 'leadId', 'peopleId', 'organizationId'] as const),
        fc.nat(),
        text(100),
        todoFields(),
      )
      .map(([key, n, title, more]) => {
        const ids = fx.m.ids[SUBJECT_KIND[key]];
        return {
          method: 'POST' as const,
          path: '/v2/todo',
          body: {
            [key]: ids[n % ids.length],
            fieldList: [{ name: '내용', stringValue: title }, ...more],
          },
        };
      }),
  updateTodo: (fx) =>
    fc
      .tuple(pick(fx.m.ids.todo), todoFields(), fc.option(text(100), { nil: undefined }))
      .map(([id, more, title]) => ({
        method: 'POST' as const,
        path: `/v2/todo/${id}`,
        body: {
          fieldList: [
            ...(title === undefined ? [] : [{ name: '내용', stringValue: title }]),
            ...more,
          ],
        },
      })),
  deleteTodo: () => fc.constant({ method: 'POST' as const, path: '/v2/todo/§new:todo§/delete' }),
  deleteCustomObject: () =>
    fc.constant({ method: 'POST' as const, path: '/v2/custom-object/§new:customObject§/delete' }),
  addPersonMemo: (fx) => memoOn(fx, 'people'),
  addOrganizationMemo: (fx) => memoOn(fx, 'organization'),
  addDealMemo: (fx) => memoOn(fx, 'deal'),
  addLeadMemo: (fx) => memoOn(fx, 'lead'),
  addCustomObjectMemo: (fx) => memoOn(fx, 'customObject', 'custom-object'),
  addProductMemo: (fx) => memoOn(fx, 'product'),
  addQuoteMemo: (fx) => memoOn(fx, 'quote'),
  addTodoMemo: (fx) => memoOn(fx, 'todo'),
  listMemos: (fx) =>
    fc
      .tuple(
        query({
          limit: limit(),
          startDate: pick(['2024-01-01', '2024-04-08']),
          endDate: pick(['2024-04-08', '2030-12-31']),
        }),
        // One record filter at most, so that some answers have a next page.
        fc.option(
          fc.oneof(
            pick(fx.m.ids.user).map((id) => ['ownerId', id]),
            pick(fx.m.ids.deal).map((id) => ['dealId', id]),
            pick(fx.m.ids.lead).map((id) => ['leadId', id]),
            pick(fx.m.ids.people).map((id) => ['peopleId', id]),
            pick(fx.m.ids.organization).map((id) => ['organizationId', id]),
            pick(fx.m.ids.customObject).map((id) => ['customObjectId', id]),
            pick(MEMO_TYPE_IDS).map((id) => ['typeId', id]),
          ),
        ),
      )
      .map(
        ([q, filter]): Req => ({
          method: 'GET',
          path: '/v2/memo',
          query: filter ? [...q, filter as [string, string]] : q,
        }),
      ),
  getMemo: (fx) => getEach(fx.m.ids.memo, (id) => `/v2/memo/${id}`),
  listWebForms: () => GET('/v2/webForm', query({ limit: limit() })),
  listWebFormSubmissions: (fx) =>
    getEach(fx.m.ids.webForm, (id) => `/v2/webForm/${id}/submit`, query({ limit: limit() })),
  listFields: (fx) =>
    fc.oneof(
      pick(Object.keys(FIELD_TYPE_OF_PATH)).map(
        (t): Req => ({ method: 'GET', path: `/v2/field/${t}` }),
      ),
      GET(
        '/v2/field/custom-object',
        query({ customObjectDefinitionId: pick(fx.m.ids.customObjectDefinition) }),
      ),
    ),

  listCustomObjectDefinitions: () => GET('/v2/custom-object-definitions'),
  listCustomObjects: (fx) =>
    fc
      .tuple(fc.option(pick(fx.m.customObjectDefs)), fc.nat(2), listRecords(fx, 'custom-object'))
      .map(([def, how, q]): Req => {
        const extra: [string, string][] = [];
        if (def && how !== 1) extra.push(['customObjectDefinitionId', def.id]);
        if (def && how !== 2) extra.push(['customObjectDefinitionName', def.name]);
        return { method: 'GET', path: '/v2/custom-object', query: [...q, ...extra] };
      }),
  getCustomObject: (fx) =>
    getEach(
      fx.m.ids.customObject,
      (id) => `/v2/custom-object/${id}`,
      query({ fieldList: fieldListQuery(fx, 'custom-object') }),
    ),
  createCustomObject: (fx) =>
    fc
      .tuple(
        pick(fx.m.customObjectDefs),
        fc.boolean(),
        name(),
        fc.option(money(), { nil: undefined }),
        fc.nat(),
        some({ memo: memo() }),
      )
      .map(
        ([def, byName, n, amount, stage, rest]): Req => ({
          method: 'POST',
          path: '/v2/custom-object',
          body: {
            ...(byName
              ? { customObjectDefinitionName: def.name }
              : { customObjectDefinitionId: def.id }),
            fieldList: [
              { name: '이름', stringValue: n },
              ...(amount === undefined ? [] : [{ name: def.amountField, numberValue: amount }]),
            ],
            ...(def.pipelineId
              ? {
                  pipelineId: def.pipelineId,
                  pipelineStageId: def.stageIds[stage % def.stageIds.length],
                }
              : {}),
            ...rest,
          },
        }),
      ),
  updateCustomObject: (fx) =>
    fc
      .tuple(
        pick(fx.m.ids.customObject),
        some({
          memo: memo(),
          fieldList: fc.subarray([
            { name: '이름', stringValue: '퍼즈 바뀐 이름' },
            { name: `퍼즈 금액`, numberValue: 5 },
          ]),
        }),
      )
      .map(([id, body]): Req => ({ method: 'POST', path: `/v2/custom-object/${id}`, body })),
  listCustomObjectActivities: (fx) =>
    GET('/v2/custom-object/activity', activities('customObjectId', fx.m.ids.customObject)),
  listCustomObjectHistory: (fx) =>
    GET(
      '/v2/custom-object/history',
      query({ limit: limit(), customObjectId: pick(fx.m.ids.customObject) }),
    ),
  createField: (fx) =>
    fc
      .tuple(
        pick(Object.keys(FIELD_TYPE_OF_PATH)),
        pick(CREATABLE_FIELD_TYPES),
        text(40),
        fc.uniqueArray(text(30), { minLength: 2, maxLength: 5 }),
        some({
          description: fc.option(text(200), { nil: null }),
          showInCreateForm: fc.boolean(),
          // Never true: a required field would refuse the later operations' creates.
          required: fc.constant(false),
          isSensitive: fc.boolean(),
          preventDuplicates: fc.boolean(),
        }),
        // One field in four a formula field.
        fc.oneof(
          { arbitrary: fc.constant(undefined), weight: 3 },
          { arbitrary: pick(FORMULAS), weight: 1 },
        ),
      )
      .map(([path, type, fieldName, options, rest, formula]): Req => {
        if (formula) {
          // A formula field: its result type, no options, not required, unique or in the form.
          const { description, isSensitive } = rest;
          const [resultType, text] = formula(OBJECT_OF_PATH[path]);
          const body: Record<string, unknown> = {
            name: `${fieldName}§uniq§`,
            type: resultType,
            formula: text,
            ...(description === undefined ? {} : { description }),
            ...(isSensitive === undefined ? {} : { isSensitive }),
          };
          if (path === 'custom-object')
            body.customObjectDefinitionId =
              fx.m.ids.customObjectDefinition[
                fieldName.length % fx.m.ids.customObjectDefinition.length
              ];
          return { method: 'POST', path: `/v2/field/${path}`, body };
        }
        const body: Record<string, unknown> = { name: `${fieldName}§uniq§`, type, ...rest };
        // The live API's rules: preventDuplicates is for text and numbers and not with
        // isSensitive, select fields need options.
        if (body.preventDuplicates && (!['string', 'number'].includes(type) || body.isSensitive))
          delete body.preventDuplicates;
        if (type === 'singleSelect' || type === 'multiSelect')
          body.options = options.map((value) => ({ value }));
        // Quote products and todos have no file fields: theirs is a text field instead.
        if (type === 'multiAttachment' && (path === 'quote-product' || path === 'todo'))
          body.type = 'string';
        // A custom object's field belongs to one of its definitions.
        if (path === 'custom-object')
          body.customObjectDefinitionId =
            fx.m.ids.customObjectDefinition[
              fieldName.length % fx.m.ids.customObjectDefinition.length
            ];
        return { method: 'POST', path: `/v2/field/${path}`, body };
      }),
  updateField: (fx) =>
    fc
      .tuple(
        pick(fx.m.ownFields),
        some({ name: text(40), description: fc.option(text(200), { nil: null }) }),
        fc.uniqueArray(text(30), { minLength: 1, maxLength: 3 }),
        fc.boolean(),
      )
      .map(([field, rest, options, addOptions]): Req => {
        const body: Record<string, unknown> = { ...rest };
        if (typeof body.name === 'string') body.name = `${body.name}§uniq§`;
        if (field.select && addOptions)
          body.options = options.map((value) => ({ value: `${value}§uniq§` }));
        return { method: 'POST', path: `/v2/field/${field.type}/${field.id}`, body };
      }),
  listEvents: () =>
    GET('/v2/event', query({ limit: limit(), objectType: pick(Object.keys(EVENT_OBJECT_TYPES)) })),

  createWebhook: (fx) =>
    fc.tuple(objectTypeList, some({ eventList, fieldList: hookFields })).map(([types, rest]) => ({
      method: 'POST' as const,
      path: '/v2/webhook',
      body: { url: `${fx.hookUrl}?created`, objectTypeList: types, ...rest },
    })),
  listWebhooks: () => GET('/v2/webhook'),
  getWebhook: (fx) => getEach(fx.m.ids.webhook, (id) => `/v2/webhook/${id}`),
  updateWebhook: (fx) =>
    fc
      .tuple(
        pick(fx.m.ids.webhook),
        some({
          url: fc.constant(`${fx.hookUrl}?updated`),
          objectTypeList,
          eventList,
          fieldList: hookFields,
          status: pick(['active', 'disabled']),
        }),
      )
      .map(([id, body]) => ({ method: 'POST' as const, path: `/v2/webhook/${id}`, body })),
  deleteWebhook: () => fc.constant({ method: 'POST', path: '/v2/webhook/§new:webhook§/delete' }),
  rotateWebhookSecret: (fx) =>
    pick(fx.m.ids.webhook).map(
      (id): Req => ({ method: 'POST', path: `/v2/webhook/${id}/rotate-secret` }),
    ),
  listWebhookDeliveries: (fx) =>
    getEach(
      fx.m.ids.webhook,
      (id) => `/v2/webhook/${id}/delivery`,
      query({ limit: limit(), status: pick(['pending', 'delivered', 'failed']) }),
    ),
  replayWebhookDelivery: (fx) =>
    fc.constant({
      method: 'POST',
      path: `/v2/webhook/${fx.m.ids.webhook[0]}/delivery/${fx.m.ids.delivery[0]}/replay`,
    }),

  batchReadObjects: (fx) =>
    pick([...BATCH_TYPES, 'product', 'customObject'] as const).chain((type) =>
      fc
        .tuple(
          fc.array(pick(fx.m.ids[type]), { minLength: 1, maxLength: 8 }),
          fc.option(
            fc.subarray(
              fx.fields[type === 'customObject' ? 'custom-object' : type]!.filter(
                (f) => type !== 'deal' || !SINGLE_DEAL_KEYS.includes(f),
              ),
              { maxLength: 6 },
            ),
            { nil: undefined },
          ),
          // The live API's name of the type, or ours.
          pick([type, BATCH_READ_TYPE_LABELS[type]]),
        )
        .map(([idList, fieldList, objectType]) => ({
          method: 'POST' as const,
          path: '/v3/object/read',
          body: { objectType, idList, ...(fieldList ? { fieldList } : {}) },
        })),
    ),
  batchCreateObjects: (fx) =>
    pick(BATCH_TYPES).chain((type) =>
      fc.array(name(), { minLength: 1, maxLength: 3 }).map((names) => ({
        method: 'POST' as const,
        path: '/v3/object/create',
        body: {
          objectType: type,
          inputList: names.map((n) => ({
            data: batchData(fx, type, n),
            ...(type === 'deal' || type === 'lead'
              ? { association: { people: fx.m.ids.people[0] } }
              : {}),
          })),
        },
      })),
    ),
  batchUpdateObjects: (fx) =>
    pick(BATCH_TYPES).chain((type) =>
      fc
        .uniqueArray(pick(fx.m.ids[type]), { minLength: 1 })
        .chain((ids) =>
          fc.tuple(
            fc.constant(ids),
            fc.array(name(), { minLength: ids.length, maxLength: ids.length }),
          ),
        )
        .map(([ids, names]) => ({
          method: 'POST' as const,
          path: '/v3/object/update',
          body: {
            objectType: type,
            inputList: ids.map((id, i) => ({
              id,
              data: { 이름: type === 'organization' ? `${names[i]} §uniq§` : names[i] },
            })),
          },
        })),
    ),
  batchListPipelines: () =>
    pick(['deal', 'lead']).map(
      (objectType): Req => ({ method: 'POST', path: '/v3/pipeline/list', body: { objectType } }),
    ),
  batchListAssociations: () =>
    pick([...BATCH_TYPES, 'customObject', '커스텀 오브젝트']).map(
      (objectType): Req => ({ method: 'POST', path: '/v3/association/list', body: { objectType } }),
    ),

  mcp: (fx) =>
    fc
      .tuple(
        fc.oneof(fc.integer({ min: 0, max: 10 ** 6 }), text(20)),
        fc.oneof(
          fc.constant({
            method: 'initialize',
            params: {
              protocolVersion: '2025-06-18',
              capabilities: {},
              clientInfo: { name: 'fuzz', version: '1.0.0' },
            },
          }),
          fc.constant({ method: 'tools/list' }),
          fc.constant({ method: 'ping' }),
          fc
            .record({
              type: pick(['people', 'organization', 'deal', 'lead', 'product']),
              limit: fc.integer({ min: 1, max: 100 }),
            })
            .map((args) => ({
              method: 'tools/call',
              params: { name: 'list_records', arguments: args },
            })),
          pick(['people', 'organization', 'deal', 'lead'] as const).chain((type) =>
            fc.subarray(fx.m.ids[type], { minLength: 1 }).map((ids) => ({
              method: 'tools/call',
              params: { name: 'get_records', arguments: { type, ids } },
            })),
          ),
          text(20).map((needle) => ({
            method: 'tools/call',
            params: {
              name: 'search_records',
              arguments: {
                type: 'people',
                filterGroupList: [
                  { filters: [{ fieldName: '이름', operator: 'CONTAINS', value: needle }] },
                ],
              },
            },
          })),
        ),
      )
      .map(
        ([id, message]): Req => ({
          method: 'POST',
          path: '/mcp',
          body: { jsonrpc: '2.0', id, ...message },
          headers: { accept: 'application/json, text/event-stream' },
        }),
      ),
  health: () => GET('/healthz'),
  readiness: () => GET('/readyz'),
  openapi: () => GET('/openapi.json'),
  docs: () => GET('/docs'),
  docsAsset: () =>
    pick([
      'swagger-ui.css',
      'index.css',
      'swagger-ui-bundle.js',
      'swagger-ui-standalone-preset.js',
      'favicon-32x32.png',
      'favicon-16x16.png',
    ]).map((a): Req => ({ method: 'GET', path: `/docs/${a}` })),
};

/**
 * The records the API returns, as TypeBox schemas with their exact keys in their wire order
 * (spec section 2, ENDPOINTS.md, DECISIONS 1). They feed the OpenAPI document and the
 * client's types; `test/record-schemas.test.ts` checks each one against what the render functions
 * produce, key for key and in order.
 *
 * This module imports nothing at run time but TypeBox and constant lists, so the client can
 * take its types from it (`import type`) without pulling in server code.
 */
import { type Static, type TObject, type TProperties, Type } from '@sinclair/typebox';
import { ACTIVITY_TYPES } from '../domain/activities.ts';
import { DEAL_OUTCOMES } from '../domain/deals.ts';
import { PEOPLE_HISTORY_TYPES } from '../domain/history.ts';
import { PRODUCT_KINDS } from '../domain/quotes.ts';
import { CustomFieldValue, Id, Nullable, OneOf, Ref, Timestamp } from './primitives.ts';

/** A record with the workspace's custom fields after its fixed keys. */
function WithCustomFields<P extends TProperties>(properties: P, description: string) {
  return Type.Object(properties, { additionalProperties: CustomFieldValue, description });
}

/** A record with exactly these keys. */
function Closed<P extends TProperties>(properties: P, description: string) {
  return Type.Object(properties, { additionalProperties: false, description });
}

const text = Type.String();
const optionalText = Nullable(Type.String());
const count = Type.Integer({ minimum: 0 });

// The shared field groups of spec 2.1, in their order.
const dealCounters = {
  '리드 개수': count,
  '딜 개수': count,
  '진행중 딜 개수': count,
  '성사된 딜 개수': count,
  '실패된 딜 개수': count,
};
const noteGroup = {
  '최근 작성된 노트': optionalText,
  '최근 노트 작성일': Nullable(Timestamp),
  '최근 노트 작성자': Nullable(Ref),
};
const webFormGroup = {
  '최근 제출된 웹폼': Nullable(Ref),
  '최근 웹폼 제출 날짜': Nullable(Timestamp),
};
/** SEQUENCE without `등록된 시퀀스 목록`, which closes the fixed keys (DECISIONS 1). */
const sequenceGroup = {
  '최근 등록한 시퀀스': Nullable(Ref),
  '최근 시퀀스 등록일': Nullable(Timestamp),
  '누적 시퀀스 등록수': count,
  '현재 진행중인 시퀀스 여부': Type.Boolean(),
};
const ownership = {
  담당자: Nullable(Ref),
  '생성 날짜': Timestamp,
  팀: Type.Array(Ref),
  '수정 날짜': Timestamp,
};
const todoGroup = {
  '다음 TODO': optionalText,
  '전체 TODO': count,
  '완료 TODO': count,
  '미완료 TODO': count,
};

/** The people record (spec 2.2) of `GET /v2/people` and `GET /v2/people/{peopleId}`. */
export const PeopleRecord = WithCustomFields(
  {
    id: Id,
    organizationId: Nullable(Id),
    이름: text,
    이메일: optionalText,
    전화: optionalText,
    포지션: optionalText,
    '프로필 사진': optionalText,
    링크드인: optionalText,
    ...dealCounters,
    ...noteGroup,
    ...webFormGroup,
    ...sequenceGroup,
    '수신 거부 여부': Type.Boolean(),
    '수신 거부 사유': optionalText,
    ...ownership,
    ...todoGroup,
    '제출된 웹폼 목록': Type.Array(Ref),
    '등록된 시퀀스 목록': Nullable(Type.Array(Ref)),
  },
  'A person (고객), then the workspace’s people custom fields',
);
export type PeopleRecord = Static<typeof PeopleRecord>;

/** The organization record (spec 2.3). */
export const OrganizationRecord = WithCustomFields(
  {
    id: Id,
    이름: text,
    이메일: optionalText,
    전화: optionalText,
    '프로필 사진': optionalText,
    링크드인: optionalText,
    ...dealCounters,
    ...noteGroup,
    ...webFormGroup,
    ...ownership,
    ...todoGroup,
    '제출된 웹폼 목록': Type.Array(Ref),
    '등록된 시퀀스 목록': Type.Array(Ref),
  },
  'An organization (회사), then the workspace’s organization custom fields',
);
export type OrganizationRecord = Static<typeof OrganizationRecord>;

/** The fixed keys shared by deals and leads (spec 2.4). */
const pipelineRecordKeys = {
  id: Id,
  peopleId: Nullable(Id),
  organizationId: Nullable(Id),
  이름: text,
  파이프라인: Nullable(Ref),
  '파이프라인 단계': Nullable(Ref),
  '메인 견적 상품 리스트': Nullable(Type.Array(Ref)),
  금액: Nullable(Type.Number()),
  상태: Type.String({ description: 'The label: the outcome (deals) or `New` (leads) until set' }),
  마감일: Nullable(Timestamp),
  '수주 예정일': Nullable(Timestamp),
  '최근 이메일 오픈일': Nullable(Timestamp),
  소스: text,
  ...noteGroup,
  ...webFormGroup,
  ...sequenceGroup,
  ...ownership,
  ...todoGroup,
  '등록된 시퀀스 목록': Nullable(Type.Array(Ref)),
};

/** The deal record of `GET /v2/deal` (spec 2.4). */
export const DealRecord = WithCustomFields(
  pipelineRecordKeys,
  'A deal (딜), then the workspace’s deal custom fields',
);
export type DealRecord = Static<typeof DealRecord>;

/** The keys `GET /v2/deal/{dealId}` adds after the fixed keys (DECISIONS 1, 5). */
const singleDealExtraKeys = {
  '상담 일수': Type.Integer({ minimum: 0, description: 'Whole days since creation' }),
  '정체 일수': Type.Integer({ minimum: 0, description: 'Whole days in the current stage' }),
  팔로워: Nullable(Type.Array(Ref)),
  참여자: Nullable(Type.Array(Ref)),
};

/** The single-deal record of `GET /v2/deal/{dealId}` (spec 2.4): the list record plus four keys. */
export const SingleDealRecord = WithCustomFields(
  { ...pipelineRecordKeys, ...singleDealExtraKeys },
  'One deal with its day counts, followers and participants, then its custom fields',
);
export type SingleDealRecord = Static<typeof SingleDealRecord>;

/** The lead record (spec 2.4: a lead has the deal's shape). */
export const LeadRecord = WithCustomFields(
  pipelineRecordKeys,
  'A lead (리드), then the workspace’s lead custom fields',
);
export type LeadRecord = Static<typeof LeadRecord>;

/** The product record (spec 2.7). */
export const ProductRecord = WithCustomFields(
  {
    id: Id,
    이름: text,
    코드: optionalText,
    유형: OneOf(PRODUCT_KINDS),
    금액: Type.Number(),
    단위: optionalText,
    ...noteGroup,
    ...ownership,
  },
  'A product (상품), then the workspace’s product custom fields',
);
export type ProductRecord = Static<typeof ProductRecord>;

/** One line of a quote (spec 2.8 quote product). */
export const QuoteProductRecord = WithCustomFields(
  {
    id: Id,
    productId: Id,
    금액: Type.Number(),
    수량: Type.Number(),
    '결제 횟수': Type.Integer({ minimum: 1 }),
    '시작 결제일': Timestamp,
    '마지막 결제일': Timestamp,
    전체금액: Type.Number({ description: '금액 × 수량 × 결제 횟수' }),
  },
  'A line of a quote, then the workspace’s quote-product custom fields',
);
export type QuoteProductRecord = Static<typeof QuoteProductRecord>;

/** The quote record (spec 2.8). */
export const QuoteRecord = WithCustomFields(
  {
    id: Id,
    '메인 견적서 여부': Type.Boolean(),
    이름: text,
    '공유 링크': optionalText,
    '견적 구성 상품': Type.Array(QuoteProductRecord),
    금액: Type.Number({ description: 'Sum of its products’ 전체금액' }),
    ...noteGroup,
    ...ownership,
  },
  'A quote (견적서), then the workspace’s quote custom fields',
);
export type QuoteRecord = Static<typeof QuoteRecord>;

const activityType = OneOf(ACTIVITY_TYPES);
const activityLinks = {
  webFormId: Nullable(Id),
  smsId: Nullable(Id),
  todoId: Nullable(Id),
  memoId: Nullable(Id),
  emailMessageId: Nullable(Id),
};

/** The deal activity record (spec 2.5) of `GET /v2/deal/activity`. */
export const DealActivityRecord = Closed(
  {
    id: Id,
    type: activityType,
    date: Timestamp,
    dealStatus: Nullable(OneOf(DEAL_OUTCOMES)),
    dealId: Id,
    ...activityLinks,
  },
  'An activity of a deal (or of a lead, with the lead id in dealId and dealStatus null)',
);
export type DealActivityRecord = Static<typeof DealActivityRecord>;

/** An activity of a person, organization or lead: `dealId` renamed, no `dealStatus`. */
function subjectActivity<K extends string>(idKey: K, description: string) {
  return Closed(
    {
      id: Id,
      type: activityType,
      date: Timestamp,
      ...({ [idKey]: Id } as { [P in K]: typeof Id }),
      ...activityLinks,
    },
    description,
  );
}

/** The people activity record of `GET /v2/people/activity`. */
export const PeopleActivityRecord = subjectActivity('peopleId', 'An activity of a person');
export type PeopleActivityRecord = Static<typeof PeopleActivityRecord>;
/** The organization activity record of `GET /v2/organization/activity`. */
export const OrganizationActivityRecord = subjectActivity(
  'organizationId',
  'An activity of an organization',
);
export type OrganizationActivityRecord = Static<typeof OrganizationActivityRecord>;
/** The lead activity record of `GET /v2/lead/activity`. */
export const LeadActivityRecord = subjectActivity('leadId', 'An activity of a lead');
export type LeadActivityRecord = Static<typeof LeadActivityRecord>;

const historyType = OneOf(PEOPLE_HISTORY_TYPES);
const historyTail = {
  fieldName: text,
  fieldValue: Nullable(Type.String({ description: 'The new value as text; null when cleared' })),
  ownerId: Nullable(Id),
  createdAt: Timestamp,
};

/** The people history record (spec 2.6) of `GET /v2/people/history`. */
export const PeopleHistoryRecord = Closed(
  {
    id: Id,
    peopleId: Id,
    type: historyType,
    organization: Nullable(Ref),
    ...historyTail,
  },
  'A change of a person',
);
export type PeopleHistoryRecord = Static<typeof PeopleHistoryRecord>;

/** A deal or lead history record: its person and organization at the time as Refs. */
function pipelineHistory<K extends string>(idKey: K, description: string) {
  return Closed(
    {
      id: Id,
      ...({ [idKey]: Id } as { [P in K]: typeof Id }),
      type: historyType,
      people: Nullable(Ref),
      organization: Nullable(Ref),
      ...historyTail,
    },
    description,
  );
}

/** The deal history record of `GET /v2/deal/history`. */
export const DealHistoryRecord = pipelineHistory('dealId', 'A change of a deal');
export type DealHistoryRecord = Static<typeof DealHistoryRecord>;
/** The lead history record of `GET /v2/lead/history`. */
export const LeadHistoryRecord = pipelineHistory('leadId', 'A change of a lead');
export type LeadHistoryRecord = Static<typeof LeadHistoryRecord>;

/** The organization history record of `GET /v2/organization/history`. */
export const OrganizationHistoryRecord = Closed(
  { id: Id, organizationId: Id, type: historyType, ...historyTail },
  'A change of an organization',
);
export type OrganizationHistoryRecord = Static<typeof OrganizationHistoryRecord>;

/** A pipeline of `GET /v2/deal/pipeline` and `GET /v2/lead/pipeline`, stages in order. */
export const PipelineRecord = Closed(
  {
    id: Id,
    name: text,
    pipelineStageList: Type.Array(
      Closed(
        { id: Id, name: text, index: Type.Integer({ minimum: 0 }) },
        'A stage; index counts from 0 in stage order',
      ),
    ),
  },
  'A pipeline with its stages',
);
export type PipelineRecord = Static<typeof PipelineRecord>;

/** A user of `GET /v2/user`. */
export const UserRecord = Closed(
  {
    id: Id,
    name: text,
    status: text,
    email: text,
    role: text,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  'A user of the workspace',
);
export type UserRecord = Static<typeof UserRecord>;

/** The token's user of `GET /v2/user/me`; `room` is the workspace. */
export const MeRecord = Closed(
  {
    id: Id,
    name: text,
    status: text,
    createdAt: Timestamp,
    updatedAt: Timestamp,
    room: Closed({ id: Id, name: text }, 'The workspace'),
  },
  'The user the token belongs to',
);
export type MeRecord = Static<typeof MeRecord>;

/** A team of `GET /v2/team`, members as user Refs. */
export const TeamRecord = Closed(
  { id: Id, name: text, description: optionalText, teammateList: Type.Array(Ref) },
  'A team and its members',
);
export type TeamRecord = Static<typeof TeamRecord>;

/** The ids of the record a todo or note is attached to: one set, the others null. */
const subjectIdKeys = {
  dealId: Nullable(Id),
  leadId: Nullable(Id),
  peopleId: Nullable(Id),
  organizationId: Nullable(Id),
};

/** A todo of `GET /v2/todo`. */
export const TodoRecord = WithCustomFields(
  {
    id: Id,
    ...subjectIdKeys,
    내용: text,
    유형: text,
    '시작 날짜': Nullable(Timestamp),
    '마지막 날짜': Nullable(Timestamp),
    완료: Type.Boolean(),
    '완료 날짜': Nullable(Timestamp),
    담당자: Nullable(Ref),
    팀: Type.Array(Ref),
    '생성 날짜': Timestamp,
    '수정 날짜': Timestamp,
  },
  'A todo, then the workspace’s todo custom fields',
);
export type TodoRecord = Static<typeof TodoRecord>;

/** A note of `GET /v2/memo` and `GET /v2/memo/{memoId}`. */
export const MemoRecord = Closed(
  {
    id: Id,
    text,
    ...subjectIdKeys,
    ownerId: Nullable(Id),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  'A note (memo); all subject ids are null for a note on a product or quote',
);
export type MemoRecord = Static<typeof MemoRecord>;

/** A web form of `GET /v2/webForm`. */
export const WebFormRecord = Closed(
  {
    id: Id,
    name: text,
    description: optionalText,
    status: text,
    viewCount: count,
    submitCount: count,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  'A web form',
);
export type WebFormRecord = Static<typeof WebFormRecord>;

/** A submission of `GET /v2/webForm/{webFormId}/submit`. */
export const WebFormSubmitRecord = Closed(
  {
    peopleId: Nullable(Id),
    organizationId: Nullable(Id),
    dealId: Nullable(Id),
    leadId: Nullable(Id),
    contents: Type.Array(Closed({ label: text, value: Type.Unknown() }, 'One answer of the form')),
    createdAt: Timestamp,
  },
  'A web-form submission',
);
export type WebFormSubmitRecord = Static<typeof WebFormSubmitRecord>;

/** A field of `GET /v2/field/{type}`, built-in or custom; `optionList` only on select fields. */
export const FieldRecord = Closed(
  {
    id: text,
    name: text,
    type: text,
    required: Type.Boolean(),
    optionList: Type.Optional(
      Type.Array(Closed({ id: text, value: text }, 'An option of a select field')),
    ),
  },
  'A field of a record type',
);
export type FieldRecord = Static<typeof FieldRecord>;

/**
 * Every record schema by the name it takes in the OpenAPI document's components (and in the
 * client's types).
 */
export const RECORD_SCHEMAS = {
  People: PeopleRecord,
  Organization: OrganizationRecord,
  Deal: DealRecord,
  SingleDeal: SingleDealRecord,
  Lead: LeadRecord,
  Product: ProductRecord,
  Quote: QuoteRecord,
  QuoteProduct: QuoteProductRecord,
  DealActivity: DealActivityRecord,
  PeopleActivity: PeopleActivityRecord,
  OrganizationActivity: OrganizationActivityRecord,
  LeadActivity: LeadActivityRecord,
  PeopleHistory: PeopleHistoryRecord,
  DealHistory: DealHistoryRecord,
  LeadHistory: LeadHistoryRecord,
  OrganizationHistory: OrganizationHistoryRecord,
  Pipeline: PipelineRecord,
  User: UserRecord,
  Me: MeRecord,
  Team: TeamRecord,
  Todo: TodoRecord,
  Memo: MemoRecord,
  WebForm: WebFormRecord,
  WebFormSubmit: WebFormSubmitRecord,
  Field: FieldRecord,
} as const satisfies Record<string, TObject>;
export type RecordName = keyof typeof RECORD_SCHEMAS;

/** The fixed keys of a record schema, in wire order. */
export function keysOf(schema: TObject): string[] {
  return Object.keys(schema.properties);
}

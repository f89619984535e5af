/**
 * The deal and lead records (docs/decisions.md, Record keys: a lead has the deal's shape), the
 * single-deal record with its four extra keys, and the pipelines deals and leads move through.
 * `test/record-schemas.test.ts` checks them against the render functions.
 */
import { type Static, Type } from '@sinclair/typebox';
import { Id, Nullable, Ref, Timestamp } from '../primitives.ts';
import { Closed, text, WithCustomFields } from './common.ts';
import { noteGroup, ownership, sequenceGroup, todoGroup, webFormGroup } from './field-groups.ts';

/** The fixed keys shared by deals and leads (docs/decisions.md, Record keys). */
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

/** The deal record of `GET /v2/deal` (docs/decisions.md, Record keys). */
export const DealRecord = WithCustomFields(
  pipelineRecordKeys,
  'A deal (딜), then the stage timing keys of every stage of every deal pipeline (`<stage>(<pipeline>)로 진입한 날짜`: last entry, `…에서 보낸 누적 시간`: milliseconds of the finished stays, `…에서 퇴장한 날짜`: last exit, null while in the stage; all null for a stage the record has not been in), then the workspace’s deal custom fields',
);
export type DealRecord = Static<typeof DealRecord>;

/**
 * The keys `GET /v2/deal/{dealId}` adds after the fixed keys (docs/decisions.md, Record keys and
 * Derived fields).
 */
const singleDealExtraKeys = {
  '상담 일수': Type.Integer({ minimum: 0, description: 'Whole days since creation' }),
  '정체 일수': Type.Integer({ minimum: 0, description: 'Whole days in the current stage' }),
  팔로워: Nullable(Type.Array(Ref)),
  참여자: Nullable(Type.Array(Ref)),
};

/**
 * The single-deal record of `GET /v2/deal/{dealId}` (docs/decisions.md, Record keys): the list
 * record plus four keys.
 */
export const SingleDealRecord = WithCustomFields(
  { ...pipelineRecordKeys, ...singleDealExtraKeys },
  'One deal with its day counts, followers and participants, then its stage timing keys, then its custom fields',
);
export type SingleDealRecord = Static<typeof SingleDealRecord>;

/** The lead record (docs/decisions.md, Record keys: a lead has the deal's shape). */
export const LeadRecord = WithCustomFields(
  pipelineRecordKeys,
  'A lead (리드), then the stage timing keys of every lead pipeline (as on deals), then the workspace’s lead custom fields',
);
export type LeadRecord = Static<typeof LeadRecord>;

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

/** A pipeline of `GET /v2/pipeline` (deal or lead): ids under `_id`, as the live API has them. */
export const AnyPipelineRecord = Closed(
  {
    _id: Id,
    name: text,
    pipelineStageList: Type.Array(
      Closed(
        { _id: Id, name: text, index: Type.Integer({ minimum: 0 }) },
        'A stage; index counts from 0 in stage order',
      ),
    ),
  },
  'A deal or lead pipeline with its stages, ids under `_id`',
);
export type AnyPipelineRecord = Static<typeof AnyPipelineRecord>;

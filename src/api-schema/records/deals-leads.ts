/**
 * The deal and lead records (docs/decisions.md, Record keys: a lead has the deal's shape), the
 * single-deal record with its four extra keys, all from their declarations
 * (`src/domain/record-types/`), and the pipelines deals and leads move through.
 * `test/record-schemas.test.ts` checks them against the render functions.
 */
import { type Static, Type } from '@sinclair/typebox';
import { DEAL } from '../../domain/record-types/deals.ts';
import { LEAD } from '../../domain/record-types/leads.ts';
import { Id } from '../primitives.ts';
import { Closed, text, WithCustomFields } from './common.ts';
import { declaredProperties, singleRecordProperties } from './declared.ts';

/**
 * The deal record of `GET /v2/deal` (docs/decisions.md, Record keys), as
 * `src/domain/record-types/deals.ts` declares it.
 */
export const DealRecord = WithCustomFields(
  declaredProperties(DEAL),
  'A deal (딜), then the stage timing keys of every stage of every deal pipeline (`<stage>(<pipeline>)로 진입한 날짜`: last entry, `…에서 보낸 누적 시간`: milliseconds of the finished stays, `…에서 퇴장한 날짜`: last exit, null while in the stage; all null for a stage the record has not been in), then the workspace’s deal custom fields',
);
export type DealRecord = Static<typeof DealRecord>;

/**
 * The single-deal record of `GET /v2/deal/{dealId}` (docs/decisions.md, Record keys and Derived
 * fields): the list record plus the four keys its read adds.
 */
export const SingleDealRecord = WithCustomFields(
  singleRecordProperties(DEAL),
  'One deal with its day counts, followers and participants, then its stage timing keys, then its custom fields',
);
export type SingleDealRecord = Static<typeof SingleDealRecord>;

/**
 * The lead record (docs/decisions.md, Record keys: a lead has the deal's shape), as
 * `src/domain/record-types/leads.ts` declares it.
 */
export const LeadRecord = WithCustomFields(
  declaredProperties(LEAD),
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

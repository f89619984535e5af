/**
 * The keys deals and leads share (docs/decisions.md, Record keys: a lead has the deal's shape),
 * declared once for both: `src/domain/record-types/deals.ts` and `leads.ts` give the two keys
 * each writes its own way (`금액`, `상태`) and whether a pipeline is required.
 */
import { type ColumnKey, column, derived, group } from './declaration.ts';

/** `상태`'s description in the record schema. */
export const STATUS_DESCRIPTION = 'The label: the outcome (deals) or `New` (leads) until set';

/** The fixed keys of a deal or lead in wire order, with its own `금액` and `상태`. */
export function pipelineRecordKeys<
  const A extends ColumnKey<'금액'>,
  const S extends ColumnKey<'상태'>,
>(own: { pipelineRequired: boolean; amount: A; status: S }) {
  return [
    column('id', 'id', 'id', 'service'),
    column('peopleId', 'people_id', 'optionalId', 'body', { bodyKey: 'peopleId' }),
    column('organizationId', 'organization_id', 'optionalId', 'body', {
      bodyKey: 'organizationId',
    }),
    column('이름', 'name', 'text', 'body', { bodyKey: 'name', required: true }),
    column('파이프라인', 'pipeline_id', 'optionalRef', 'body', {
      field: 'pipeline',
      bodyKey: 'pipelineId',
      required: own.pipelineRequired,
      refersTo: 'pipeline',
    }),
    column('파이프라인 단계', 'stage_id', 'optionalRef', 'body', {
      field: 'pipelineStage',
      bodyKey: 'pipelineStageId',
      required: own.pipelineRequired,
      refersTo: 'pipelineStage',
    }),
    derived('메인 견적 상품 리스트', 'mainQuoteProducts', 'optionalRefs', 'multiProduct'),
    own.amount,
    own.status,
    column('마감일', 'closed_at', 'optionalTimestamp', 'derived'),
    column('수주 예정일', 'expected_close_at', 'optionalDate', 'fieldList'),
    derived('최근 이메일 오픈일', 'lastEmailOpenAt', 'optionalTimestamp', 'dateTime'),
    column('소스', 'source', 'text', 'service'),
    group('note'),
    group('webForm'),
    group('sequence'),
    group('ownership'),
    group('todo'),
    derived('등록된 시퀀스 목록', 'enrolledSequences', 'optionalRefs', 'multiSequence'),
  ] as const;
}

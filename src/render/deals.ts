import type { Selectable } from 'kysely';
import { fixedKeyCount } from '../domain/field-catalogue.ts';
import { DEAL } from '../domain/record-types/deals.ts';
import type { Ref } from '../domain/records.ts';
import { wholeDays } from '../domain/time.ts';
import type { DealTable } from '../model/tables.ts';
import { type DeclaredFacts, renderDeclared, withSingleRecordKeys } from './declared.ts';

/** What a deal or lead record is rendered from. */
export type PipelineRecordFacts = Pick<
  DeclaredFacts,
  | 'mainQuoteProducts'
  | 'lastEmailOpenAt'
  | 'note'
  | 'submissions'
  | 'enrollments'
  | 'todos'
  | 'stageKeys'
  | 'owner'
  | 'teams'
  | 'customFields'
  | 'nameOf'
>;

/**
 * The deal record (docs/decisions.md, Record keys) as `src/domain/record-types/deals.ts`
 * declares it: `상태` is the label, which follows the outcome until one is set; the stage timing
 * keys close the fixed keys, then the custom fields.
 */
export function renderDeal(
  row: Selectable<DealTable>,
  facts: PipelineRecordFacts,
): Record<string, unknown> {
  return renderDeclared(DEAL, row, facts);
}

/** Number of fixed keys of a list deal record: the single-deal keys go right after them. */
export const DEAL_FIXED_KEY_COUNT = fixedKeyCount(DEAL);

/** The keys only the single deal shows, by name. */
type SingleDealKey = NonNullable<(typeof DEAL)['singleRecordKeys']>[number]['key'];

/**
 * The values of the keys only the single-deal response shows (docs/decisions.md, Record keys),
 * computed at read time, in the order the declaration lists them.
 */
export function singleDealExtras(
  row: Pick<Selectable<DealTable>, 'created_at' | 'closed_at' | 'stage_entered_at'>,
  followers: Ref[],
  participants: Ref[],
  nowIso: string,
): Record<SingleDealKey, unknown> {
  const end = row.closed_at ?? nowIso;
  return {
    '상담 일수': wholeDays(row.created_at, end),
    '정체 일수': wholeDays(row.stage_entered_at ?? row.created_at, end),
    팔로워: followers.length > 0 ? followers : null,
    참여자: participants.length > 0 ? participants : null,
  };
}

/**
 * The single-deal record: the list record with the extra keys inserted after its fixed
 * keys, before the stage timing keys and the custom fields (docs/decisions.md, Record keys).
 */
export function withSingleDealExtras(
  listRecord: Record<string, unknown>,
  extras: Record<SingleDealKey, unknown>,
): Record<string, unknown> {
  return withSingleRecordKeys(DEAL_FIXED_KEY_COUNT, listRecord, extras);
}

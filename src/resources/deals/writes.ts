import type { DealOutcome } from '../../domain/deals.ts';
import { insertRecords, type WorkspaceWrite } from '../../store/write.ts';
import { type OwnedInput, ownedColumns, SOURCE_API } from '../owned.ts';

/** What deals and leads share when they are added. */
export interface NewPipelineRecord extends OwnedInput {
  name: string;
  peopleId?: string | null;
  organizationId?: string | null;
  pipelineId?: string | null;
  stageId?: string | null;
  /** When the record entered its stage; defaults to its creation. */
  stageEnteredAt?: string | null;
  amount?: number | null;
  /** The `상태` label; unset, it follows the outcome (deals) or is `New` (leads). */
  label?: string | null;
  expectedCloseAt?: string | null;
  source?: string;
}

/** A deal to add. */
export interface NewDeal extends NewPipelineRecord {
  outcome?: DealOutcome;
  /** Defaults to the creation time for closed deals. */
  closedAt?: string | null;
  followerIds?: string[];
  participantIds?: string[];
}

/** The columns deals and leads share. */
export async function pipelineRecordColumns(w: WorkspaceWrite, r: NewPipelineRecord) {
  const owned = await ownedColumns(w, r);
  // Object.assign rather than `{ ...owned, ... }`: V8 builds objects spread and then
  // extended that way some ten times slower, which shows in bulk inserts.
  return Object.assign(owned, {
    people_id: r.peopleId ?? null,
    organization_id: r.organizationId ?? null,
    name: r.name,
    pipeline_id: r.pipelineId ?? null,
    stage_id: r.stageId ?? null,
    stage_entered_at: r.stageId ? (r.stageEnteredAt ?? owned.created_at) : null,
    amount: r.amount ?? null,
    label: r.label ?? null,
    closed_at: null as string | null,
    expected_close_at: r.expectedCloseAt ?? null,
    source: r.source ?? SOURCE_API,
  });
}

/** Adds deals; their people and organizations are refreshed too. Returns ids in order. */
export async function insertDeals(w: WorkspaceWrite, deals: NewDeal[]): Promise<string[]> {
  const rows = [];
  for (const d of deals) {
    const base = await pipelineRecordColumns(w, d);
    const outcome = d.outcome ?? 'In progress';
    rows.push(
      Object.assign(base, {
        outcome,
        closed_at: outcome === 'In progress' ? null : (d.closedAt ?? base.created_at),
        follower_ids: JSON.stringify(d.followerIds ?? []),
        participant_ids: JSON.stringify(d.participantIds ?? []),
      }),
    );
  }
  await insertRecords(w, 'deal', rows);
  for (const r of rows)
    w.touched.markCounts('people', r.people_id).markCounts('organization', r.organization_id);
  return rows.map((r) => r.id);
}

/**
 * Sets a deal's outcome: `마감일` is set when it becomes Won or Lost and cleared when it
 * returns to In progress; the counters of its person and organization follow.
 */
export async function setDealOutcome(
  w: WorkspaceWrite,
  dealId: string,
  outcome: DealOutcome,
): Promise<void> {
  const deal = await w.trx
    .selectFrom('deals')
    .select(['outcome', 'closed_at', 'people_id', 'organization_id'])
    .where('workspace_id', '=', w.workspaceId)
    .where('id', '=', dealId)
    .executeTakeFirstOrThrow();
  if (deal.outcome === outcome) return;
  const closedAt =
    outcome === 'In progress' ? null : deal.outcome === 'In progress' ? w.now : deal.closed_at;
  await w.trx
    .updateTable('deals')
    .set({ outcome, closed_at: closedAt, updated_at: w.now })
    .where('workspace_id', '=', w.workspaceId)
    .where('id', '=', dealId)
    .execute();
  w.touched
    .mark('deal', dealId)
    .markCounts('people', deal.people_id)
    .markCounts('organization', deal.organization_id);
}

import { DomainError } from '../../domain/errors.ts';
import type { Written } from '../../domain/records.ts';
import type { WorkspaceWrite } from '../../store/write.ts';
import { updateRow } from '../commands.ts';
import { enterStage } from '../deals/commands.ts';
import { customFieldsOf } from '../fields/field-list.ts';
import { unmarkMainQuotes } from '../quotes/writes.ts';
import { recordHistory } from '../record-history/writes.ts';
import { moveAttached } from './attached.ts';
import { repointCustomRefs } from './custom-refs.ts';
import { fillEmpty } from './fill.ts';
import { mergeEntry, mergePair, pairAgain, removeMerged } from './pair.ts';

const TABLE = { deal: 'deals', lead: 'leads' } as const;
const QUOTE_COLUMN = { deal: 'deal_id', lead: 'lead_id' } as const;

/**
 * Merges the deal or lead `mergedId` into `keptId` and deletes it (docs/decisions.md, Merges). Its
 * quotes (the kept record's main quote stays the only main one), notes, todos, activities,
 * history, enrollments, web-form submissions and, for a deal, the custom Ref values naming
 * it move to the kept record. Empty fields of the kept record (`columns`, custom values, a
 * missing person or organization, a missing pipeline with its stage) take the merged one's.
 * One that an active sequence enrollment holds is refused, as its delete is. The kept
 * record's history gets an `editField` of `병합` valued the merged id, then one entry per
 * field taken, each carrying its links.
 */
export async function mergePipelineRecord(
  w: WorkspaceWrite,
  kind: 'deal' | 'lead',
  actorId: string,
  keptId: string,
  mergedId: string,
  columns: Readonly<Record<string, string>>,
): Promise<Written> {
  const ws = w.workspaceId;
  await mergePair(w, kind, keptId, mergedId);
  await refuseHeld(w, kind, mergedId);
  await moveQuotes(w, kind, mergedId, keptId);
  await moveAttached(w, kind, mergedId, keptId);
  if (kind === 'deal') await repointCustomRefs(w, 'deal', mergedId, keptId);
  const { kept, merged } = await pairAgain(w, kind, keptId, mergedId);
  await removeMerged(w, kind, keptId, mergedId);
  const changes = fillEmpty(kept, merged, columns, await customFieldsOf(w.trx, ws, kind));
  if (!kept.people_id && merged.people_id) {
    changes.link('people_id', merged.people_id as string);
  }
  if (!kept.organization_id && merged.organization_id) {
    changes.link('organization_id', merged.organization_id as string);
  }
  if (!kept.pipeline_id && merged.pipeline_id) {
    changes
      .field('파이프라인', 'pipeline_id', merged.pipeline_id)
      .field('파이프라인 단계', 'stage_id', merged.stage_id);
    enterStage(changes, kept, merged.stage_id as string | null, w.now);
  }
  await updateRow(w, TABLE[kind], keptId, { ...changes.update(w.now), updated_at: w.now });
  const peopleId = (changes.columns.people_id ?? kept.people_id) as string | null;
  const organizationId = (changes.columns.organization_id ?? kept.organization_id) as string | null;
  await recordHistory(
    w,
    [mergeEntry(mergedId), ...changes.changes].map((c) => ({
      subjectType: kind,
      subjectId: keptId,
      type: c.type,
      peopleId,
      organizationId,
      fieldName: c.fieldName,
      fieldValue: c.text,
      ownerId: actorId,
    })),
  );
  w.touched
    .mark(kind, keptId)
    .mark('people', peopleId)
    .mark('organization', organizationId)
    .mark('people', merged.people_id as string | null)
    .mark('organization', merged.organization_id as string | null);
  return { id: keptId, name: String(kept.name), updatedAt: w.now };
}

/** A deal or lead that an active sequence enrollment holds is not merged away (nor deleted). */
async function refuseHeld(w: WorkspaceWrite, kind: 'deal' | 'lead', mergedId: string) {
  const enrolled = await w.trx
    .selectFrom('sequence_enrollments')
    .select('id')
    .where('workspace_id', '=', w.workspaceId)
    .where('subject_type', '=', kind)
    .where('subject_id', '=', mergedId)
    .where('active', '=', 1)
    .executeTakeFirst();
  if (enrolled) {
    throw new DomainError(
      'invalid_body',
      `'mergedId': 진행 중인 시퀀스에 등록된 ${kind === 'deal' ? '딜은' : '리드는'} 병합해 삭제할 수 없습니다: '${mergedId}'`,
    );
  }
}

/**
 * Moves the merged record's quotes to the kept record; when the kept record has a main
 * quote, the merged record's main quote is unmarked, so the kept one has one main quote.
 */
async function moveQuotes(
  w: WorkspaceWrite,
  kind: 'deal' | 'lead',
  mergedId: string,
  keptId: string,
) {
  const column = QUOTE_COLUMN[kind];
  const keptMain = await w.trx
    .selectFrom('quotes')
    .select('id')
    .where('workspace_id', '=', w.workspaceId)
    .where(column, '=', keptId)
    .where('is_main', '=', 1)
    .executeTakeFirst();
  if (keptMain) await unmarkMainQuotes(w, column, [mergedId]);
  await w.trx
    .updateTable('quotes')
    .set({ [column]: keptId })
    .where('workspace_id', '=', w.workspaceId)
    .where(column, '=', mergedId)
    .execute();
}

/**
 * The two records of a merge (docs/decisions.md, Merges): checked before anything is written, read
 * again once what pointed at the merged one points at the kept one, and the merged one removed with
 * the merge's events.
 */
import { DomainError } from '../../domain/errors.ts';
import { isValidId } from '../../domain/ids.ts';
import { TABLE_OF } from '../../store/read-model/rendered-types.ts';
import type { WorkspaceWrite } from '../../store/write.ts';
import { type FieldChange, pathRecord, referencedRecord } from '../commands.ts';
import { insertActivities } from '../deal-activities/writes.ts';

/** The record types that merge. */
export type MergeKind = 'people' | 'organization' | 'deal' | 'lead';

/** A record's row as the store holds it. */
export type Row = Record<string, unknown>;

const LABEL = { people: '고객', organization: '회사', deal: '딜', lead: '리드' } as const;

/** The `fieldName` of the kept record's history entry that records a merge. */
export const MERGE_FIELD = '병합';

/**
 * The kept record (the path's: 404 when it is not in this workspace) and the merged one
 * (`mergedId`: a well-formed id of another record of the same type in this workspace, else
 * 400 naming `mergedId`).
 */
export async function mergePair(
  w: WorkspaceWrite,
  kind: MergeKind,
  keptId: string,
  mergedId: string,
): Promise<{ kept: Row; merged: Row }> {
  const kept = await pathRecord(w, kind, keptId);
  if (!isValidId(mergedId)) {
    throw new DomainError(
      'invalid_body',
      `'mergedId' 형식이 올바르지 않습니다: '${mergedId.slice(0, 100)}'`,
    );
  }
  if (mergedId === keptId) {
    throw new DomainError(
      'invalid_body',
      `'mergedId'가 경로의 id와 같습니다: 서로 다른 두 ${LABEL[kind]}만 병합할 수 있습니다.`,
    );
  }
  const merged = await referencedRecord(w, kind, mergedId, 'mergedId');
  return { kept, merged };
}

/** Both rows as they are now, after the merged record's links moved to the kept one. */
export async function pairAgain(
  w: WorkspaceWrite,
  kind: MergeKind,
  keptId: string,
  mergedId: string,
): Promise<{ kept: Row; merged: Row }> {
  const rows = (await w.trx
    .selectFrom(TABLE_OF[kind] as 'people')
    .selectAll()
    .where('workspace_id', '=', w.workspaceId)
    .where('id', 'in', [keptId, mergedId])
    .execute()) as Row[];
  const byId = new Map(rows.map((r) => [r.id as string, r]));
  return { kept: byId.get(keptId)!, merged: byId.get(mergedId)! };
}

/**
 * Deletes the merged record's row, and logs `병합` on the kept record and `삭제` on the
 * merged one: one `eventId`, the write's. The kept record's activity list gets a `merge`
 * activity, as the live API's lists show one (a deal's with its outcome now).
 */
export async function removeMerged(
  w: WorkspaceWrite,
  kind: MergeKind,
  keptId: string,
  mergedId: string,
): Promise<void> {
  await w.trx
    .deleteFrom(TABLE_OF[kind])
    .where('workspace_id', '=', w.workspaceId)
    .where('id', '=', mergedId)
    .execute();
  w.events.merged(kind, keptId);
  w.events.deleted(kind, mergedId);
  await insertActivities(w, [{ subjectType: kind, subjectId: keptId, type: 'merge' }]);
}

/** The kept record's history entry of the merge: `editField` of `병합`, valued the merged id. */
export function mergeEntry(mergedId: string): FieldChange {
  return { type: 'editField', fieldName: MERGE_FIELD, text: mergedId };
}

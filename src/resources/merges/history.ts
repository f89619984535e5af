import type { HistorySubject, RecordHistoryType } from '../../render/record-history.ts';
import { CHUNK, columnById } from '../../store/by-id.ts';
import type { WorkspaceWrite } from '../../store/write.ts';
import { peopleHistoryRow } from '../people-history/writes.ts';
import { recordHistoryRow } from '../record-history/writes.ts';
import type { MergeKind } from './pair.ts';

/**
 * The connection field of each record type a history row can link (docs/decisions.md, Activities
 * and history).
 */
const LINK = {
  people: { column: 'people_id', fieldName: 'peopleId' },
  organization: { column: 'organization_id', fieldName: 'organizationId' },
} as const;

/**
 * Moves history to the kept record: the merged record's own rows, and for a person or an
 * organization the rows that link it (a deal's or lead's `people`/`organization`, a
 * person's organization change) with the connection value they recorded. Each moved row's
 * stored JSON is rendered again, its Refs naming the kept record.
 */
export async function moveHistory(
  w: WorkspaceWrite,
  kind: MergeKind,
  mergedId: string,
  keptId: string,
): Promise<void> {
  const ws = w.workspaceId;
  const link = kind === 'people' || kind === 'organization' ? LINK[kind] : undefined;
  const rows = await w.trx
    .selectFrom('history')
    .select('id')
    .where('workspace_id', '=', ws)
    .where((eb) => {
      const own = eb.and([eb('subject_type', '=', kind), eb('subject_id', '=', mergedId)]);
      if (!link) return own;
      return eb.or([
        own,
        eb(link.column, '=', mergedId),
        eb.and([eb('field_name', '=', link.fieldName), eb('field_value', '=', mergedId)]),
      ]);
    })
    .execute();
  if (rows.length === 0) return;
  await w.trx
    .updateTable('history')
    .set({ subject_id: keptId })
    .where('workspace_id', '=', ws)
    .where('subject_type', '=', kind)
    .where('subject_id', '=', mergedId)
    .execute();
  if (link) {
    await w.trx
      .updateTable('history')
      .set({ [link.column]: keptId })
      .where('workspace_id', '=', ws)
      .where(link.column, '=', mergedId)
      .execute();
    await w.trx
      .updateTable('history')
      .set({ field_value: keptId })
      .where('workspace_id', '=', ws)
      .where('field_name', '=', link.fieldName)
      .where('field_value', '=', mergedId)
      .execute();
  }
  const ids = rows.map((r) => r.id);
  for (let i = 0; i < ids.length; i += CHUNK) await renderAgain(w, ids.slice(i, i + CHUNK));
}

/** Renders the stored JSON of history rows again from what they hold now. */
async function renderAgain(w: WorkspaceWrite, ids: string[]): Promise<void> {
  const rows = await w.trx
    .selectFrom('history')
    .selectAll()
    .where('workspace_id', '=', w.workspaceId)
    .where('id', 'in', ids)
    .execute();
  const peopleNames = await columnById<string>(
    w.trx,
    'people',
    w.workspaceId,
    rows.flatMap((r) => (r.people_id ? [r.people_id] : [])),
    'name',
  );
  const orgNames = await columnById<string>(
    w.trx,
    'organizations',
    w.workspaceId,
    rows.flatMap((r) => (r.organization_id ? [r.organization_id] : [])),
    'name',
  );
  const orgName = (id: string | null) => (id ? (orgNames.get(id) ?? '') : '');
  for (const row of rows) {
    const change = {
      id: row.id,
      type: row.type as RecordHistoryType,
      organizationId: row.organization_id,
      fieldName: row.field_name,
      fieldValue: row.field_value,
      ownerId: row.owner_id,
      createdAt: row.created_at,
    };
    const rendered =
      row.subject_type === 'people'
        ? peopleHistoryRow(w, { ...change, peopleId: row.subject_id }, orgName(row.organization_id))
        : recordHistoryRow(
            w,
            {
              ...change,
              subjectType: row.subject_type as HistorySubject,
              subjectId: row.subject_id,
              peopleId: row.people_id,
            },
            row.people_id ? (peopleNames.get(row.people_id) ?? '') : '',
            orgName(row.organization_id),
          );
    await w.trx
      .updateTable('history')
      .set({ body: rendered.body })
      .where('workspace_id', '=', w.workspaceId)
      .where('id', '=', row.id)
      .execute();
  }
}

import { newId } from '../../domain/ids.ts';
import type { Body } from '../../model/tables.ts';
import {
  type HistorySubject,
  type RecordHistoryType,
  renderRecordHistory,
} from '../../render/record-history.ts';
import { columnById } from '../../store/by-id.ts';
import { insertMany } from '../../store/insert.ts';
import type { RowContext, WorkspaceWrite } from '../../store/write.ts';

/** One change of a deal, lead or organization, as a history row. */
export interface RecordChange {
  id?: string;
  subjectType: HistorySubject;
  subjectId: string;
  type: RecordHistoryType;
  /** The deal's or lead's person after the change (ignored for organizations). */
  peopleId?: string | null;
  /** The deal's or lead's organization after the change (ignored for organizations). */
  organizationId?: string | null;
  fieldName: string;
  /** The new value as text; null when cleared. */
  fieldValue: string | null;
  ownerId: string | null;
  createdAt?: string;
}

/**
 * Field edits of one record by `ownerId`, as its history: an `editField` row each, in order.
 */
export function recordFieldEdits(
  w: WorkspaceWrite,
  subjectType: HistorySubject,
  subjectId: string,
  edits: readonly { fieldName: string; text: string | null }[],
  ownerId: string | null,
): Promise<void> {
  return recordHistory(
    w,
    edits.map((c) => ({
      subjectType,
      subjectId,
      type: 'editField' as const,
      fieldName: c.fieldName,
      fieldValue: c.text,
      ownerId,
    })),
  );
}

/** Writes history rows of deals, leads and organizations with their rendered JSON. */
export async function recordHistory(w: WorkspaceWrite, changes: RecordChange[]): Promise<void> {
  if (changes.length === 0) return;
  const linked = (c: RecordChange) => c.subjectType === 'deal' || c.subjectType === 'lead';
  const peopleNames = await columnById<string>(
    w.trx,
    'people',
    w.workspaceId,
    changes.flatMap((c) => (linked(c) && c.peopleId ? [c.peopleId] : [])),
    'name',
  );
  const orgNames = await columnById<string>(
    w.trx,
    'organizations',
    w.workspaceId,
    changes.flatMap((c) => (linked(c) && c.organizationId ? [c.organizationId] : [])),
    'name',
  );
  const rows = changes.map((c) =>
    recordHistoryRow(
      w,
      c,
      c.peopleId ? (peopleNames.get(c.peopleId) ?? '') : '',
      c.organizationId ? (orgNames.get(c.organizationId) ?? '') : '',
    ),
  );
  await insertMany(w.trx, 'history', rows);
}

/**
 * The history row of a deal's, lead's or organization's change with its rendered JSON;
 * `peopleName` and `organizationName` name the deal's or lead's person and organization.
 */
export function recordHistoryRow(
  w: RowContext,
  c: RecordChange,
  peopleName: string,
  organizationName: string,
) {
  const linked = c.subjectType === 'deal' || c.subjectType === 'lead';
  const peopleId = linked ? (c.peopleId ?? null) : null;
  const organizationId = linked ? (c.organizationId ?? null) : null;
  const row = {
    workspace_id: w.workspaceId,
    id: c.id ?? newId(),
    subject_type: c.subjectType,
    subject_id: c.subjectId,
    type: c.type,
    people_id: peopleId,
    organization_id: organizationId,
    field_name: c.fieldName,
    field_value: c.fieldValue,
    owner_id: c.ownerId,
    created_at: c.createdAt ?? w.now,
    body: null as Body | null,
  };
  const refs = {
    people: peopleId ? { id: peopleId, name: peopleName } : null,
    organization: organizationId ? { id: organizationId, name: organizationName } : null,
  };
  row.body = w.store.encodeBody(JSON.stringify(renderRecordHistory(c.subjectType, row, refs)));
  return row;
}

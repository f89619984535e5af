import { newId } from '../../domain/ids.ts';
import type { Body } from '../../model/tables.ts';
import { renderPeopleHistory } from '../../render/people-history.ts';
import { columnById } from '../../store/by-id.ts';
import { insertMany } from '../../store/insert.ts';
import type { RowContext, WorkspaceWrite } from '../../store/write.ts';

/** One change of a person, as a history row (docs/decisions.md, Activities and history). */
export interface PeopleChange {
  id?: string;
  peopleId: string;
  type: 'editField' | 'editPeopleConnection' | 'editOrganizationConnect';
  /** For `editOrganizationConnect`: the new organization (null when unlinked). */
  organizationId?: string | null;
  fieldName: string;
  fieldValue: string | null;
  ownerId: string | null;
  createdAt?: string;
}

/** Writes history rows with their rendered JSON (the organization Ref as it is now). */
export async function recordPeopleHistory(
  w: WorkspaceWrite,
  changes: PeopleChange[],
): Promise<void> {
  const orgNames = await columnById<string>(
    w.trx,
    'organizations',
    w.workspaceId,
    changes.flatMap((c) => (c.organizationId ? [c.organizationId] : [])),
    'name',
  );
  const rows = changes.map((c) =>
    peopleHistoryRow(w, c, c.organizationId ? (orgNames.get(c.organizationId) ?? '') : ''),
  );
  await insertMany(w.trx, 'history', rows);
}

/** The history row of a person's change with its rendered JSON; `organizationName` names its organization. */
export function peopleHistoryRow(w: RowContext, c: PeopleChange, organizationName: string) {
  const row = {
    workspace_id: w.workspaceId,
    id: c.id ?? newId(),
    subject_type: 'people',
    subject_id: c.peopleId,
    type: c.type,
    people_id: c.peopleId,
    organization_id: c.organizationId ?? null,
    field_name: c.fieldName,
    field_value: c.fieldValue,
    owner_id: c.ownerId,
    created_at: c.createdAt ?? w.now,
    body: null as Body | null,
  };
  const org = row.organization_id ? { id: row.organization_id, name: organizationName } : null;
  row.body = w.store.encodeBody(JSON.stringify(renderPeopleHistory(row, org)));
  return row;
}

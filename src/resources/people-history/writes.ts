import { newId } from '../../domain/ids.ts';
import type { Body } from '../../store/schema.ts';
import type { WorkspaceWrite } from '../../store/write.ts';
import { insertMany } from '../../store/write.ts';
import { renderPeopleHistory } from './render.ts';

/** One change of a person, as a history row (DECISIONS 6). */
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
  const orgIds = [
    ...new Set(changes.map((c) => c.organizationId).filter((id): id is string => !!id)),
  ];
  const orgNames = new Map<string, string>();
  for (let i = 0; i < orgIds.length; i += 500) {
    const rows = await w.trx
      .selectFrom('organizations')
      .select(['id', 'name'])
      .where('workspace_id', '=', w.workspaceId)
      .where('id', 'in', orgIds.slice(i, i + 500))
      .execute();
    for (const r of rows) orgNames.set(r.id, r.name);
  }
  const rows = changes.map((c) => {
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
    const org = row.organization_id
      ? { id: row.organization_id, name: orgNames.get(row.organization_id) ?? '' }
      : null;
    row.body = w.store.encodeBody(JSON.stringify(renderPeopleHistory(row, org)));
    return row;
  });
  await insertMany(w.trx, 'history', rows);
}

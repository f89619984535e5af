/**
 * History lines as rows: their JSON names the person and organization of each change, from
 * the file or, for the workspace's own, from the database.
 */
import type { RecordHistoryType } from '../render/record-history.ts';
import { type PeopleChange, peopleHistoryRow } from '../resources/people-history/writes.ts';
import { type RecordChange, recordHistoryRow } from '../resources/record-history/writes.ts';
import { columnById } from '../store/by-id.ts';
import type { RowContext, WorkspaceWrite } from '../store/write.ts';
import type { ImportFacts } from './import-facts.ts';

/**
 * Renders history lines into their rows, each given to `add`, in line order: their JSON names
 * the person and organization of the change, from the file (`fileNames`) or, for the
 * workspace's own, from the database.
 */
export async function renderHistoryLines(
  w: WorkspaceWrite,
  rows: RowContext,
  fileNames: ImportFacts['names'],
  lines: Record<string, unknown>[],
  add: (row: Record<string, unknown>) => void,
): Promise<void> {
  const { people, organization } = fileNames;
  const missingPeople = new Set<string>();
  const missingOrgs = new Set<string>();
  for (const r of lines) {
    const linked = r.subject_type !== 'organization';
    const person = r.people_id as string | null;
    const org = r.organization_id as string | null;
    if (linked && person !== null && r.subject_type !== 'people' && !people.has(person)) {
      missingPeople.add(person);
    }
    if (linked && org !== null && !organization.has(org)) missingOrgs.add(org);
  }
  const { trx, workspaceId } = w;
  const peopleNames = await columnById<string>(trx, 'people', workspaceId, missingPeople, 'name');
  const orgNames = await columnById<string>(trx, 'organizations', workspaceId, missingOrgs, 'name');
  const nameOf = (names: Map<string, string>, read: Map<string, string>, id: unknown) =>
    id === null ? '' : (names.get(id as string) ?? read.get(id as string) ?? '');
  for (const r of lines) {
    const change = {
      id: r.id as string,
      fieldName: r.field_name as string,
      fieldValue: r.field_value as string | null,
      ownerId: r.owner_id as string | null,
      createdAt: r.created_at as string,
      organizationId: r.organization_id as string | null,
    };
    const row =
      r.subject_type === 'people'
        ? peopleHistoryRow(
            rows,
            { ...change, peopleId: r.subject_id as string, type: r.kind as PeopleChange['type'] },
            nameOf(organization, orgNames, r.organization_id),
          )
        : recordHistoryRow(
            rows,
            {
              ...change,
              subjectType: r.subject_type as RecordChange['subjectType'],
              subjectId: r.subject_id as string,
              type: r.kind as RecordHistoryType,
              peopleId: r.people_id as string | null,
            },
            nameOf(people, peopleNames, r.people_id),
            nameOf(organization, orgNames, r.organization_id),
          );
    add(row);
  }
}

import type { Selectable } from 'kysely';
import type { Ref } from '../domain/records.ts';
import type { HistoryTable } from '../model/tables.ts';

/**
 * The people history record (docs/decisions.md, Record keys); `organization` is a Ref only for
 * organization changes.
 */
export function renderPeopleHistory(
  row: Selectable<HistoryTable>,
  organization: Ref | null,
): Record<string, unknown> {
  return {
    id: row.id,
    peopleId: row.subject_id,
    type: row.type,
    organization: row.type === 'editOrganizationConnect' ? organization : null,
    fieldName: row.field_name,
    fieldValue: row.field_value,
    ownerId: row.owner_id,
    createdAt: row.created_at,
  };
}

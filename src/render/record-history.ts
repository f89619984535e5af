import type { Selectable } from 'kysely';
import type { Ref } from '../domain/records.ts';
import type { HistoryTable } from '../model/tables.ts';

/**
 * Record types with a history of their own besides people (docs/decisions.md, Reads and writes).
 */
export type HistorySubject = 'deal' | 'lead' | 'organization' | 'customObject';

/**
 * History `type`s of deals, leads and organizations: those of people (docs/decisions.md, Activities
 * and history).
 */
export const RECORD_HISTORY_TYPES = [
  'editField',
  'editPeopleConnection',
  'editOrganizationConnect',
] as const;
export type RecordHistoryType = (typeof RECORD_HISTORY_TYPES)[number];

/** The refs a deal or lead history row carries: the record's person and organization then. */
export interface HistoryRefs {
  people: Ref | null;
  organization: Ref | null;
}

/**
 * A history record of a deal or lead (`id`, `dealId`/`leadId`, `type`, `people`,
 * `organization`, `fieldName`, `fieldValue`, `ownerId`, `createdAt`) or of an organization
 * or custom object (`id`, `organizationId` or `customObjectId`, `type`, `fieldName`,
 * `fieldValue`, `ownerId`, `createdAt`).
 */
export function renderRecordHistory(
  subject: HistorySubject,
  row: Selectable<HistoryTable>,
  refs: HistoryRefs,
): Record<string, unknown> {
  if (subject === 'organization' || subject === 'customObject') {
    return {
      id: row.id,
      [subject === 'organization' ? 'organizationId' : 'customObjectId']: row.subject_id,
      type: row.type,
      fieldName: row.field_name,
      fieldValue: row.field_value,
      ownerId: row.owner_id,
      createdAt: row.created_at,
    };
  }
  return {
    id: row.id,
    [subject === 'deal' ? 'dealId' : 'leadId']: row.subject_id,
    type: row.type,
    people: refs.people,
    organization: refs.organization,
    fieldName: row.field_name,
    fieldValue: row.field_value,
    ownerId: row.owner_id,
    createdAt: row.created_at,
  };
}

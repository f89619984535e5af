/** The four id keys that say which record a todo, note or submission belongs to. */
export interface SubjectIds {
  dealId: string | null;
  leadId: string | null;
  peopleId: string | null;
  organizationId: string | null;
}

/** Record types with a subject id key, and the key of each. */
export const SUBJECT_ID_KEYS = {
  deal: 'dealId',
  lead: 'leadId',
  people: 'peopleId',
  organization: 'organizationId',
} as const satisfies Record<string, keyof SubjectIds>;

/**
 * The id keys of a polymorphic record's subject, in the API's order (`dealId`, `leadId`,
 * `peopleId`, `organizationId`): the subject's id under its key, the others null (all null
 * for a subject type without a key, such as a product).
 */
export function subjectIds(subjectType: string, subjectId: string): SubjectIds {
  const ids: SubjectIds = { dealId: null, leadId: null, peopleId: null, organizationId: null };
  const key = (SUBJECT_ID_KEYS as Record<string, keyof SubjectIds>)[subjectType];
  if (key) ids[key] = subjectId;
  return ids;
}

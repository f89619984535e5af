/** People history `type`s (DECISIONS 6). */
export const PEOPLE_HISTORY_TYPES = [
  'editField',
  'editPeopleConnection',
  'editOrganizationConnect',
] as const;

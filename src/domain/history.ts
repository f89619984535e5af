/** People history `type`s (docs/decisions.md, Activities and history). */
export const PEOPLE_HISTORY_TYPES = [
  'editField',
  'editPeopleConnection',
  'editOrganizationConnect',
] as const;

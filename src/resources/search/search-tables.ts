/** The record types a search reads, and the table of each. */
export const SEARCH_TABLES = {
  people: 'people',
  organization: 'organizations',
  deal: 'deals',
  lead: 'leads',
} as const;
export type SearchType = keyof typeof SEARCH_TABLES;

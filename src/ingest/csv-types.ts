/**
 * The record types a CSV file can hold: apart from `import-csv.ts`, so that `salescrm import`
 * declares its `--type` choices without loading the importer.
 */
export const CSV_TYPES = ['people', 'organization', 'deal', 'lead'] as const;
export type CsvType = (typeof CSV_TYPES)[number];

import type { Kysely } from 'kysely';
import { fillUniqueKeys } from './004-unique-keys.ts';

/**
 * Unique keys of people and organizations that imports wrote without them (imports before
 * this version did): without a key, the API's writes did not see them as duplicates.
 */
export const importedUniqueKeys = {
  async up(db: Kysely<unknown>): Promise<void> {
    await fillUniqueKeys(db);
  },
  async down(): Promise<void> {},
};

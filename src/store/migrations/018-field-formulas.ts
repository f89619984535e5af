import type { Kysely } from 'kysely';

/**
 * A custom field's formula (`POST /v2/field/{type}` with `formula`): its text as the client
 * wrote it, references by field name; null for the fields whose values are written.
 */
export const fieldFormulas = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('custom_fields').addColumn('formula', 'text').execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('custom_fields').dropColumn('formula').execute();
  },
};

import type { Kysely } from 'kysely';

/**
 * The settings a field gets through `POST /v2/field/{type}` (docs/decisions.md, Custom fields): its
 * description, whether the create form shows it, whether its values are sensitive, and
 * whether a value may be held by one record only. Fields defined before keep the defaults.
 */
export const fieldSettings = {
  async up(db: Kysely<unknown>): Promise<void> {
    const alter = () => db.schema.alterTable('custom_fields');
    await alter().addColumn('description', 'text').execute();
    await alter()
      .addColumn('show_in_create_form', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await alter()
      .addColumn('is_sensitive', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await alter()
      .addColumn('prevent_duplicates', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    for (const column of [
      'description',
      'show_in_create_form',
      'is_sensitive',
      'prevent_duplicates',
    ])
      await db.schema.alterTable('custom_fields').dropColumn(column).execute();
  },
};

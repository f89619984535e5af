import { type Kysely, sql } from 'kysely';

/**
 * Keys of the values that are unique in a workspace: a person's e-mail and an
 * organization's name, compared as `uniqueKey` makes them (Unicode case and spacing
 * aside), with an index each, so each create or update looks the key up in one probe.
 * Rows that exist already get their keys here.
 */
export const uniqueKeys = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('people').addColumn('email_key', 'text').execute();
    await db.schema.alterTable('organizations').addColumn('name_key', 'text').execute();
    await fillUniqueKeys(db);
    await sql`create index people_email_key on people (workspace_id, email_key)`.execute(db);
    await sql`create index organizations_name_key on organizations (workspace_id, name_key)`.execute(
      db,
    );
  },
  async down(): Promise<void> {
    throw new Error('the unique keys cannot be rolled back');
  },
};

/**
 * A value's unique key, frozen as this migration made it (`uniqueKey` of
 * `src/domain/field-values.ts` then): keys already stored must keep meaning what they did.
 */
function uniqueKey(value: string): string {
  return value.normalize('NFKC').trim().replace(/\s+/gu, ' ').toLowerCase();
}

/**
 * Sets the unique key of every row that has the value it is made of and no key yet (all
 * rows, when the columns are new).
 */
export async function fillUniqueKeys(db: Kysely<unknown>): Promise<void> {
  // biome-ignore lint/suspicious/noExplicitAny: the migration sees the tables untyped
  const any = db as Kysely<any>;
  for (const [table, source, key] of [
    ['people', 'email', 'email_key'],
    ['organizations', 'name', 'name_key'],
  ] as const) {
    const rows = await any
      .selectFrom(table)
      .select(['workspace_id', 'id', source])
      .where(source, 'is not', null)
      .where(key, 'is', null)
      .execute();
    for (const row of rows) {
      await any
        .updateTable(table)
        .set({ [key]: uniqueKey(row[source]) })
        .where('workspace_id', '=', row.workspace_id)
        .where('id', '=', row.id)
        .execute();
    }
  }
}

import { type Kysely, sql } from 'kysely';

/**
 * Indexes for search (`POST /v2/object/{type}/search`): an `EQ` or `IN` on a person's name
 * or phone, or on a deal's or lead's name, reads only the rows it names (organizations'
 * names and people's e-mails had theirs already).
 */
const INDEXES = [
  ['people_name', 'people', 'name'],
  ['people_phone', 'people', 'phone'],
  ['deals_name', 'deals', 'name'],
  ['leads_name', 'leads', 'name'],
] as const;

export const searchIndexes = {
  async up(db: Kysely<unknown>): Promise<void> {
    for (const [name, table, column] of INDEXES)
      await sql`create index ${sql.id(name)} on ${sql.id(table)} (workspace_id, ${sql.id(column)})`.execute(
        db,
      );
  },
  async down(db: Kysely<unknown>): Promise<void> {
    for (const [name] of INDEXES) await sql`drop index ${sql.id(name)}`.execute(db);
  },
};

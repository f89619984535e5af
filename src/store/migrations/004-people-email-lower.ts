import { type Kysely, sql } from 'kysely';

/**
 * An index on people's e-mail, case aside: a person's e-mail is unique in its workspace
 * whatever its case, and each create or update looks it up.
 */
export const peopleEmailLower = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`create index people_email_lower on people (workspace_id, lower(email))`.execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await sql`drop index people_email_lower`.execute(db);
  },
};

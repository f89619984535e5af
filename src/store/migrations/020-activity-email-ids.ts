import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './001-initial.ts';

/**
 * The people, organization and lead activity lists name an activity's e-mail also under
 * `emailId`, the live API's key in those lists (`renderSubjectActivity`): it closes the
 * stored record of rows written before. The key is last, so each stored body gets it
 * appended in one UPDATE per column (the JSON of the id made by the database) instead of
 * every row read and rendered again. Rows that have it already (rendered by migration 002
 * in the same run) are left as they are.
 */
export function activityEmailIds(ctx: MigrationContext) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const sqlite = ctx.dialect === 'sqlite';
      const value = sqlite
        ? sql`json_quote(email_message_id)`
        : sql`coalesce(to_json(email_message_id)::text, 'null')`;
      for (const [column, types] of [
        ['lead_body', ['lead']],
        ['body', ['people', 'organization']],
      ] as const) {
        const ref = sql.ref(column);
        const appended = sqlite
          ? sql`cast(substr(${ref}, 1, length(${ref}) - 1) || ',"emailId":' || ${value} || '}' as blob)`
          : sql`left(${ref}, -1) || ',"emailId":' || ${value} || '}'`;
        const text = sqlite ? sql`cast(${ref} as text)` : ref;
        await sql`update activities set ${ref} = ${appended}
          where subject_type in (${sql.join(types.map((t) => sql.lit(t)))})
            and ${ref} is not null and ${text} not like '%"emailId":%'`.execute(db);
      }
    },
    async down(db: Kysely<unknown>): Promise<void> {
      // The key is last: cut it off again.
      const sqlite = ctx.dialect === 'sqlite';
      for (const column of ['lead_body', 'body']) {
        const ref = sql.ref(column);
        const text = sqlite ? sql`cast(${ref} as text)` : ref;
        const cut = sqlite
          ? sql`cast(substr(${text}, 1, instr(${text}, ',"emailId":') - 1) || '}' as blob)`
          : sql`left(${ref}, strpos(${ref}, ',"emailId":') - 1) || '}'`;
        await sql`update activities set ${ref} = ${cut}
          where subject_type in ('lead', 'people', 'organization') and ${text} like '%,"emailId":%'`.execute(
          db,
        );
      }
    },
  };
}

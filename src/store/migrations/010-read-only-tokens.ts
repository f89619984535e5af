import type { Kysely } from 'kysely';

/**
 * Read-only tokens (`salescrm token create --read-only`): such a token reads everything its
 * workspace has and writes nothing (403 on every write route; the MCP server offers it no
 * write tool). Existing tokens keep writing.
 */
export const readOnlyTokens = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('access_tokens')
      .addColumn('read_only', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('access_tokens').dropColumn('read_only').execute();
  },
};

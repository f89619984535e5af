import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './001-initial.ts';

/**
 * Tokens found without a search across workspaces (docs/deploy.md, Distributing by workspace):
 * `token_workspaces`, a small table of every token's hash, id and workspace, is what a request's
 * token is looked up in first; the token's row is then read in its own workspace. The unique
 * index on the hash alone, which spanned every workspace, becomes one per workspace. Every
 * token issued before keeps working: its hash is copied here.
 */
export function tokenWorkspaces(ctx: MigrationContext) {
  const text = ctx.dialect === 'sqlite' ? 'text' : sql.raw('text collate "C"');
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('token_workspaces')
        .addColumn('token_hash', text, (c) => c.primaryKey())
        .addColumn('token_id', text, (c) => c.notNull())
        .addColumn('workspace_id', text, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('token_workspaces_token_id')
        .on('token_workspaces')
        .column('token_id')
        .execute();
      await sql`insert into token_workspaces (token_hash, token_id, workspace_id)
        select token_hash, id, workspace_id from access_tokens`.execute(db);
      await db.schema.dropIndex('access_tokens_token_hash').execute();
      await db.schema
        .createIndex('access_tokens_token_hash')
        .on('access_tokens')
        .columns(['workspace_id', 'token_hash'])
        .unique()
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('access_tokens_token_hash').execute();
      await db.schema
        .createIndex('access_tokens_token_hash')
        .on('access_tokens')
        .column('token_hash')
        .unique()
        .execute();
      await db.schema.dropTable('token_workspaces').execute();
    },
  };
}

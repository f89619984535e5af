import type { Kysely } from 'kysely';

/**
 * Indexes that keep two filters of the workspace lists one index range scan in list order
 * (`created_at`, `id`): `GET /v2/memo?typeId=` (a note's type) and `GET /v2/todo?ownerId=`
 * (a todo's 담당자).
 */
export const listFilterIndexes = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createIndex('notes_type')
      .on('notes')
      .columns(['workspace_id', 'type_id', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('todos_owner')
      .on('todos')
      .columns(['workspace_id', 'owner_id', 'created_at', 'id'])
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropIndex('todos_owner').execute();
    await db.schema.dropIndex('notes_type').execute();
  },
};

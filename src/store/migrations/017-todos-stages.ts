import type { Kysely } from 'kysely';

/**
 * A note's type (`POST /v2/{type}/{id}/memo` takes `typeId`, one of `GET /v2/memo/type-list`):
 * null for the notes written before, and for those written without one.
 */
export const todosStages = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('notes').addColumn('type_id', 'text').execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('notes').dropColumn('type_id').execute();
  },
};

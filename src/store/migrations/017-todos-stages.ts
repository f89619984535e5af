import type { Kysely } from 'kysely';

/**
 * A note's type (`POST /v2/{type}/{id}/memo` takes `typeId`, one of `GET /v2/memo/type-list`):
 * null for the notes written before, and for those written without one. And the stage
 * times of deals and leads (`src/domain/stage-times.ts`), written at each stage change:
 * null until the first, the current stage since `stage_entered_at` standing for them.
 */
export const todosStages = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('notes').addColumn('type_id', 'text').execute();
    await db.schema.alterTable('deals').addColumn('stage_times', 'text').execute();
    await db.schema.alterTable('leads').addColumn('stage_times', 'text').execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('notes').dropColumn('type_id').execute();
    await db.schema.alterTable('deals').dropColumn('stage_times').execute();
    await db.schema.alterTable('leads').dropColumn('stage_times').execute();
  },
};

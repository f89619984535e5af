import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './001-initial.ts';

/**
 * What the sequence reads (docs/decisions.md, Other resources) show beyond a sequence's name: its
 * description, its steps (`GET /v2/sequence/{id}/step`) and each enrollment's timeline of
 * e-mail events (`GET /v2/sequence/enrollment/{id}/timeline`); and the indexes that page a
 * sequence's enrollments and the workspace's sequences in their order.
 *
 * Also the link indexes of people, deals and leads (a person's organization, a deal's person
 * and organization) end with `created_at, id`, so that a record's associations
 * (`GET /v2/object/…/association/…/primary`) are read in list order from them: with the
 * link column alone, SQLite read them through the list index instead, walking the whole
 * workspace's records for a few.
 */
const LINK_INDEXES = [
  ['people', 'organization', 'organization_id'],
  ['deals', 'people', 'people_id'],
  ['deals', 'organization', 'organization_id'],
  ['leads', 'people', 'people_id'],
  ['leads', 'organization', 'organization_id'],
] as const;
export function sequenceSteps(ctx: MigrationContext) {
  const text = ctx.dialect === 'sqlite' ? 'text' : sql.raw('text collate "C"');
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('sequences').addColumn('description', text).execute();
      await db.schema
        .createTable('sequence_steps')
        .addColumn('workspace_id', text, (c) => c.notNull())
        .addColumn('id', text, (c) => c.notNull())
        .addColumn('sequence_id', text, (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('type', text, (c) => c.notNull())
        .addColumn('execute_immediately', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('business_day', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('execution_time', text)
        .addPrimaryKeyConstraint('sequence_steps_pkey', ['workspace_id', 'id'] as never)
        .execute();
      await db.schema
        .createIndex('sequence_steps_sequence')
        .on('sequence_steps')
        .columns(['workspace_id', 'sequence_id', 'position', 'id'])
        .execute();
      await db.schema
        .createTable('sequence_timeline')
        .addColumn('workspace_id', text, (c) => c.notNull())
        .addColumn('id', text, (c) => c.notNull())
        .addColumn('enrollment_id', text, (c) => c.notNull())
        .addColumn('event_type', text, (c) => c.notNull())
        .addColumn('step_index', 'integer', (c) => c.notNull())
        .addColumn('date', text, (c) => c.notNull())
        .addColumn('email_id', text)
        .addColumn('link_url', text)
        .addColumn('link_name', text)
        .addPrimaryKeyConstraint('sequence_timeline_pkey', ['workspace_id', 'id'] as never)
        .execute();
      await db.schema
        .createIndex('sequence_timeline_enrollment')
        .on('sequence_timeline')
        .columns(['workspace_id', 'enrollment_id', 'date', 'id'])
        .execute();
      await db.schema
        .createIndex('sequence_enrollments_sequence')
        .on('sequence_enrollments')
        .columns(['workspace_id', 'sequence_id', 'enrolled_at', 'id'])
        .execute();
      await db.schema
        .createIndex('sequences_list')
        .on('sequences')
        .columns(['workspace_id', 'created_at', 'id'])
        .execute();
      for (const [table, name, column] of LINK_INDEXES) {
        await db.schema.dropIndex(`${table}_${name}`).execute();
        await db.schema
          .createIndex(`${table}_${name}`)
          .on(table)
          .columns(['workspace_id', column, 'created_at', 'id'])
          .execute();
      }
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const [table, name, column] of LINK_INDEXES) {
        await db.schema.dropIndex(`${table}_${name}`).execute();
        await db.schema
          .createIndex(`${table}_${name}`)
          .on(table)
          .columns(['workspace_id', column])
          .execute();
      }
      await db.schema.dropIndex('sequences_list').execute();
      await db.schema.dropIndex('sequence_enrollments_sequence').execute();
      await db.schema.dropTable('sequence_timeline').execute();
      await db.schema.dropTable('sequence_steps').execute();
      await db.schema.alterTable('sequences').dropColumn('description').execute();
    },
  };
}

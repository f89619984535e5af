import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './001-initial.ts';

/**
 * Custom objects (docs/decisions.md, Other resources): a workspace's own record types (definitions,
 * each with a name and optionally a pipeline of its own) and their records, which have a name (the
 * 대표 field), a record number within their definition, a stage of the definition's pipeline, an
 * owner and custom values, and keep their rendered JSON like the other records. Their notes, todos,
 * activities and history go in the shared tables (`subject_type` `customObject`). A custom field of
 * a custom object belongs to one definition: field names are unique per record type and definition
 * (`''` for every other record type).
 */
export function customObjects(ctx: MigrationContext) {
  const text = ctx.dialect === 'sqlite' ? 'text' : sql.raw('text collate "C"');
  const bodyType = ctx.dialect === 'sqlite' ? 'blob' : 'text';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('custom_object_definitions')
        .addColumn('workspace_id', text, (c) => c.notNull())
        .addColumn('id', text, (c) => c.notNull())
        .addColumn('name', text, (c) => c.notNull())
        .addColumn('pipeline_id', text)
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('created_at', text, (c) => c.notNull())
        .addPrimaryKeyConstraint('custom_object_definitions_pkey', ['workspace_id', 'id'] as never)
        .execute();
      await db.schema
        .createIndex('custom_object_definitions_name')
        .on('custom_object_definitions')
        .columns(['workspace_id', 'name'])
        .unique()
        .execute();

      await db.schema
        .createTable('custom_objects')
        .addColumn('workspace_id', text, (c) => c.notNull())
        .addColumn('id', text, (c) => c.notNull())
        .addColumn('definition_id', text, (c) => c.notNull())
        .addColumn('record_number', 'integer', (c) => c.notNull())
        .addColumn('name', text, (c) => c.notNull())
        .addColumn('pipeline_id', text)
        .addColumn('stage_id', text)
        .addColumn('owner_id', text)
        .addColumn('team_ids', text, (c) => c.notNull().defaultTo('[]'))
        .addColumn('custom', text, (c) => c.notNull().defaultTo('{}'))
        .addColumn('created_at', text, (c) => c.notNull())
        .addColumn('updated_at', text, (c) => c.notNull())
        .addColumn('body', sql.raw(bodyType))
        .addPrimaryKeyConstraint('custom_objects_pkey', ['workspace_id', 'id'] as never)
        .execute();
      await db.schema
        .createIndex('custom_objects_list')
        .on('custom_objects')
        .columns(['workspace_id', 'created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('custom_objects_definition')
        .on('custom_objects')
        .columns(['workspace_id', 'definition_id', 'created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('custom_objects_number')
        .on('custom_objects')
        .columns(['workspace_id', 'definition_id', 'record_number'])
        .unique()
        .execute();

      await db.schema
        .alterTable('custom_fields')
        .addColumn('custom_object_definition_id', text, (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.dropIndex('custom_fields_name').execute();
      await db.schema
        .createIndex('custom_fields_name')
        .on('custom_fields')
        .columns(['workspace_id', 'record_type', 'custom_object_definition_id', 'name'])
        .unique()
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('custom_fields_name').execute();
      await db.schema
        .alterTable('custom_fields')
        .dropColumn('custom_object_definition_id')
        .execute();
      await db.schema
        .createIndex('custom_fields_name')
        .on('custom_fields')
        .columns(['workspace_id', 'record_type', 'name'])
        .unique()
        .execute();
      await db.schema.dropTable('custom_objects').execute();
      await db.schema.dropTable('custom_object_definitions').execute();
    },
  };
}

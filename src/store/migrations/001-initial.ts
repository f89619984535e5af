import { type Kysely, sql } from 'kysely';

/** Dialect facts a migration needs. */
export interface MigrationContext {
  dialect: 'sqlite' | 'postgres';
}

type Builder = ReturnType<Kysely<unknown>['schema']['createTable']>;

/** The first schema: every table of the data model, keyed by workspace first. */
export function initialSchema(ctx: MigrationContext) {
  const bodyType = ctx.dialect === 'sqlite' ? 'blob' : 'text';
  const real = ctx.dialect === 'sqlite' ? 'real' : 'double precision';
  // Text compares byte by byte on both stores (SQLite's BINARY): ids, timestamps and the
  // `key \n id` cursor keys must sort the same whatever the PostgreSQL database's locale.
  const text = ctx.dialect === 'sqlite' ? 'text' : sql.raw('text collate "C"');

  function table(db: Kysely<unknown>, name: string, build: (t: Builder) => Builder) {
    return build(db.schema.createTable(name))
      .addColumn('workspace_id', text, (c) => c.notNull())
      .addColumn('id', text, (c) => c.notNull())
      .addPrimaryKeyConstraint(`${name}_pkey`, ['workspace_id', 'id'] as never)
      .execute();
  }

  function owned(t: Builder): Builder {
    return t
      .addColumn('owner_id', text)
      .addColumn('team_ids', text, (c) => c.notNull().defaultTo('[]'))
      .addColumn('custom', text, (c) => c.notNull().defaultTo('{}'))
      .addColumn('created_at', text, (c) => c.notNull())
      .addColumn('updated_at', text, (c) => c.notNull())
      .addColumn('body', sql.raw(bodyType));
  }

  function pipelineRecord(t: Builder): Builder {
    return owned(
      t
        .addColumn('people_id', text)
        .addColumn('organization_id', text)
        .addColumn('name', text, (c) => c.notNull())
        .addColumn('pipeline_id', text)
        .addColumn('stage_id', text)
        .addColumn('stage_entered_at', text)
        .addColumn('amount', sql.raw(real))
        .addColumn('label', text)
        .addColumn('closed_at', text)
        .addColumn('expected_close_at', text)
        .addColumn('source', text, (c) => c.notNull()),
    );
  }

  async function index(db: Kysely<unknown>, table: string, name: string, columns: string[]) {
    await db.schema.createIndex(`${table}_${name}`).on(table).columns(columns).execute();
  }

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('workspaces')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('name', text, (c) => c.notNull())
        .addColumn('data_version', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('cursor_secret', text, (c) => c.notNull())
        .addColumn('created_at', text, (c) => c.notNull())
        .execute();

      await table(db, 'access_tokens', (t) =>
        t
          .addColumn('token_hash', text, (c) => c.notNull())
          .addColumn('user_id', text, (c) => c.notNull())
          .addColumn('name', text)
          .addColumn('created_at', text, (c) => c.notNull())
          .addColumn('revoked_at', text),
      );
      await db.schema
        .createIndex('access_tokens_token_hash')
        .on('access_tokens')
        .column('token_hash')
        .unique()
        .execute();

      await table(db, 'users', (t) =>
        t
          .addColumn('name', text, (c) => c.notNull())
          .addColumn('email', text, (c) => c.notNull())
          .addColumn('status', text, (c) => c.notNull())
          .addColumn('role', text, (c) => c.notNull())
          .addColumn('created_at', text, (c) => c.notNull())
          .addColumn('updated_at', text, (c) => c.notNull()),
      );
      await table(db, 'teams', (t) =>
        t
          .addColumn('name', text, (c) => c.notNull())
          .addColumn('description', text)
          .addColumn('created_at', text, (c) => c.notNull()),
      );
      await db.schema
        .createTable('team_members')
        .addColumn('workspace_id', text, (c) => c.notNull())
        .addColumn('team_id', text, (c) => c.notNull())
        .addColumn('user_id', text, (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('team_members_pkey', [
          'workspace_id',
          'team_id',
          'user_id',
        ] as never)
        .execute();
      await index(db, 'team_members', 'user', ['workspace_id', 'user_id']);

      await table(db, 'pipelines', (t) =>
        t
          .addColumn('kind', text, (c) => c.notNull())
          .addColumn('name', text, (c) => c.notNull())
          .addColumn('position', 'integer', (c) => c.notNull())
          .addColumn('created_at', text, (c) => c.notNull()),
      );
      await table(db, 'pipeline_stages', (t) =>
        t
          .addColumn('pipeline_id', text, (c) => c.notNull())
          .addColumn('name', text, (c) => c.notNull())
          .addColumn('position', 'integer', (c) => c.notNull()),
      );
      await index(db, 'pipeline_stages', 'pipeline', ['workspace_id', 'pipeline_id', 'position']);

      await table(db, 'custom_fields', (t) =>
        t
          .addColumn('record_type', text, (c) => c.notNull())
          .addColumn('name', text, (c) => c.notNull())
          .addColumn('type', text, (c) => c.notNull())
          .addColumn('position', 'integer', (c) => c.notNull())
          .addColumn('required', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('options', text)
          .addColumn('created_at', text, (c) => c.notNull()),
      );
      await db.schema
        .createIndex('custom_fields_name')
        .on('custom_fields')
        .columns(['workspace_id', 'record_type', 'name'])
        .unique()
        .execute();

      await table(db, 'organizations', (t) =>
        owned(
          t
            .addColumn('name', text, (c) => c.notNull())
            .addColumn('email', text)
            .addColumn('phone', text)
            .addColumn('profile_image', text)
            .addColumn('linkedin', text)
            .addColumn('source', text, (c) => c.notNull()),
        ),
      );
      await index(db, 'organizations', 'list', ['workspace_id', 'created_at', 'id']);
      await index(db, 'organizations', 'name', ['workspace_id', 'name']);

      await table(db, 'people', (t) =>
        owned(
          t
            .addColumn('organization_id', text)
            .addColumn('name', text, (c) => c.notNull())
            .addColumn('email', text)
            .addColumn('phone', text)
            .addColumn('job_title', text)
            .addColumn('profile_image', text)
            .addColumn('linkedin', text)
            .addColumn('unsubscribed', 'integer', (c) => c.notNull().defaultTo(0))
            .addColumn('unsubscribe_reason', text)
            .addColumn('source', text, (c) => c.notNull()),
        ),
      );
      await index(db, 'people', 'list', ['workspace_id', 'created_at', 'id']);
      await index(db, 'people', 'organization', ['workspace_id', 'organization_id']);
      await index(db, 'people', 'email', ['workspace_id', 'email']);

      await table(db, 'deals', (t) =>
        pipelineRecord(t)
          .addColumn('outcome', text, (c) => c.notNull())
          .addColumn('follower_ids', text, (c) => c.notNull().defaultTo('[]'))
          .addColumn('participant_ids', text, (c) => c.notNull().defaultTo('[]')),
      );
      await table(db, 'leads', pipelineRecord);
      for (const name of ['deals', 'leads']) {
        await index(db, name, 'list', ['workspace_id', 'created_at', 'id']);
        await index(db, name, 'people', ['workspace_id', 'people_id']);
        await index(db, name, 'organization', ['workspace_id', 'organization_id']);
        await index(db, name, 'stage', ['workspace_id', 'stage_id', 'created_at', 'id']);
        await index(db, name, 'pipeline', ['workspace_id', 'pipeline_id', 'created_at', 'id']);
      }

      await table(db, 'products', (t) =>
        owned(
          t
            .addColumn('name', text, (c) => c.notNull())
            .addColumn('code', text)
            .addColumn('kind', text, (c) => c.notNull())
            .addColumn('price', sql.raw(real), (c) => c.notNull())
            .addColumn('unit', text),
        ),
      );
      await index(db, 'products', 'list', ['workspace_id', 'created_at', 'id']);

      await table(db, 'quotes', (t) =>
        owned(
          t
            .addColumn('deal_id', text)
            .addColumn('lead_id', text)
            .addColumn('name', text, (c) => c.notNull())
            .addColumn('is_main', 'integer', (c) => c.notNull().defaultTo(0))
            .addColumn('share_link', text),
        ),
      );
      await index(db, 'quotes', 'deal', ['workspace_id', 'deal_id', 'created_at', 'id']);
      await index(db, 'quotes', 'lead', ['workspace_id', 'lead_id', 'created_at', 'id']);

      await table(db, 'quote_products', (t) =>
        t
          .addColumn('quote_id', text, (c) => c.notNull())
          .addColumn('position', 'integer', (c) => c.notNull())
          .addColumn('product_id', text, (c) => c.notNull())
          .addColumn('price', sql.raw(real), (c) => c.notNull())
          .addColumn('quantity', sql.raw(real), (c) => c.notNull())
          .addColumn('payment_count', 'integer')
          .addColumn('payment_start_at', text)
          .addColumn('custom', text, (c) => c.notNull().defaultTo('{}')),
      );
      await index(db, 'quote_products', 'quote', ['workspace_id', 'quote_id', 'position']);
      await index(db, 'quote_products', 'product', ['workspace_id', 'product_id']);

      await table(db, 'notes', (t) =>
        t
          .addColumn('subject_type', text, (c) => c.notNull())
          .addColumn('subject_id', text, (c) => c.notNull())
          .addColumn('text', text, (c) => c.notNull())
          .addColumn('author_id', text)
          .addColumn('created_at', text, (c) => c.notNull())
          .addColumn('updated_at', text, (c) => c.notNull()),
      );
      await index(db, 'notes', 'subject', [
        'workspace_id',
        'subject_type',
        'subject_id',
        'created_at',
      ]);
      await index(db, 'notes', 'list', ['workspace_id', 'created_at', 'id']);

      await table(db, 'todos', (t) =>
        t
          .addColumn('subject_type', text, (c) => c.notNull())
          .addColumn('subject_id', text, (c) => c.notNull())
          .addColumn('title', text, (c) => c.notNull())
          .addColumn('kind', text, (c) => c.notNull())
          .addColumn('start_at', text)
          .addColumn('due_at', text)
          .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('done_at', text)
          .addColumn('owner_id', text)
          .addColumn('created_at', text, (c) => c.notNull())
          .addColumn('updated_at', text, (c) => c.notNull()),
      );
      await index(db, 'todos', 'subject', ['workspace_id', 'subject_type', 'subject_id']);
      await index(db, 'todos', 'list', ['workspace_id', 'created_at', 'id']);

      await table(db, 'web_forms', (t) =>
        t
          .addColumn('name', text, (c) => c.notNull())
          .addColumn('description', text)
          .addColumn('status', text, (c) => c.notNull())
          .addColumn('view_count', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('created_at', text, (c) => c.notNull())
          .addColumn('updated_at', text, (c) => c.notNull()),
      );
      await table(db, 'web_form_submissions', (t) =>
        t
          .addColumn('web_form_id', text, (c) => c.notNull())
          .addColumn('people_id', text)
          .addColumn('organization_id', text)
          .addColumn('deal_id', text)
          .addColumn('lead_id', text)
          .addColumn('contents', text, (c) => c.notNull().defaultTo('[]'))
          .addColumn('created_at', text, (c) => c.notNull()),
      );
      await index(db, 'web_form_submissions', 'form', [
        'workspace_id',
        'web_form_id',
        'created_at',
        'id',
      ]);
      for (const column of ['people_id', 'organization_id', 'deal_id', 'lead_id']) {
        await index(db, 'web_form_submissions', column, ['workspace_id', column, 'created_at']);
      }

      await table(db, 'sequences', (t) =>
        t
          .addColumn('name', text, (c) => c.notNull())
          .addColumn('created_at', text, (c) => c.notNull()),
      );
      await table(db, 'sequence_enrollments', (t) =>
        t
          .addColumn('sequence_id', text, (c) => c.notNull())
          .addColumn('subject_type', text, (c) => c.notNull())
          .addColumn('subject_id', text, (c) => c.notNull())
          .addColumn('enrolled_at', text, (c) => c.notNull())
          .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1)),
      );
      await index(db, 'sequence_enrollments', 'subject', [
        'workspace_id',
        'subject_type',
        'subject_id',
        'enrolled_at',
      ]);

      await table(db, 'activities', (t) =>
        t
          .addColumn('subject_type', text, (c) => c.notNull())
          .addColumn('subject_id', text, (c) => c.notNull())
          .addColumn('type', text, (c) => c.notNull())
          .addColumn('date', text, (c) => c.notNull())
          .addColumn('deal_status', text)
          .addColumn('web_form_id', text)
          .addColumn('sms_id', text)
          .addColumn('todo_id', text)
          .addColumn('memo_id', text)
          .addColumn('email_message_id', text)
          .addColumn('body', sql.raw(bodyType)),
      );
      await index(db, 'activities', 'list', ['workspace_id', 'date', 'id']);
      await index(db, 'activities', 'subject', [
        'workspace_id',
        'subject_type',
        'subject_id',
        'date',
        'id',
      ]);

      await table(db, 'history', (t) =>
        t
          .addColumn('subject_type', text, (c) => c.notNull())
          .addColumn('subject_id', text, (c) => c.notNull())
          .addColumn('type', text, (c) => c.notNull())
          .addColumn('people_id', text)
          .addColumn('organization_id', text)
          .addColumn('field_name', text, (c) => c.notNull())
          .addColumn('field_value', text)
          .addColumn('owner_id', text)
          .addColumn('created_at', text, (c) => c.notNull())
          .addColumn('body', sql.raw(bodyType)),
      );
      await index(db, 'history', 'list', ['workspace_id', 'subject_type', 'created_at', 'id']);
      await index(db, 'history', 'subject', [
        'workspace_id',
        'subject_type',
        'subject_id',
        'created_at',
        'id',
      ]);
    },

    async down(): Promise<void> {
      throw new Error('the initial schema cannot be rolled back');
    },
  };
}

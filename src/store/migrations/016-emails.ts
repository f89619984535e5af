import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './001-initial.ts';

/**
 * E-mails sent through `POST /v2/email` (docs/decisions.md, Other resources): what was sent, to
 * whom, and the SMTP server's Message-ID. A send first claims its row (`sending`), under its
 * `Idempotency-Key` when it has one (unique in the workspace), so that a second request with the
 * key answers the first one's result and sends nothing; the row becomes `delivery` once the SMTP
 * server took the message.
 */
export function emails(ctx: MigrationContext) {
  const text = ctx.dialect === 'sqlite' ? 'text' : sql.raw('text collate "C"');

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('emails')
        .addColumn('workspace_id', text, (c) => c.notNull())
        .addColumn('id', text, (c) => c.notNull())
        .addColumn('status', text, (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('from_address', 'text', (c) => c.notNull())
        .addColumn('to_list', 'text', (c) => c.notNull())
        .addColumn('cc_list', 'text', (c) => c.notNull())
        .addColumn('bcc_list', 'text', (c) => c.notNull())
        .addColumn('html_body', 'text', (c) => c.notNull())
        .addColumn('text_body', 'text', (c) => c.notNull())
        .addColumn('attachment_ids', 'text', (c) => c.notNull())
        .addColumn('message_id', 'text')
        .addColumn('sender_id', text)
        .addColumn('idempotency_key', 'text')
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', text, (c) => c.notNull())
        .addPrimaryKeyConstraint('emails_pkey', ['workspace_id', 'id'] as never)
        .execute();
      await db.schema
        .createIndex('emails_idempotency_key')
        .on('emails')
        .columns(['workspace_id', 'idempotency_key'])
        .unique()
        .where(sql.ref('idempotency_key'), 'is not', null)
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('emails').execute();
    },
  };
}

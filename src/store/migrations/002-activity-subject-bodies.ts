import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './001-initial.ts';

/** The activities table as this migration reads and writes it. */
interface ActivityRow {
  workspace_id: string;
  id: string;
  subject_type: string;
  subject_id: string;
  type: string;
  date: string;
  deal_status: string | null;
  web_form_id: string | null;
  sms_id: string | null;
  todo_id: string | null;
  memo_id: string | null;
  email_message_id: string | null;
  body: Buffer | string | null;
  lead_body: Buffer | string | null;
}

/** The subject key of each record type's own activity list. */
const SUBJECT_ID_KEY: Record<string, string> = {
  deal: 'dealId',
  lead: 'leadId',
  people: 'peopleId',
  organization: 'organizationId',
};

/**
 * An activity as its subject's own list showed it, frozen as this migration rendered it
 * (`renderSubjectActivity` of `src/render/activities.ts` then).
 */
function renderSubjectActivity(row: ActivityRow): Record<string, unknown> {
  const head: Record<string, unknown> = { id: row.id, type: row.type, date: row.date };
  if (row.subject_type === 'deal') head.dealStatus = row.deal_status;
  head[SUBJECT_ID_KEY[row.subject_type]!] = row.subject_id;
  return {
    ...head,
    webFormId: row.web_form_id,
    smsId: row.sms_id,
    todoId: row.todo_id,
    memoId: row.memo_id,
    emailMessageId: row.email_message_id,
  };
}

/** Rows re-rendered per statement batch while backfilling. */
const BATCH = 1_000;

/**
 * Activities of people, organizations and leads get their own lists (`GET /v2/people/activity`
 * and the like), whose records name the subject (`peopleId`, ...) where the deal list says
 * `dealId`. A lead's activity is in two lists, so it keeps two rendered forms: `body` (the
 * deal-activity record of `GET /v2/deal/activity`) and the new `lead_body`. People and
 * organization activities are in their own list only: their `body` is rendered in its shape.
 *
 * Indexes: every activity list is one range scan of an index that also holds `subject_type`
 * and `type`, so the subject and `types` filters skip rows without reading them.
 * `(workspace_id, date, id, …)` serves the unfiltered lists; `(workspace_id, subject_id, date,
 * id, …)` the lists of one record (a deal's and a lead's alike, which `dealId` needs), and
 * the newest `emailOpen` of a record.
 */
export function activitySubjectBodies(ctx: MigrationContext) {
  const bodyType = ctx.dialect === 'sqlite' ? 'blob' : 'text';
  const encode = (json: string) => (ctx.dialect === 'sqlite' ? Buffer.from(json) : json);
  return {
    async up(untyped: Kysely<unknown>): Promise<void> {
      const db = untyped as Kysely<{ activities: ActivityRow }>;
      await db.schema.alterTable('activities').addColumn('lead_body', sql.raw(bodyType)).execute();

      await db.schema.dropIndex('activities_list').execute();
      await db.schema.dropIndex('activities_subject').execute();
      await db.schema
        .createIndex('activities_by_date')
        .on('activities')
        .columns(['workspace_id', 'date', 'id', 'subject_type', 'type'])
        .execute();
      await db.schema
        .createIndex('activities_by_subject')
        .on('activities')
        .columns(['workspace_id', 'subject_id', 'date', 'id', 'subject_type', 'type'])
        .execute();

      // Rows written before: lead rows get `lead_body`, people and organization rows a `body`
      // in their own shape (it was the deal shape).
      let after = { workspace_id: '', id: '' };
      for (;;) {
        const rows = await db
          .selectFrom('activities')
          .selectAll()
          .where('subject_type', 'in', ['lead', 'people', 'organization'])
          .where((eb) =>
            eb(eb.refTuple('workspace_id', 'id'), '>', eb.tuple(after.workspace_id, after.id)),
          )
          .orderBy('workspace_id')
          .orderBy('id')
          .limit(BATCH)
          .execute();
        for (const row of rows) {
          const json = encode(JSON.stringify(renderSubjectActivity(row)));
          await db
            .updateTable('activities')
            .set(row.subject_type === 'lead' ? { lead_body: json } : { body: json })
            .where('workspace_id', '=', row.workspace_id)
            .where('id', '=', row.id)
            .execute();
        }
        if (rows.length < BATCH) break;
        after = rows[rows.length - 1]!;
      }
    },

    async down(): Promise<void> {
      throw new Error('002-activity-subject-bodies cannot be rolled back');
    },
  };
}

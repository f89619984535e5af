import type { Selectable } from 'kysely';
import type { ActivityTable } from '../model/tables.ts';

/**
 * The deal activity record (docs/decisions.md, Record keys; lead activities carry the lead id in
 * `dealId`).
 */
export function renderDealActivity(
  row: Omit<Selectable<ActivityTable>, 'recording_id'>,
): Record<string, unknown> {
  return {
    id: row.id,
    type: row.type,
    date: row.date,
    dealStatus: row.deal_status,
    dealId: row.subject_id,
    webFormId: row.web_form_id,
    smsId: row.sms_id,
    todoId: row.todo_id,
    memoId: row.memo_id,
    emailMessageId: row.email_message_id,
  };
}

import type { Selectable } from 'kysely';
import type { ActivityTable } from '../model/tables.ts';

/**
 * The subject key of each record type's own activity list (docs/decisions.md, Reads and writes).
 */
export const SUBJECT_ID_KEY = {
  deal: 'dealId',
  lead: 'leadId',
  people: 'peopleId',
  organization: 'organizationId',
} as const;
export type ActivitySubject = keyof typeof SUBJECT_ID_KEY;

/**
 * A custom object's activity as `GET /v2/custom-object/activity` shows it
 * (docs/decisions.md, Other resources): the live API's keys, its related ids null unless that kind
 * applies.
 */
export function renderCustomObjectActivity(
  row: Pick<
    Selectable<ActivityTable>,
    'id' | 'subject_id' | 'type' | 'date' | 'sms_id' | 'todo_id' | 'memo_id' | 'email_message_id'
  > & { recording_id?: string | null },
): Record<string, unknown> {
  return {
    id: row.id,
    type: row.type,
    date: row.date,
    customObjectId: row.subject_id,
    meetingId: null,
    kakaoAlimtalkId: null,
    emailId: row.email_message_id,
    messageId: null,
    threadId: null,
    recordingId: row.recording_id ?? null,
    smsId: row.sms_id,
    memoId: row.memo_id,
    todoId: row.todo_id,
    emailLinkId: null,
  };
}

/**
 * An activity as its subject's own list shows it: the deal activity's keys (docs/decisions.md,
 * Record keys) with `dealId` named for the subject (`peopleId`, `organizationId`, `leadId`), and
 * without `dealStatus` except on deals; then `emailId`, the key the live API's people, organization
 * and lead lists name the e-mail by (the same id as `emailMessageId`, which
 * `GET /v2/email/{emailId}` reads).
 */
export function renderSubjectActivity(
  row: Pick<
    Selectable<ActivityTable>,
    | 'id'
    | 'subject_type'
    | 'subject_id'
    | 'type'
    | 'date'
    | 'deal_status'
    | 'web_form_id'
    | 'sms_id'
    | 'todo_id'
    | 'memo_id'
    | 'email_message_id'
  >,
): Record<string, unknown> {
  const subject = row.subject_type as ActivitySubject;
  const head: Record<string, unknown> = { id: row.id, type: row.type, date: row.date };
  if (subject === 'deal') head.dealStatus = row.deal_status;
  head[SUBJECT_ID_KEY[subject]] = row.subject_id;
  return {
    ...head,
    webFormId: row.web_form_id,
    smsId: row.sms_id,
    todoId: row.todo_id,
    memoId: row.memo_id,
    emailMessageId: row.email_message_id,
    emailId: row.email_message_id,
  };
}

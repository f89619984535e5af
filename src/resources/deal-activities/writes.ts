import type { ActivityType } from '../../domain/activities.ts';
import { newId } from '../../domain/ids.ts';
import type { Body } from '../../model/tables.ts';
import { renderCustomObjectActivity, renderSubjectActivity } from '../../render/activities.ts';
import { renderDealActivity } from '../../render/deal-activities.ts';
import { columnById } from '../../store/by-id.ts';
import { insertMany } from '../../store/insert.ts';
import type { RowContext, WorkspaceWrite } from '../../store/write.ts';

/** An activity of a deal or lead (or of a person or organization). */
export interface NewActivity {
  id?: string;
  subjectType: 'deal' | 'lead' | 'people' | 'organization' | 'customObject';
  subjectId: string;
  type: ActivityType;
  date?: string;
  /** The deal's outcome when it happened (its current outcome when not given); null for leads. */
  dealStatus?: string | null;
  webFormId?: string | null;
  smsId?: string | null;
  todoId?: string | null;
  memoId?: string | null;
  emailMessageId?: string | null;
  /** The recording of a `recordingCreate`. */
  recordingId?: string | null;
}

/**
 * Adds activities with their rendered JSON (for each list that shows them); an `emailOpen`
 * updates `최근 이메일 오픈일`.
 */
export async function insertActivities(
  w: WorkspaceWrite,
  activities: NewActivity[],
): Promise<string[]> {
  const rows = await activityRows(w, activities);
  await insertMany(w.trx, 'activities', rows);
  markEmailOpens(w, activities);
  return rows.map((r) => r.id);
}

/**
 * Adds the `create` activities of records this write has just created (a deal's reads its
 * outcome only when no `dealStatus` is given). On PostgreSQL they wait for the write's last
 * statement (a round trip fewer): nothing in the write reads a new record's activities (its
 * rendered JSON shows none, and only `emailOpen`s are facts of a record).
 */
export async function insertCreateActivities(
  w: WorkspaceWrite,
  activities: NewActivity[],
): Promise<void> {
  const rows = await activityRows(w, activities);
  if (w.pending?.room(rows.length)) w.pending.keepInserts('activities', rows);
  else await insertMany(w.trx, 'activities', rows);
}

/** The rows of new activities, a deal's without a `dealStatus` with the deal's outcome now. */
async function activityRows(w: WorkspaceWrite, activities: NewActivity[]) {
  const outcomes = await currentOutcomes(w, activities);
  return activities.map((a) => activityRow(w, a, outcomes.get(a.subjectId)));
}

/** An `emailOpen` of a deal or lead changes its `최근 이메일 오픈일`: it is rendered again. */
function markEmailOpens(w: WorkspaceWrite, activities: NewActivity[]): void {
  for (const a of activities) {
    if (a.type === 'emailOpen' && (a.subjectType === 'deal' || a.subjectType === 'lead')) {
      w.touched.mark(a.subjectType, a.subjectId);
    }
  }
}

/**
 * The row of a new activity with its rendered JSON (for each list that shows it); `outcome`
 * is its deal's current outcome, for a deal activity that comes without a `dealStatus`.
 */
export function activityRow(w: RowContext, a: NewActivity, outcome: string | undefined) {
  const row = {
    workspace_id: w.workspaceId,
    id: a.id ?? newId(),
    subject_type: a.subjectType,
    subject_id: a.subjectId,
    type: a.type,
    date: a.date ?? w.now,
    deal_status:
      a.subjectType !== 'deal'
        ? null
        : a.dealStatus !== undefined
          ? a.dealStatus
          : (outcome ?? null),
    web_form_id: a.webFormId ?? null,
    sms_id: a.smsId ?? null,
    todo_id: a.todoId ?? null,
    memo_id: a.memoId ?? null,
    email_message_id: a.emailMessageId ?? null,
    recording_id: a.recordingId ?? null,
    body: null as Body | null,
    lead_body: null as Body | null,
  };
  const own = () =>
    w.store.encodeBody(
      JSON.stringify(
        a.subjectType === 'customObject'
          ? renderCustomObjectActivity(row)
          : renderSubjectActivity(row as typeof row & { subject_type: 'people' }),
      ),
    );
  // Deals and leads are in `GET /v2/deal/activity`; a lead's is in its own list too.
  if (a.subjectType === 'deal' || a.subjectType === 'lead') {
    row.body = w.store.encodeBody(JSON.stringify(renderDealActivity(row)));
    if (a.subjectType === 'lead') row.lead_body = own();
  } else {
    row.body = own();
  }
  return row;
}

/**
 * Current outcomes of the deals whose activities come without a `dealStatus` (docs/decisions.md,
 * Activities and history).
 */
async function currentOutcomes(
  w: WorkspaceWrite,
  activities: NewActivity[],
): Promise<Map<string, string>> {
  const ids = activities
    .filter((a) => a.subjectType === 'deal' && a.dealStatus === undefined)
    .map((a) => a.subjectId);
  return columnById<string>(w.trx, 'deals', w.workspaceId, ids, 'outcome');
}

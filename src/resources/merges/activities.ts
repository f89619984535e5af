import type { ActivityType } from '../../domain/activities.ts';
import type { WorkspaceWrite } from '../../store/write.ts';
import { activityRow } from '../deal-activities/writes.ts';
import type { MergeKind } from './pair.ts';

/**
 * Moves the merged record's activities to the kept record, each with its stored JSON
 * rendered again for it (the lists show the subject's id); a deal activity keeps the
 * `dealStatus` it had when it happened.
 */
export async function moveActivities(
  w: WorkspaceWrite,
  kind: MergeKind,
  mergedId: string,
  keptId: string,
): Promise<void> {
  const rows = await w.trx
    .selectFrom('activities')
    .selectAll()
    .where('workspace_id', '=', w.workspaceId)
    .where('subject_type', '=', kind)
    .where('subject_id', '=', mergedId)
    .execute();
  for (const row of rows) {
    const moved = activityRow(
      w,
      {
        id: row.id,
        subjectType: kind,
        subjectId: keptId,
        type: row.type as ActivityType,
        date: row.date,
        dealStatus: row.deal_status,
        webFormId: row.web_form_id,
        smsId: row.sms_id,
        todoId: row.todo_id,
        memoId: row.memo_id,
        emailMessageId: row.email_message_id,
      },
      undefined,
    );
    await w.trx
      .updateTable('activities')
      .set({ subject_id: keptId, body: moved.body, lead_body: moved.lead_body })
      .where('workspace_id', '=', w.workspaceId)
      .where('id', '=', row.id)
      .execute();
  }
}

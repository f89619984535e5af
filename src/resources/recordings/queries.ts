import type { RecordingRow } from '../../render/recordings.ts';
import type { Executor } from '../../store/database.ts';

/** A recording of the workspace with its owner's name, or undefined. */
export async function recordingRow(
  db: Executor,
  workspaceId: string,
  id: string,
): Promise<RecordingRow | undefined> {
  const row = await db
    .selectFrom('recordings as r')
    .leftJoin('users as u', (j) =>
      j.onRef('u.workspace_id', '=', 'r.workspace_id').onRef('u.id', '=', 'r.owner_id'),
    )
    .selectAll('r')
    .select('u.name as owner_name')
    .where('r.workspace_id', '=', workspaceId)
    .where('r.id', '=', id)
    .executeTakeFirst();
  return row && { ...row, duration: Number(row.duration) };
}

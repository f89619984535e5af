import type { Ref } from '../../domain/records.ts';
import type { Executor } from '../../store/database.ts';

/** Members of the given teams as user Refs, each team's in member position order. */
export async function teammatesOf(
  db: Executor,
  workspaceId: string,
  teamIds: readonly string[],
): Promise<Map<string, Ref[]>> {
  const out = new Map<string, Ref[]>();
  if (teamIds.length === 0) return out;
  const rows = await db
    .selectFrom('team_members as m')
    .leftJoin('users as u', (j) =>
      j.onRef('u.workspace_id', '=', 'm.workspace_id').onRef('u.id', '=', 'm.user_id'),
    )
    .select(['m.team_id', 'm.user_id', 'u.name'])
    .where('m.workspace_id', '=', workspaceId)
    .where('m.team_id', 'in', teamIds)
    .orderBy('m.team_id')
    .orderBy('m.position')
    .execute();
  for (const r of rows) {
    const list = out.get(r.team_id) ?? [];
    list.push({ id: r.user_id, name: r.name ?? '' });
    out.set(r.team_id, list);
  }
  return out;
}

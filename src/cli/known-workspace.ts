import type { Store } from '../store/database.ts';

/**
 * Whether a workspace with this id exists; when none does, says so on standard error in one
 * line (the command then exits 1).
 */
export async function knownWorkspace(store: Store, workspaceId: string): Promise<boolean> {
  const row = await store.reader
    .selectFrom('workspaces')
    .select('id')
    .where('id', '=', workspaceId)
    .executeTakeFirst();
  if (!row) console.error(`salescrm: no workspace '${workspaceId}'`);
  return row !== undefined;
}

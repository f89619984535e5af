/** What `salescrm workspace create` does (`workspace.ts` declares it; imported when it runs). */
import type { Config } from '../config.ts';
import { createWorkspace, insertUsers } from '../resources/workspaces/writes.ts';
import { withStore } from './with-store.ts';

/** `salescrm workspace create NAME [--json]`: an empty workspace with one admin user. */
export async function runWorkspaceCreate(
  config: Config,
  name: string,
  values: { json?: boolean },
): Promise<number> {
  return withStore(config, async (store) => {
    const workspaceId = await createWorkspace(store, name);
    await store.transaction((trx) =>
      insertUsers(trx, workspaceId, [
        { name: '관리자', email: 'admin@example.com', role: 'admin' },
      ]),
    );
    console.log(values.json ? JSON.stringify({ workspaceId }) : `workspace ${workspaceId} created`);
    return 0;
  });
}

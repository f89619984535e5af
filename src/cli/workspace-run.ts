/** What `salescrm workspace create` does (`workspace.ts` declares it; imported when it runs). */
import type { Config } from '../config.ts';
import { createWorkspace, insertUsers } from '../resources/workspaces/writes.ts';
import { openStore } from '../store/database.ts';

/** `salescrm workspace create NAME [--json]`: an empty workspace with one admin user. */
export async function runWorkspaceCreate(
  config: Config,
  name: string,
  values: { json?: boolean },
): Promise<number> {
  const store = openStore(config.databaseUrl);
  try {
    await store.migrate();
    const workspaceId = await createWorkspace(store, name);
    await store.transaction((trx) =>
      insertUsers(trx, workspaceId, [
        { name: '관리자', email: 'admin@example.com', role: 'admin' },
      ]),
    );
    console.log(values.json ? JSON.stringify({ workspaceId }) : `workspace ${workspaceId} created`);
    return 0;
  } finally {
    await store.close();
  }
}

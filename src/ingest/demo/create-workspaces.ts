import { createTokens } from '../../resources/workspaces/writes.ts';
import type { Store } from '../../store/database.ts';
import { copiesOf, copyWorkspace } from './copy-workspace.ts';
import { createDemoWorkspace } from './create-workspace.ts';

/** What many demo workspaces to build. */
export interface DemoWorkspacesOptions {
  /** How many workspaces (at least 1). */
  workspaces: number;
  /** The seed of the first workspace's data (default 1). */
  seed?: number;
  /** People in each workspace (default 200). */
  people?: number;
  /** Called as the work goes: stage name, items done, items in the stage. */
  onProgress?: (stage: string, done: number, total: number) => void;
}

/** One workspace built, with its admin's token. */
export interface DemoWorkspace {
  workspaceId: string;
  token: string;
}

/** Copies made per transaction: one `insert … select` a table for all of them. */
const COPIES_PER_TRANSACTION = 250;

/**
 * Builds `workspaces` demo workspaces, each with a token of its admin, in order: the first is
 * a demo built as `createDemoWorkspace` builds one (named `… 1` when there are more); the
 * others are copies of it (`copyWorkspace`), made by the database in batches, so that ten
 * thousand small workspaces take about a minute instead of a few hours of rendering. Every
 * workspace holds the same records, under its own id and cursor secret.
 */
export async function createDemoWorkspaces(
  store: Store,
  options: DemoWorkspacesOptions,
): Promise<DemoWorkspace[]> {
  const { workspaces } = options;
  if (!Number.isInteger(workspaces) || workspaces < 1) {
    throw new RangeError(`demo workspaces must be a positive integer: ${workspaces}`);
  }
  const progress = options.onProgress ?? (() => {});
  const first = await createDemoWorkspace(store, {
    seed: options.seed,
    people: options.people,
    onProgress: progress,
  });
  const out: DemoWorkspace[] = [{ workspaceId: first.workspaceId, token: first.token }];
  if (workspaces === 1) return out;
  const { name } = await store.db
    .selectFrom('workspaces')
    .select('name')
    .where('id', '=', first.workspaceId)
    .executeTakeFirstOrThrow();
  await store.db
    .updateTable('workspaces')
    .set({ name: `${name} 1` })
    .where('id', '=', first.workspaceId)
    .execute();
  const admin = await store.db
    .selectFrom('access_tokens')
    .select('user_id')
    .where('id', '=', first.tokenId)
    .executeTakeFirstOrThrow();
  progress('copies', 1, workspaces);
  for (let done = 1; done < workspaces; done += COPIES_PER_TRANSACTION) {
    const copies = copiesOf(name, Math.min(COPIES_PER_TRANSACTION, workspaces - done), done + 1);
    const tokens = await store.transaction(async (trx) => {
      await copyWorkspace(store, trx, first.workspaceId, copies);
      return createTokens(
        trx,
        copies.map((c) => ({ workspaceId: c.id, userId: admin.user_id })),
        'demo',
      );
    });
    copies.forEach((c, i) => {
      out.push({ workspaceId: c.id, token: tokens[i]!.token });
    });
    progress('copies', done + copies.length, workspaces);
  }
  return out;
}

import { CHUNK } from '../by-id.ts';
import type { Executor, Store } from '../database.ts';
import { Lookups } from './lookups.ts';
import { RENDERERS } from './render-chunks.ts';
import { type RenderedType, TABLE_OF } from './rendered-types.ts';
import type { Touched } from './touched.ts';

/** Re-renders every touched record of the workspace and stores its JSON. */
export async function refreshTouched(
  store: Store,
  trx: Executor,
  workspaceId: string,
  touched: Touched,
  lookups?: Lookups,
): Promise<void> {
  if (touched.isEmpty) return;
  const l = lookups ?? (await Lookups.load(trx, workspaceId));
  for (const type of Object.keys(TABLE_OF) as RenderedType[]) {
    if (touched.allOf.has(type)) {
      await refreshAllOf(store, trx, workspaceId, type, l);
    } else if (touched.ids[type].size > 0) {
      const ids = [...touched.ids[type]];
      for (let i = 0; i < ids.length; i += CHUNK) {
        await renderChunk(store, trx, workspaceId, type, ids.slice(i, i + CHUNK), l);
      }
    }
  }
}

/** Re-renders every record of one type in the workspace, in chunks by id. */
export async function refreshAllOf(
  store: Store,
  trx: Executor,
  workspaceId: string,
  type: RenderedType,
  lookups: Lookups,
): Promise<void> {
  const table = TABLE_OF[type];
  let after = '';
  for (;;) {
    // Whole rows, so the renderer need not read the same records again by id.
    const rows = await trx
      .selectFrom(table as 'people')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '>', after)
      .orderBy('id')
      .limit(CHUNK)
      .execute();
    if (rows.length === 0) return;
    const ids = rows.map((r) => r.id);
    await renderChunk(store, trx, workspaceId, type, ids, lookups, rows);
    after = ids[ids.length - 1]!;
  }
}

async function renderChunk(
  store: Store,
  trx: Executor,
  ws: string,
  type: RenderedType,
  ids: string[],
  l: Lookups,
  rows?: readonly unknown[],
): Promise<void> {
  const rendered = await RENDERERS[type](trx, ws, ids, l, rows);
  await store.updateBodies(TABLE_OF[type], ws, rendered, trx);
}

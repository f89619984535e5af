import type { CustomFieldRecordType } from '../../domain/custom-fields.ts';
import { isEventObjectType } from '../../domain/events.ts';
import type { BuiltInFieldType } from '../../domain/field-catalogue.ts';
import { CHUNK } from '../by-id.ts';
import type { Executor, Store } from '../database.ts';
import type { EventLog } from '../outbox/event-log.ts';
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
  events?: EventLog,
): Promise<void> {
  if (touched.isEmpty) return;
  const l = lookups ?? (await Lookups.load(trx, workspaceId));
  for (const type of Object.keys(TABLE_OF) as RenderedType[]) {
    if (touched.allOf.has(type)) {
      await refreshAllOf(store, trx, workspaceId, type, l, events);
    } else if (touched.ids[type].size > 0) {
      const ids = [...touched.ids[type]];
      for (let i = 0; i < ids.length; i += CHUNK) {
        const chunk = ids.slice(i, i + CHUNK);
        await renderChunk(store, trx, workspaceId, type, chunk, l, undefined, events);
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
  events?: EventLog,
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
    await renderChunk(store, trx, workspaceId, type, ids, lookups, rows, events);
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
  rows: readonly unknown[] | undefined,
  events: EventLog | undefined,
): Promise<void> {
  const rendered = await RENDERERS[type](trx, ws, ids, l, rows);
  if (events && isEventObjectType(type) && rendered.length > 0) {
    const before = await storedBodies(trx, TABLE_OF[type], ws, ids);
    const types = fieldTypes(type, l);
    for (const [id, json] of rendered)
      events.rendered(type, id, before.get(id) ?? null, json, types);
  }
  await store.updateBodies(TABLE_OF[type], ws, rendered, trx);
}

/** The JSON stored for records `ids` (records without any are left out). */
async function storedBodies(
  trx: Executor,
  table: string,
  ws: string,
  ids: readonly string[],
): Promise<Map<string, string>> {
  const rows = await trx
    .selectFrom(table as 'people')
    .select(['id', 'body'])
    .where('workspace_id', '=', ws)
    .where('id', 'in', ids)
    .execute();
  const bodies = new Map<string, string>();
  for (const row of rows) {
    if (row.body !== null)
      bodies.set(row.id, typeof row.body === 'string' ? row.body : row.body.toString('utf8'));
  }
  return bodies;
}

/** The types of a record type's custom fields, by name, for the values of `수정` events. */
function fieldTypes(type: CustomFieldRecordType, l: Lookups): Map<string, BuiltInFieldType> {
  return new Map(l.definitions(type).map((d) => [d.name, d.type]));
}

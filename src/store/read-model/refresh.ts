import type { CustomFieldRecordType } from '../../domain/custom-fields.ts';
import { type EventFieldType, fieldTypeKey, isEventObjectType } from '../../domain/events.ts';
import { CHUNK } from '../by-id.ts';
import type { PendingWrites } from '../close-write.ts';
import type { Executor, Store } from '../database.ts';
import type { EventLog } from '../outbox/event-log.ts';
import { Lookups } from './lookups.ts';
import { recountChunk } from './recount.ts';
import { type FactTables, type Prefetched, RENDERERS, type Rendered } from './render-chunks.ts';
import { type RenderedType, TABLE_OF } from './rendered-types.ts';
import { indexRendered, isIndexedType } from './search-index.ts';
import type { CountingType, Touched } from './touched.ts';

/** What `refreshTouched` refreshes, and what the write knows that spares it work. */
export interface RefreshInput {
  store: Store;
  trx: Executor;
  workspaceId: string;
  /** The records the write touched. */
  touched: Touched;
  /** The workspace's lookups, when the write has them (else read here). */
  lookups?: Lookups;
  /** The write's event log: renderers add the events of what changed. */
  events?: EventLog;
  /** The tables the write wrote, when it knows every one. */
  written?: ReadonlySet<string>;
  /** PostgreSQL: what waits for the write's last statement. */
  pending?: PendingWrites;
  /** The tables whose rows the write updated or deleted. */
  changed?: ReadonlySet<string>;
}

/**
 * Re-renders every touched record of the workspace and stores its JSON. `written`, when the
 * write knows every table it changed, lets the records it created skip reading the tables
 * that cannot hold anything of theirs yet; with `changed` (the tables whose rows it updated
 * or deleted), it renders them from the rows their inserts returned when their table is not
 * among those. With `pending` (PostgreSQL), the JSON of records touched by id and their
 * index rows wait there for the write's last statement. People and organizations marked for
 * their counts alone get them patched into their stored JSON (`recount.ts`).
 */
export async function refreshTouched(input: RefreshInput): Promise<void> {
  const { store, trx, workspaceId, touched, lookups, events, written, pending, changed } = input;
  if (touched.isEmpty) return;
  const l = lookups ?? (await Lookups.load(trx, workspaceId));
  for (const type of Object.keys(TABLE_OF) as RenderedType[]) {
    if (touched.allOf.has(type)) {
      await refreshAllOf(store, trx, workspaceId, type, l, events);
      continue;
    }
    const ids = [...touched.ids[type]];
    if (isCountingType(type)) {
      const counted = [...touched.counted[type]].filter((id) => !touched.ids[type].has(id));
      for (let i = 0; i < counted.length; i += CHUNK) {
        const chunk = counted.slice(i, i + CHUNK);
        const { rendered, unrendered } = await recountChunk(trx, workspaceId, type, chunk);
        await keepRendered(store, trx, workspaceId, type, rendered, l, events, pending);
        ids.push(...unrendered);
      }
    }
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK);
      const created = written && chunk.every((id) => touched.created[type].has(id));
      const reads = created ? (table: string) => written.has(table) : undefined;
      const inserted =
        created && changed && !changed.has(TABLE_OF[type])
          ? insertedRows(touched, type, chunk)
          : undefined;
      await renderChunk(store, trx, workspaceId, type, chunk, l, inserted, events, reads, pending);
    }
  }
}

/**
 * The rows the inserts of `ids` returned, in id order (the order reading them by id gives),
 * when every one of them did; else undefined.
 */
function insertedRows(
  touched: Touched,
  type: RenderedType,
  ids: readonly string[],
): Prefetched | undefined {
  const known = touched.inserted[type];
  if (!ids.every((id) => known.has(id))) return undefined;
  const sorted = [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { rows: sorted.map((id) => known.get(id)), page: false };
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
    await renderChunk(store, trx, workspaceId, type, ids, lookups, { rows, page: true }, events);
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
  prefetched: Prefetched | undefined,
  events: EventLog | undefined,
  reads?: FactTables,
  pending?: PendingWrites,
): Promise<void> {
  const rendered = await RENDERERS[type](trx, ws, ids, l, prefetched, reads);
  await keepRendered(store, trx, ws, type, rendered, l, events, pending);
}

/** Records' JSON rendered afresh: the events of what changed in it, then the JSON stored. */
async function keepRendered(
  store: Store,
  trx: Executor,
  ws: string,
  type: RenderedType,
  rendered: readonly Rendered[],
  l: Lookups,
  events: EventLog | undefined,
  pending: PendingWrites | undefined,
): Promise<void> {
  if (events && isEventObjectType(type) && rendered.length > 0) {
    const types = fieldTypes(type, l);
    for (const [id, json, before] of rendered) events.rendered(type, id, before, json, types);
  }
  await storeRendered(store, trx, ws, type, rendered, l, pending);
}

function isCountingType(type: RenderedType): type is CountingType {
  return type === 'people' || type === 'organization';
}

/**
 * Stores records' rendered JSON and what derives from it in the same transaction: the
 * `body` column and the search index (`indexRendered`). Every writer of rendered JSON
 * goes through here (the refresh above, `verify --repair`); a new one must too.
 * `rendered` holds `[id, json, before]`, `before` the JSON stored until now (null: none).
 * With `pending`, while it has room, both wait for the write's last statement instead.
 */
export async function storeRendered(
  store: Store,
  trx: Executor,
  ws: string,
  type: RenderedType,
  rendered: readonly Rendered[],
  l: Lookups,
  pending?: PendingWrites,
): Promise<void> {
  const entries = rendered.map(([id, json]): [string, string] => [id, json]);
  const keep = pending?.room(rendered.length) ? pending : undefined;
  if (keep) keep.keepBodies(TABLE_OF[type], entries);
  else await store.updateBodies(TABLE_OF[type], ws, entries, trx);
  if (isIndexedType(type))
    await indexRendered(store, trx, ws, type, l.definitions(type), rendered, keep);
}

/**
 * The types of a record type's custom fields, by `fieldTypeKey` (the name; a custom object's
 * also by definition), for the values of `수정` events (`sensitive` for the fields whose values
 * events must not show).
 */
export function fieldTypes(type: CustomFieldRecordType, l: Lookups): Map<string, EventFieldType> {
  return new Map(
    l
      .definitions(type)
      .map((d) => [
        fieldTypeKey(d.name, d.customObjectDefinitionId),
        d.isSensitive ? 'sensitive' : d.type,
      ]),
  );
}

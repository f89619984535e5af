import { isEventObjectType } from '../../domain/events.ts';
import { indexedFields } from '../../domain/search-values.ts';
import type { Body } from '../../model/tables.ts';
import { CHUNK } from '../by-id.ts';
import { catalogAt, readCatalogVersion } from '../catalog.ts';
import type { Executor, Store } from '../database.ts';
import { writeWorkspace } from '../write.ts';
import { Lookups } from './lookups.ts';
import { storedJson } from './record-json.ts';
import { fieldTypes, storeRendered } from './refresh.ts';
import { RENDERERS } from './render-chunks.ts';
import { type RenderedType, TABLE_OF } from './rendered-types.ts';
import {
  compareIndex,
  type IndexDifference,
  isIndexedType,
  reindexRecords,
} from './search-index.ts';

/** A record whose stored JSON is not what its base tables render. */
export interface BodyDifference {
  type: RenderedType;
  id: string;
  /** The stored JSON (null: none stored). */
  stored: string | null;
  /** The JSON rendered from the base tables. */
  rendered: string;
}

/** What a verification found, by record type. */
export interface VerifyReport {
  /** Records whose search index rows differed from what their stored JSON gives. */
  indexDifferences: number;
  /** Of those, records whose index rows a repair rewrote. */
  indexRepaired: number;
  /** Records compared, by type. */
  checked: Record<RenderedType, number>;
  /** Records whose stored JSON differed. */
  differences: number;
  /** Of those, records whose JSON a repair rewrote. */
  repaired: number;
}

/** How `verifyWorkspace` runs. */
export interface VerifyOptions {
  /** Rewrite each differing record's JSON (one write transaction per chunk that has any). */
  repair?: boolean;
  /** Called for each difference, as it is found. */
  onDifference?: (difference: BodyDifference) => void;
  /** Called for each record whose search index rows differ from its stored JSON's. */
  onIndexDifference?: (difference: IndexDifference) => void;
  /** Records a chunk (default `CHUNK`). */
  chunk?: number;
}

const TYPES = Object.keys(TABLE_OF) as RenderedType[];

/**
 * Renders every record of the workspace again from its base tables, with the renderers of
 * the write path, and compares the JSON byte for byte with the stored `body`. Records are
 * read `chunk` at a time by id, each chunk in a read transaction of its own (one snapshot:
 * its rows, their facts and the catalog agree), so memory stays bounded and the service
 * keeps serving. With `repair`, each chunk's differing records are rendered again and
 * written inside one `writeWorkspace` transaction (see `repairChunk`). On SQLite the
 * snapshots are held on the store's reader connection, which the store's other reads share
 * meanwhile: run it on a store of its own (`salescrm verify` opens one), not one serving
 * requests.
 */
export async function verifyWorkspace(
  store: Store,
  workspaceId: string,
  options: VerifyOptions = {},
): Promise<VerifyReport> {
  const size = options.chunk ?? CHUNK;
  const checked = Object.fromEntries(TYPES.map((t) => [t, 0])) as Record<RenderedType, number>;
  let differences = 0;
  let repaired = 0;
  let indexDifferences = 0;
  let indexRepaired = 0;
  for (const type of TYPES) {
    let after = '';
    for (;;) {
      const chunk = await inSnapshot(store, (trx) =>
        compareChunk(store, trx, workspaceId, type, after, size),
      );
      if (chunk.count === 0) break;
      checked[type] += chunk.count;
      after = chunk.last;
      if (chunk.index.length > 0) {
        indexDifferences += chunk.index.length;
        for (const d of chunk.index) options.onIndexDifference?.(d);
        if (options.repair) indexRepaired += await repairIndex(store, workspaceId, chunk.index);
      }
      if (chunk.differences.length === 0) continue;
      differences += chunk.differences.length;
      for (const d of chunk.differences) options.onDifference?.(d);
      if (options.repair) {
        const ids = chunk.differences.map((d) => d.id);
        repaired += await repairChunk(store, workspaceId, type, ids);
      }
    }
  }
  return { checked, differences, repaired, indexDifferences, indexRepaired };
}

/** Runs `fn` in a read transaction: a snapshot (SQLite's reader connection; PostgreSQL's repeatable read). */
function inSnapshot<T>(store: Store, fn: (trx: Executor) => Promise<T>): Promise<T> {
  const begin = store.reader.transaction();
  return (
    store.dialect === 'postgres' ? begin.setIsolationLevel('repeatable read') : begin
  ).execute(fn);
}

interface ComparedChunk {
  count: number;
  last: string;
  differences: BodyDifference[];
  /** Records whose search index rows differ from their stored JSON's. */
  index: IndexDifference[];
}

/** Renders the next `size` records of `type` after id `after` and compares their JSON. */
async function compareChunk(
  store: Store,
  trx: Executor,
  workspaceId: string,
  type: RenderedType,
  after: string,
  size: number,
): Promise<ComparedChunk> {
  const rows = await trx
    .selectFrom(TABLE_OF[type] as 'people')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '>', after)
    .orderBy('id')
    .limit(size)
    .execute();
  if (rows.length === 0) return { count: 0, last: after, differences: [], index: [] };
  const ids = rows.map((r) => r.id);
  const stored = new Map(rows.map((r) => [r.id, r.body]));
  // The catalog as of this snapshot, kept between chunks while its version stays.
  const version = await readCatalogVersion(trx, workspaceId);
  const lookups = new Lookups(trx, workspaceId, await catalogAt(store, trx, workspaceId, version));
  const rendered = await RENDERERS[type](trx, workspaceId, ids, lookups, { rows, page: true });
  const differences: BodyDifference[] = [];
  for (const [id, json] of rendered) {
    const body = stored.get(id) ?? null;
    if (sameBytes(store, body, json)) continue;
    differences.push({ type, id, stored: storedJson(body), rendered: json });
  }
  const differing = new Set(differences.map((d) => d.id));
  const index = isIndexedType(type)
    ? await compareIndex(
        trx,
        workspaceId,
        type,
        indexedFields(type, lookups.definitions(type)),
        // A record whose JSON differs is the body's difference; its repair writes its rows.
        new Map(rows.filter((r) => !differing.has(r.id)).map((r) => [r.id, storedJson(r.body)])),
      )
    : [];
  return { count: rows.length, last: ids[ids.length - 1]!, differences, index };
}

/** Whether the stored body holds exactly the bytes of `json` (its UTF-8 on SQLite). */
function sameBytes(store: Store, body: Body | null, json: string): boolean {
  if (body === null) return false;
  if (typeof body === 'string') return body === json;
  return store.dialect === 'sqlite' ? body.equals(Buffer.from(json)) : body.toString() === json;
}

/**
 * Rewrites the JSON of records `ids` in one write transaction of the workspace: under its
 * writer lock they are rendered again (a write since the comparison may have fixed them)
 * and stored, the workspace's data version moves (cached pages of it are dropped), and the
 * events a change of the JSON makes are written: a `수정` per changed key, by the system,
 * as `refreshTouched` makes them. A record whose stored body was missing or not a JSON
 * object gets no events: there is no before to compare, and a `생성` would be untrue.
 * Returns how many records were rewritten.
 */
async function repairChunk(
  store: Store,
  workspaceId: string,
  type: RenderedType,
  ids: string[],
): Promise<number> {
  return writeWorkspace(store, workspaceId, async (w) => {
    const lookups = new Lookups(w.trx, workspaceId, await w.catalog!());
    const rendered = await RENDERERS[type](w.trx, workspaceId, ids, lookups);
    const changed = rendered.filter(([, json, before]) => json !== before);
    if (isEventObjectType(type)) {
      const types = fieldTypes(type, lookups);
      for (const [id, json, before] of changed) {
        if (before !== null) w.events.rendered(type, id, before, json, types);
      }
    }
    await storeRendered(store, w.trx, workspaceId, type, changed, lookups);
    return changed.length;
  });
}

/**
 * Rewrites the search index rows of records from their stored JSON, as it is under the
 * workspace's writer lock (a body repaired meanwhile has its rows written already).
 */
async function repairIndex(
  store: Store,
  workspaceId: string,
  differences: readonly IndexDifference[],
): Promise<number> {
  return writeWorkspace(store, workspaceId, async (w) => {
    const type = differences[0]!.type;
    const definitions = new Lookups(w.trx, workspaceId, await w.catalog!()).definitions(type);
    const rows = await w.trx
      .selectFrom(TABLE_OF[type] as 'people')
      .select(['id', 'body'])
      .where('workspace_id', '=', workspaceId)
      .where(
        'id',
        'in',
        differences.map((d) => d.id),
      )
      .execute();
    const entries = rows.map((r) => [r.id, storedJson(r.body) ?? 'null'] as const);
    await reindexRecords(store, w.trx, workspaceId, type, definitions, entries);
    return differences.length;
  });
}

/** The first key where two JSON texts differ, with both values (undefined: absent). */
export interface KeyDifference {
  /** The key, or a note in parentheses: `(no body)`, `(not JSON)`, `(key order)`, `(bytes)`. */
  key: string;
  stored?: unknown;
  rendered?: unknown;
}

/**
 * Where a stored record JSON first departs from the rendered one: the first of the
 * rendered keys whose value differs, else a key only the stored JSON has, else the order of
 * the keys or their bytes (the same values written differently).
 */
export function firstDifference(stored: string | null, rendered: string): KeyDifference {
  if (stored === null) return { key: '(no body)' };
  let before: Record<string, unknown>;
  try {
    before = JSON.parse(stored);
  } catch {
    return { key: '(not JSON)', stored };
  }
  const after = JSON.parse(rendered) as Record<string, unknown>;
  if (typeof before !== 'object' || before === null || Array.isArray(before)) {
    return { key: '(not JSON)', stored: before };
  }
  for (const [key, value] of Object.entries(after)) {
    if (!(key in before)) return { key, rendered: value };
    if (JSON.stringify(before[key]) !== JSON.stringify(value)) {
      return { key, stored: before[key], rendered: value };
    }
  }
  for (const [key, value] of Object.entries(before)) {
    if (!(key in after)) return { key, stored: value };
  }
  return {
    key: Object.keys(before).join() === Object.keys(after).join() ? '(bytes)' : '(key order)',
  };
}

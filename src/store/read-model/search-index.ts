import { sql } from 'kysely';
import type { CustomFieldDefinition } from '../../domain/custom-fields.ts';
import {
  INDEXED_TYPES,
  type IndexedField,
  type IndexedType,
  indexedFields,
  indexRowsOf,
} from '../../domain/search-values.ts';
import type { PendingWrites } from '../close-write.ts';
import type { Executor, Store } from '../database.ts';

/**
 * The search index (`search_values`, migration 012): per workspace, record type and field,
 * each value a record's stored JSON holds, typed so it sorts (`indexValues`), and the
 * record's id. It mirrors the stored JSON: whatever writes a record's `body` of an indexed
 * type writes its rows in the same transaction through `indexRendered` (the read model's
 * `renderChunk` and `verify --repair` do; a new writer of bodies calls it too). Deleting a
 * record or a custom field deletes their rows (triggers of migration 012), and a field's
 * rename changes nothing (rows are keyed by the field's id).
 */

/** Whether records of `type` are in the search index. */
export function isIndexedType(type: string): type is IndexedType {
  return (INDEXED_TYPES as readonly string[]).includes(type);
}

/** Rows a statement inserts at most (9 values a row, under SQLite's 32,766 variables). */
const INSERT_ROWS = 500;

/**
 * Rows one SQLite insert of `writeDifference` takes at most: a record's rows go in one
 * statement (a create writes about ten), and the statements cached, one per row count, stay
 * few. 5 values a row, far under SQLite's 32,766 variables.
 */
const EACH_INSERT_ROWS = 64;

/** The text of SQLite's insert of `rows` index rows, by row count (the statement cache's key). */
const insertTexts: string[] = [];

function insertText(rows: number): string {
  insertTexts[rows] ??=
    `insert or ignore into search_values (workspace_id, record_type, field, value, record_id) values ${Array.from({ length: rows }, () => '(?, ?, ?, ?, ?)').join(', ')}`;
  return insertTexts[rows];
}

/**
 * Brings the index rows of records up to date with their new JSON: `entries` are
 * `[id, json, before]`, `before` the JSON stored for the record until now (null: none, a
 * record the write created). A record whose JSON did not change costs nothing; for one
 * that had JSON, the rows the index holds are read and compared with the new JSON's, and
 * only the difference written (so the index mends itself at the record's next change).
 * `definitions` are the custom fields of `type`, as the renderer saw them. With `pending`
 * (PostgreSQL), the difference waits there for the write's last statement.
 */
export async function indexRendered(
  store: Pick<Store, 'runEach'>,
  trx: Executor,
  workspaceId: string,
  type: string,
  definitions: readonly CustomFieldDefinition[],
  entries: readonly (readonly [id: string, json: string, before: string | null])[],
  pending?: PendingWrites,
): Promise<void> {
  if (!isIndexedType(type)) return;
  const changed = entries.filter(([, json, before]) => json !== before);
  if (changed.length === 0) return;
  const stored = changed.filter(([, , before]) => before !== null).map(([id]) => id);
  const fields = indexedFields(type, definitions);
  await writeDifference(store, trx, workspaceId, type, fields, changed, stored, pending);
}

/**
 * Rewrites the index rows of records from their stored JSON (`entries`: `[id, json]`),
 * whatever the index holds of them: `salescrm verify --repair`.
 */
export async function reindexRecords(
  store: Pick<Store, 'runEach'>,
  trx: Executor,
  workspaceId: string,
  type: IndexedType,
  definitions: readonly CustomFieldDefinition[],
  entries: readonly (readonly [id: string, json: string])[],
): Promise<void> {
  const ids = entries.map(([id]) => id);
  const fields = indexedFields(type, definitions);
  await writeDifference(store, trx, workspaceId, type, fields, entries, ids);
}

/** Writes the difference between the rows held of records `stored` (others: none) and their JSON's. */
async function writeDifference(
  store: Pick<Store, 'runEach'>,
  trx: Executor,
  workspaceId: string,
  type: IndexedType,
  fields: readonly IndexedField[],
  changed: readonly (readonly [id: string, json: string, ...unknown[]])[],
  stored: readonly string[],
  pending?: PendingWrites,
): Promise<void> {
  const held = await heldRows(trx, workspaceId, type, stored);
  const gone: [id: string, key: string, value: string][] = [];
  const added: [id: string, key: string, value: string][] = [];
  for (const [id, json] of changed) {
    const now = indexRowsOf(fields, json);
    const then = held.get(id);
    if (then) for (const row of then) if (!now.has(row)) gone.push(split(id, row));
    for (const row of now) if (!then?.has(row)) added.push(split(id, row));
  }
  if (pending) {
    pending.keepIndexRows(type, gone, added);
    return;
  }
  if (store.runEach) {
    // SQLite: cached statements on the write connection (no query to build): a delete per
    // row, an insert per (at most) `EACH_INSERT_ROWS` rows.
    if (gone.length > 0)
      store.runEach(
        'delete from search_values where workspace_id = ? and record_type = ? and field = ? and value = ? and record_id = ?',
        gone.map(([id, key, value]) => [workspaceId, type, key, value, id]),
      );
    for (let i = 0; i < added.length; i += EACH_INSERT_ROWS) {
      const chunk = added.slice(i, i + EACH_INSERT_ROWS);
      store.runEach(insertText(chunk.length), [
        chunk.flatMap(([id, key, value]) => [workspaceId, type, key, value, id]),
      ]);
    }
    return;
  }
  await deleteRows(trx, workspaceId, type, gone);
  await insertRows(trx, workspaceId, type, added);
}

/** The rows the index holds of records `ids` (`key \u0000 value`), by id. */
async function heldRows(
  trx: Executor,
  workspaceId: string,
  type: string,
  ids: readonly string[],
): Promise<Map<string, Set<string>>> {
  const held = new Map<string, Set<string>>(ids.map((id) => [id, new Set()]));
  for (let i = 0; i < ids.length; i += INSERT_ROWS) {
    const rows = await trx
      .selectFrom('search_values')
      .select(['record_id', 'field', 'value'])
      .where('workspace_id', '=', workspaceId)
      .where('record_id', 'in', ids.slice(i, i + INSERT_ROWS))
      .where('record_type', '=', type)
      .execute();
    for (const r of rows) held.get(r.record_id)?.add(`${r.field}\u0000${r.value}`);
  }
  return held;
}

function split(id: string, row: string): [string, string, string] {
  const at = row.indexOf('\u0000');
  return [id, row.slice(0, at), row.slice(at + 1)];
}

async function deleteRows(
  trx: Executor,
  workspaceId: string,
  type: string,
  rows: readonly [string, string, string][],
): Promise<void> {
  if (rows.length === 0) return;
  const col = (i: number) => rows.map((r) => r[i]);
  await sql`delete from search_values as s using unnest(${col(0)}::text[], ${col(1)}::text[], ${col(2)}::text[]) as g(id, field, value)
    where s.workspace_id = ${workspaceId} and s.record_type = ${type} and s.field = g.field
      and s.value = g.value and s.record_id = g.id`.execute(trx);
}

async function insertRows(
  trx: Executor,
  workspaceId: string,
  type: string,
  rows: readonly [string, string, string][],
): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_ROWS) {
    const values = rows.slice(i, i + INSERT_ROWS).map(([id, field, value]) => ({
      workspace_id: workspaceId,
      record_type: type,
      field,
      value,
      record_id: id,
    }));
    // A record's rows are distinct, and written once a transaction: no conflict to expect,
    // but a row already there (an index repaired by hand) is no error.
    await trx
      .insertInto('search_values')
      .values(values)
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

/** One record's index rows as the index holds them and as its JSON gives them. */
export interface IndexDifference {
  type: IndexedType;
  id: string;
  /** Rows the index holds that the JSON does not give (`key \u0000 value`). */
  extra: string[];
  /** Rows the JSON gives that the index lacks. */
  missing: string[];
}

/**
 * Compares the index rows of records `ids` of `type` with the rows their stored JSON gives
 * (`bodies`: id to JSON, null for none); returns the records that differ.
 */
export async function compareIndex(
  trx: Executor,
  workspaceId: string,
  type: IndexedType,
  fields: readonly IndexedField[],
  bodies: ReadonlyMap<string, string | null>,
): Promise<IndexDifference[]> {
  const held = await heldRows(trx, workspaceId, type, [...bodies.keys()]);
  const differences: IndexDifference[] = [];
  for (const [id, json] of bodies) {
    const want = indexRowsOf(fields, json);
    const have = held.get(id)!;
    const extra = [...have].filter((r) => !want.has(r));
    const missing = [...want].filter((r) => !have.has(r));
    if (extra.length > 0 || missing.length > 0) differences.push({ type, id, extra, missing });
  }
  return differences;
}

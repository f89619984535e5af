import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { newId } from '../../domain/ids.ts';
import { now } from '../../domain/time.ts';
import { WORKSPACE_TABLES } from '../../model/tables.ts';
import type { Executor, Store } from '../../store/database.ts';

/**
 * Tables a copy leaves out: a new workspace has no tokens of the one it copies, no events
 * (its feed starts with its first change), no webhooks, deliveries or streams, and no files.
 */
const NOT_COPIED: ReadonlySet<string> = new Set([
  'access_tokens',
  'events',
  'webhooks',
  'webhook_deliveries',
  'webhook_attempts',
  'webhook_streams',
  'webhook_sent',
  'files',
  'file_chunks',
]);

const COPIED = WORKSPACE_TABLES.filter((t) => !NOT_COPIED.has(t));

/** A copy to make: its new workspace id and name. */
export interface WorkspaceCopy {
  id: string;
  name: string;
}

/** New ids for `count` copies named `name 2`, `name 3`, … (the copied workspace is `name 1`). */
export function copiesOf(name: string, count: number, firstNumber = 2): WorkspaceCopy[] {
  return Array.from({ length: count }, (_, i) => ({
    id: newId(),
    name: `${name} ${firstNumber + i}`,
  }));
}

/**
 * Copies every row of workspace `from` (its records with their rendered JSON and search
 * index rows, users, teams, pipelines, fields…) into each of `copies`, new workspaces with
 * a cursor secret of their own, in the caller's transaction: one `insert … select` a table
 * for all the copies at once, so the database does the work and no record is rendered
 * again. Record ids are kept: they are unique within a workspace, and every key and index
 * starts with the workspace. Tokens, events, webhooks and files are not copied.
 */
export async function copyWorkspace(
  store: Store,
  trx: Executor,
  from: string,
  copies: readonly WorkspaceCopy[],
): Promise<void> {
  if (copies.length === 0) return;
  const source = await trx
    .selectFrom('workspaces')
    .select(['data_version'])
    .where('id', '=', from)
    .executeTakeFirstOrThrow();
  const at = now();
  await trx
    .insertInto('workspaces')
    .values(
      copies.map((c) => ({
        id: c.id,
        name: c.name,
        data_version: Number(source.data_version),
        cursor_secret: randomBytes(32).toString('base64url'),
        created_at: at,
      })),
    )
    .execute();
  const columns = await columnsOf(store, trx);
  const ids = copies.map((c) => c.id);
  for (const table of COPIED) {
    const rest = (columns.get(table) ?? []).filter((c) => c !== 'workspace_id');
    const list = sql.join(rest.map((c) => sql.ref(`t.${c}`)));
    const target = sql.join(['workspace_id', ...rest].map((c) => sql.id(c)));
    const each =
      store.dialect === 'postgres'
        ? sql`unnest(${ids}::text[]) as w(id)`
        : sql`(select value as id from json_each(${JSON.stringify(ids)})) as w`;
    await sql`insert into ${sql.table(table)} (${target})
      select w.id, ${list} from ${sql.table(table)} as t, ${each}
      where t.workspace_id = ${from}`.execute(trx);
  }
}

/** The columns of each workspace table, as the database lists them. */
async function columnsOf(store: Store, trx: Executor): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (store.dialect === 'postgres') {
    const { rows } = await sql<{ table_name: string; column_name: string }>`
      select table_name, column_name from information_schema.columns
      where table_schema = current_schema() and is_generated = 'NEVER'
      order by table_name, ordinal_position`.execute(trx);
    for (const r of rows) {
      const list = out.get(r.table_name);
      if (list) list.push(r.column_name);
      else out.set(r.table_name, [r.column_name]);
    }
    return out;
  }
  for (const table of COPIED) {
    const { rows } = await sql<{ name: string }>`
      select name from pragma_table_info(${table})`.execute(trx);
    out.set(
      table,
      rows.map((r) => r.name),
    );
  }
  return out;
}

import { sql } from 'kysely';
import type { WorkspaceWrite } from '../write.ts';
import { type RenderedType, TABLE_OF } from './rendered-types.ts';

/** Keys of the objects nested in stored records (Refs): a custom field named so is re-rendered. */
const NESTED_KEYS = new Set(['id', 'name']);

/**
 * Renames a custom field's key in the stored JSON of every record of a type, in the write's
 * transaction: what re-rendering them would give. A record that holds a value of the field
 * is marked for re-rendering (its body changes two keys, which are its events); in every
 * other record the key is null and stays in its place, so the key's text is replaced in one
 * UPDATE. In JSON text `,"key":` can only be an object key (a quote inside a string value is
 * escaped), and custom keys are the top-level object's own, after its `id`. Returns false
 * (nothing done) when the name is also a key of nested objects: the caller re-renders.
 */
export async function renameKey(
  w: Pick<WorkspaceWrite, 'trx' | 'workspaceId' | 'store' | 'touched'>,
  type: RenderedType,
  field: { id: string; from: string; to: string },
): Promise<boolean> {
  if (NESTED_KEYS.has(field.from)) return false;
  const table = sql.table(TABLE_OF[type]);
  const path = `$."${field.id}"`;
  const unset =
    w.store.dialect === 'sqlite'
      ? sql`json_extract(custom, ${path}) is null`
      : sql`(custom::jsonb -> ${field.id}) is null`;
  const held = await sql<{
    id: string;
  }>`select id from ${table} where workspace_id = ${w.workspaceId} and not (${unset})`.execute(
    w.trx,
  );
  for (const row of held.rows) w.touched.mark(type, row.id);
  const from = `,${JSON.stringify(field.from)}:`;
  const to = `,${JSON.stringify(field.to)}:`;
  const body =
    w.store.dialect === 'sqlite'
      ? sql`cast(replace(cast(body as text), ${from}, ${to}) as blob)`
      : sql`replace(body, ${from}, ${to})`;
  await sql`update ${table} set body = ${body} where workspace_id = ${w.workspaceId} and body is not null and ${unset}`.execute(
    w.trx,
  );
  return true;
}

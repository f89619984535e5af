import { sql } from 'kysely';
import type { WorkspaceWrite } from '../write.ts';
import { type RenderedType, TABLE_OF } from './rendered-types.ts';

/**
 * Adds `key: null` as the last key of the stored JSON of every record of a type in the
 * workspace, in the write's transaction: what re-rendering every record would give when a
 * custom field is defined (custom fields come last, in definition order, and a new field is
 * unset everywhere: docs/decisions.md, Record keys and Custom fields), at the cost of one UPDATE
 * that rewrites each body's last byte instead of reading and rendering every record with its facts.
 * Changes no value, so it makes no events (a re-render would make none either). Records not
 * rendered yet (no body) are left to their renderer.
 */
export async function appendNullKey(
  w: Pick<WorkspaceWrite, 'trx' | 'workspaceId' | 'store'>,
  type: RenderedType,
  key: string,
): Promise<void> {
  const table = sql.table(TABLE_OF[type]);
  const tail = `,${JSON.stringify(key)}:null}`;
  // Every stored body is a JSON object with at least its id: it ends with `}`.
  const body =
    w.store.dialect === 'sqlite'
      ? sql`cast(substr(body, 1, length(body) - 1) || ${tail} as blob)`
      : sql`left(body, -1) || ${tail}`;
  await sql`update ${table} set body = ${body} where workspace_id = ${w.workspaceId} and body is not null`.execute(
    w.trx,
  );
}

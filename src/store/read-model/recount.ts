import { jsonObject } from '../../domain/json-object.ts';
import { putDealCounters } from '../../domain/records.ts';
import type { Executor } from '../database.ts';
import { dealCountsOf } from './facts.ts';
import { NO_DEALS, storedJson } from './record-json.ts';
import type { Rendered } from './render-chunks.ts';
import { TABLE_OF } from './rendered-types.ts';
import type { CountingType } from './touched.ts';

/** What a recount made: the records' new JSON, and the ids it could not patch. */
export interface Recounted {
  rendered: Rendered[];
  /** Records with no stored JSON object (none yet, or a body damaged by hand): they need a whole rendering. */
  unrendered: string[];
}

/**
 * The stored JSON of people or organizations `ids` with their deal and lead counts read
 * afresh, for a write that changed nothing else of theirs (`Touched.markCounts`): the other
 * facts and names in the JSON are still those a whole rendering would give, since every
 * write that changes one of them marks the record for one. Patching the parsed JSON keeps
 * its keys in their place, so the text is the one a whole rendering makes (which
 * `salescrm verify` checks). Ids with no row are left out, as a rendering leaves them.
 */
export async function recountChunk(
  trx: Executor,
  ws: string,
  type: CountingType,
  ids: readonly string[],
): Promise<Recounted> {
  const rows = await trx
    .selectFrom(TABLE_OF[type] as 'people')
    .select(['id', 'body'])
    .where('workspace_id', '=', ws)
    .where('id', 'in', ids)
    .execute();
  const counts = await dealCountsOf(
    trx,
    ws,
    type === 'people' ? 'people_id' : 'organization_id',
    ids,
  );
  const out: Recounted = { rendered: [], unrendered: [] };
  for (const row of rows) {
    const before = storedJson(row.body);
    const record = before === null ? undefined : jsonObject(before);
    if (before === null || record === undefined) {
      out.unrendered.push(row.id);
      continue;
    }
    putDealCounters(record, counts.get(row.id) ?? NO_DEALS);
    out.rendered.push([row.id, JSON.stringify(record), before]);
  }
  return out;
}

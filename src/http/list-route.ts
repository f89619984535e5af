import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PageReader } from '../store/keyset.ts';
import { chooseFields, type FieldNames, readFieldChoice } from './field-choice.ts';
import { type ListPage, positionOf, renderListPage } from './list-page.ts';
import type { PageCache } from './page-cache.ts';
import { type ParsedQuery, readLimit, readQuery } from './query.ts';
import { nameIgnored, sendJson } from './send.ts';

/**
 * Answers a list request: from the page cache while the workspace's data is unchanged,
 * else from the page read ahead for its cursor, else one keyset page read from the store
 * and spliced into the envelope. A page with more after it has the next one read ahead.
 */
export async function sendListPage(
  request: FastifyRequest,
  reply: FastifyReply,
  cache: PageCache | undefined,
  query: ParsedQuery,
  page: () => ListPage | Promise<ListPage>,
  /** For a list of records: their field names, for `?fieldList=`. */
  fields?: FieldNames,
): Promise<FastifyReply> {
  nameIgnored(reply, query);
  const { auth } = request;
  const key = `${auth.workspaceId}\u0000${request.url}`;
  const cached = cache?.get(key, auth.dataVersion);
  if (cached) return sendJson(reply, cached);
  const limit = readLimit(query.values.limit);
  const chosen =
    fields && (await readFieldChoice(query.values.fieldList, auth.workspaceId, fields));
  const list = await page();
  const { cursor } = query.values;
  // A walk is named by its list and filters (the cursor's scope) and its page size. A page
  // read ahead is found by the very cursor this server issued for it, so that cursor needs
  // no second check; any other is checked before the store is read.
  const walk = `${auth.workspaceId}\u0000${list.scope}\u0000${limit}\u0000`;
  const ahead = cache?.readAhead;
  const rendered =
    (cursor !== undefined ? await ahead?.take(walk + cursor, auth.dataVersion) : undefined) ??
    (await renderListPage(
      list,
      auth.cursorSecret,
      cursor === undefined ? undefined : positionOf(list, auth.cursorSecret, cursor),
      limit,
    ));
  const bytes = chosen ? chooseFields(rendered.bytes, list.listKey, chosen) : rendered.bytes;
  cache?.set(key, auth.dataVersion, bytes);
  const { next } = rendered;
  if (ahead && next) {
    // Once the whole answer is with the OS: a large page may not fit the socket's buffer at
    // once, and its rest would wait for the read-ahead to give the event loop back.
    reply.raw.once('finish', () =>
      ahead.start(walk + next.cursor, auth.dataVersion, () =>
        renderListPage(list, auth.cursorSecret, next.after, limit),
      ),
    );
  }
  return sendJson(reply, bytes);
}

/** A list endpoint with no filters but `cursor` and `limit`. */
export interface PlainList {
  /** Path under the base, e.g. `/v2/people`; also the cursor's scope. */
  path: string;
  listKey: string;
  cursorKeys: readonly string[];
  page: PageReader;
  /** The listed records' field names: the list then takes `?fieldList=`. */
  fields?: FieldNames;
}

/** Registers a plain list endpoint (shape A errors). */
export function registerPlainList(
  app: FastifyInstance,
  cache: PageCache | undefined,
  base: string,
  list: PlainList,
): void {
  app.get(`${base}${list.path}`, { config: { errorShape: 'A' } }, async (request, reply) => {
    const query = readQuery(
      request.query,
      list.fields ? ['cursor', 'limit', 'fieldList'] : ['cursor', 'limit'],
    );
    return sendListPage(
      request,
      reply,
      cache,
      query,
      () => ({
        listKey: list.listKey,
        cursorKeys: list.cursorKeys,
        scope: list.path,
        fetch: (after, limit) => list.page(request.auth.workspaceId, {}, after, limit),
      }),
      list.fields,
    );
  });
}

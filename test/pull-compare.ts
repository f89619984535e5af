/**
 * Compares two workspaces through every read of the OpenAPI document: each GET of the API
 * (and the reads sent as POST: batch reads, pipeline and association lists), every path id
 * the workspace has, page by page, byte for byte. What may differ is named here: the
 * workspace's id (and its name in `room`), cursors (signed with each workspace's secret;
 * a note's `cursorId` is one); the reads of what a pull does not carry over are left out
 * by name (`NOT_COMPARED`). A file's bytes are compared with their headers.
 */
import type { FastifyInstance } from 'fastify';
import { OPERATIONS } from '../src/api-schema/operations/index.ts';
import { get, post } from './helpers.ts';

/** One workspace to compare. */
export interface Side {
  app: FastifyInstance;
  token: string;
  workspaceId: string;
}

/**
 * Reads not compared, and why: the event feed and webhooks are each workspace's own
 * (`docs/pull.md`).
 */
export const NOT_COMPARED: Record<string, string> = {
  '/v2/event': "each workspace's own feed",
  '/v2/webhook': "each workspace's own webhooks",
  '/v2/webhook/{webhookId}': "each workspace's own webhooks",
  '/v2/webhook/{webhookId}/delivery': "each workspace's own webhooks",
};

/** A page's text with what may differ masked. */
function masked(side: Side, text: string): string {
  return text
    .replaceAll(side.workspaceId, 'WS')
    .replace(/"room":\{"id":"WS","name":"[^"]*"\}/g, '"room":"R"')
    .replace(/"(nextCursor|nextCurosr|cursorId)":"[^"]*"/g, '"$1":"C"');
}

/** Every page of `url` (following the cursor), masked; stops after `maxPages`. */
async function pages(side: Side, url: string, maxPages = 1000): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | null = null;
  do {
    const sep = url.includes('?') ? '&' : '?';
    const res = await get(side.app, side.token, cursor ? `${url}${sep}cursor=${cursor}` : url);
    out.push(`${res.status} ${masked(side, res.text)}`);
    const data = res.json?.data;
    const next = data?.nextCurosr ?? data?.nextCursor;
    // The event feed's cursor never ends; the others end with null.
    cursor = typeof next === 'string' && next !== '' && url !== '/v2/event' ? next : null;
  } while (cursor && out.length < maxPages);
  return out;
}

/** Every record of a list on one side. */
async function all(side: Side, url: string, key: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (const page of await pages(side, url)) {
    const json = JSON.parse(page.slice(page.indexOf(' ') + 1));
    out.push(...(json.data?.[key] ?? []));
  }
  return out;
}

/** A difference: the read and the first differing page, on each side. */
export interface Difference {
  url: string;
  a: string;
  b: string;
}

/**
 * Compares every read of `a` and `b`; answers the reads compared and the differences (the
 * first page of each read that differs). With `idsPerRead`, the reads of one record (a
 * single record, its quotes, its activities) are compared for that many records of each
 * type, the lists and batch reads of every record still whole.
 */
export async function compareWorkspaces(
  a: Side,
  b: Side,
  options: { idsPerRead?: number } = {},
): Promise<{ reads: number; differences: Difference[] }> {
  /** The reads of one record (by path id or filter) compared for each: all, or the first few. */
  const some = (list: string[]) => list.slice(0, options.idsPerRead ?? list.length);
  const ids = {
    peopleId: (await all(a, '/v2/people', 'peopleList')).map((r) => r.id as string),
    organizationId: (await all(a, '/v2/organization', 'organizationList')).map(
      (r) => r.id as string,
    ),
    dealId: (await all(a, '/v2/deal', 'dealList')).map((r) => r.id as string),
    leadId: (await all(a, '/v2/lead', 'leadList')).map((r) => r.id as string),
    memoId: (await all(a, '/v2/memo', 'memoList')).map((r) => r.id as string),
    webFormId: (await all(a, '/v2/webForm', 'webFormList')).map((r) => r.id as string),
    sequenceId: (await all(a, '/v2/sequence', 'sequenceList')).map((r) => r._id as string),
    customObjectId: (await all(a, '/v2/custom-object', 'customObjectList')).map(
      (r) => r.id as string,
    ),
    productId: (await all(a, '/v2/product', 'productList')).map((r) => r.id as string),
    enrollId: [] as string[],
    fileId: [] as string[],
    emailId: [] as string[],
    recordingId: [] as string[],
    type: [
      'people',
      'organization',
      'deal',
      'lead',
      'product',
      'quote',
      'quote-product',
      'todo',
      'custom-object',
    ],
  };
  for (const s of ids.sequenceId) {
    const list = await all(a, `/v2/sequence/${s}/enrollment`, 'sequenceEnrollmentList');
    ids.enrollId.push(...list.map((e) => e._id as string));
  }
  // The e-mails and recordings the activities name; the files of every record.
  const emails = new Set<string>();
  for (const [url, key] of [
    ['/v2/deal/activity', 'dealActivityList'],
    ['/v2/people/activity', 'peopleActivityList'],
    ['/v2/organization/activity', 'organizationActivityList'],
    ['/v2/custom-object/activity', 'customObjectActivityList'],
  ] as const) {
    for (const act of await all(a, url, key)) {
      for (const k of ['emailMessageId', 'emailId'])
        if (typeof act[k] === 'string') emails.add(act[k] as string);
      if (typeof act.recordingId === 'string') ids.recordingId.push(act.recordingId);
    }
  }
  ids.emailId = [...emails];
  const fileLists: string[] = [];
  for (const [type, key] of [
    ['people', 'peopleId'],
    ['organization', 'organizationId'],
    ['deal', 'dealId'],
    ['lead', 'leadId'],
    ['product', 'productId'],
    ['customObject', 'customObjectId'],
  ] as const) {
    for (const id of ids[key]) {
      const url = `/v2/file?objectType=${type}&objectId=${id}`;
      fileLists.push(url);
      for (const f of await all(a, url, 'fileList')) ids.fileId.push(f.id as string);
    }
  }
  const definitions = (
    await all(a, '/v2/custom-object-definitions', 'customObjectDefinitionList')
  ).map((d) => d.id as string);
  const urls: string[] = [];
  const contents: string[] = [];
  for (const op of OPERATIONS) {
    if (op.method !== 'GET' || !op.api || NOT_COMPARED[op.path]) continue;
    if (op.path === '/v2/file') {
      urls.push(...fileLists);
      continue;
    }
    if (op.path.includes('/association/')) {
      for (const [type, key] of [
        ['people', 'peopleId'],
        ['organization', 'organizationId'],
        ['deal', 'dealId'],
        ['lead', 'leadId'],
        ['custom-object', 'customObjectId'],
      ] as const) {
        for (const id of ids[key].slice(0, 10)) {
          for (const to of ['people', 'organization', 'deal', 'lead', 'custom-object', 'memo']) {
            if (to === type) continue;
            urls.push(
              op.path
                .replace('{targetType}', type)
                .replace('{targetId}', id)
                .replace('{toTargetType}', to),
            );
          }
        }
      }
      continue;
    }
    const params = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    if (params.length === 0) {
      urls.push(op.path);
      // Each record's activities and history, filtered by its id.
      const filter = op.query.find((q) =>
        /^(people|organization|deal|lead|customObject)Id$/.test(q.name),
      );
      // A custom object's notes, and each definition's records and fields.
      if (op.path === '/v2/memo')
        for (const id of some(ids.customObjectId)) urls.push(`/v2/memo?customObjectId=${id}`);
      if (op.path === '/v2/custom-object')
        for (const d of definitions) urls.push(`/v2/custom-object?customObjectDefinitionId=${d}`);
      if (filter && !op.path.startsWith('/v2/memo')) {
        const key = filter.name as 'peopleId';
        for (const id of some(ids[key])) urls.push(`${op.path}?${key}=${id}`);
      }
      continue;
    }
    const param = params[0] as keyof typeof ids;
    for (const id of some(ids[param] ?? [])) {
      const url = op.path.replace(`{${param}}`, id);
      if (param === 'type' && id === 'custom-object')
        for (const d of definitions) urls.push(`${url}?customObjectDefinitionId=${d}`);
      if (param === 'fileId') contents.push(url);
      else urls.push(url);
    }
  }
  const differences: Difference[] = [];
  // Each file's bytes, with the headers that say what they are.
  for (const url of contents) {
    const [ra, rb] = await Promise.all(
      [a, b].map((side) =>
        side.app.inject({
          method: 'GET',
          url,
          headers: { authorization: `Bearer ${side.token}` },
        }),
      ),
    );
    const bytes = (r: typeof ra) =>
      `${r!.statusCode} ${['content-type', 'content-length', 'content-disposition'].map((h) => r!.headers[h]).join(' ')} ${r!.rawPayload.toString('base64')}`;
    const [ta, tb] = [bytes(ra), bytes(rb)];
    if (ta !== tb) differences.push({ url, a: ta, b: tb });
  }
  for (const url of urls) {
    const [pa, pb] = [await pages(a, url), await pages(b, url)];
    const at = pa.findIndex((p, i) => p !== pb[i]);
    if (at >= 0 || pa.length !== pb.length) {
      const i = at >= 0 ? at : Math.min(pa.length, pb.length);
      differences.push({ url, a: pa[i] ?? '(none)', b: pb[i] ?? '(none)' });
    }
  }
  // The reads sent as POST: batch reads of every record, pipelines and associations.
  const posts: [string, unknown][] = [];
  for (const [type, key] of [
    ['people', 'peopleId'],
    ['organization', 'organizationId'],
    ['deal', 'dealId'],
    ['lead', 'leadId'],
    ['customObject', 'customObjectId'],
  ] as const) {
    for (let i = 0; i < ids[key].length; i += 500) {
      posts.push(['/v3/object/read', { objectType: type, idList: ids[key].slice(i, i + 500) }]);
    }
    posts.push(['/v3/association/list', { objectType: type }]);
  }
  for (const type of ['deal', 'lead']) posts.push(['/v3/pipeline/list', { objectType: type }]);
  for (const [url, body] of posts) {
    const [ra, rb] = [await post(a.app, a.token, url, body), await post(b.app, b.token, url, body)];
    const [ta, tb] = [`${ra.status} ${masked(a, ra.text)}`, `${rb.status} ${masked(b, rb.text)}`];
    if (ta !== tb)
      differences.push({ url: `POST ${url} ${JSON.stringify(body).slice(0, 80)}`, a: ta, b: tb });
  }
  return { reads: urls.length + contents.length + posts.length, differences };
}

/** Where two texts first differ, with a little of each around it. */
export function firstDifference(d: Difference): string {
  let i = 0;
  while (i < d.a.length && d.a[i] === d.b[i]) i++;
  return `${d.url} at ${i}:\n  source: …${d.a.slice(Math.max(0, i - 150), i + 150)}\n  copy:   …${d.b.slice(Math.max(0, i - 150), i + 150)}`;
}

/**
 * A deal of `deals` whose delete on the source the copy can follow exactly: in no running
 * sequence, and named by no custom object (a deleted record keeps its id in the Refs that named
 * it, which the copy cannot hold: docs/pull.md, What is not carried over).
 */
export async function dealToDelete(
  app: FastifyInstance,
  token: string,
  deals: readonly Record<string, unknown>[],
): Promise<Record<string, unknown>> {
  const customObjects = JSON.stringify(
    (await get(app, token, '/v2/custom-object?limit=100')).json.data,
  );
  const gone = deals.find(
    (d) => !d['현재 진행중인 시퀀스 여부'] && !customObjects.includes(String(d.id)),
  );
  if (gone === undefined) throw new Error('no deal the copy can follow the delete of');
  return gone;
}

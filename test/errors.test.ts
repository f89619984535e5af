import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertProducts } from '../src/resources/products/writes.ts';
import { revokeToken } from '../src/resources/workspaces/writes.ts';
import { type EveryType, seedEveryType } from './every-type.ts';
import { type TestWorkspace, testApp, testStore, testWorkspace } from './helpers.ts';

type Shape = 'A' | 'B' | 'ok';

/** What a row of the table needs from the running test. */
interface Ctx {
  ws: TestWorkspace;
  other: TestWorkspace;
  data: EveryType;
  peopleCursor: string;
  orgCursor: string;
  dealCursor: string;
  otherOrgCursor: string;
}

/** One bad (or borderline) request and what must come back. */
interface Row {
  name: string;
  method?: InjectOptions['method'];
  url: (c: Ctx) => string;
  /** Authorization header: the workspace's token by default, null for none. */
  auth?: (c: Ctx) => string | null;
  headers?: Record<string, string>;
  payload?: string;
  status: number;
  shape: Shape;
  /** Text the message must contain, e.g. the offending parameter. */
  names?: string;
  check?: (res: LightMyRequestResponse, c: Ctx) => void;
}

const bearer = (c: Ctx) => `Bearer ${c.ws.token}`;
const dealUrl = (c: Ctx) => `/v2/deal/${c.data.deals[0]}`;
const quoteUrl = (c: Ctx) => `/v2/lead/${c.data.leads[0]}/quote`;

/** Every list and record read, with its error shape (docs/decisions.md, Error shapes). */
const ENDPOINTS: { label: string; url: (c: Ctx) => string; shape: 'A' | 'B' }[] = [
  { label: '/v2/people', url: () => '/v2/people', shape: 'A' },
  { label: '/v2/people/history', url: () => '/v2/people/history', shape: 'A' },
  { label: '/v2/organization', url: () => '/v2/organization', shape: 'A' },
  { label: '/v2/deal', url: () => '/v2/deal', shape: 'A' },
  { label: '/v2/deal/{dealId}', url: dealUrl, shape: 'B' },
  { label: '/v2/deal/activity', url: () => '/v2/deal/activity', shape: 'A' },
  { label: '/v2/lead', url: () => '/v2/lead', shape: 'A' },
  { label: '/v2/lead/{leadId}/quote', url: quoteUrl, shape: 'A' },
  { label: '/v2/product', url: () => '/v2/product', shape: 'A' },
];

/** Flips one character of a cursor's signed payload. */
function tamper(cursor: string): string {
  const flipped = cursor[0] === 'A' ? 'B' : 'A';
  return flipped + cursor.slice(1);
}

const authRows: Row[] = ENDPOINTS.flatMap(({ label, url, shape }) => {
  const at = (name: string, auth: (c: Ctx) => string | null): Row => ({
    name: `${name} on ${label}`,
    url,
    auth,
    status: 401,
    shape,
  });
  return [
    at('missing Authorization', () => null),
    at('Basic scheme', () => 'Basic dXNlcjpwYXNz'),
    at('Bearer without token', () => 'Bearer'),
    at('Bearer with empty token', () => 'Bearer '),
    at('Bearer with garbage', () => 'Bearer !!not*a&token'),
    at('Bearer with a 10 KB token', () => `Bearer ${'a'.repeat(10 * 1024)}`),
    at('unknown token', () => `Bearer scrm_${'x'.repeat(43)}`),
    at(
      'token of the right form, one char off',
      (c) => `Bearer ${c.ws.token.slice(0, -1)}${c.ws.token.endsWith('a') ? 'b' : 'a'}`,
    ),
  ];
});

const limitRows: Row[] = ['/v2/people', '/v2/deal', '/v2/product', '/v2/deal/activity'].flatMap(
  (path) =>
    ['0', '000', '-1', '1.5', 'abc', '1e3', '', '+5', ' 5', '0x10'].map(
      (value): Row => ({
        name: `limit=${JSON.stringify(value.slice(0, 12))} on ${path}`,
        url: () => `${path}?limit=${encodeURIComponent(value)}`,
        status: 400,
        shape: 'A',
        names: "'limit'",
      }),
    ),
);

const cursorRows: Row[] = [
  {
    name: 'garbage cursor',
    url: () => '/v2/people?cursor=garbage',
    status: 400,
    shape: 'A',
    names: "'cursor'",
  },
  {
    name: 'empty cursor',
    url: () => '/v2/people?cursor=',
    status: 400,
    shape: 'A',
    names: "'cursor'",
  },
  {
    name: 'cursor of only a dot',
    url: () => '/v2/people?cursor=.',
    status: 400,
    shape: 'A',
    names: "'cursor'",
  },
  {
    name: 'truncated cursor',
    url: (c) => `/v2/people?cursor=${c.peopleCursor.slice(0, -3)}`,
    status: 400,
    shape: 'A',
    names: "'cursor'",
  },
  {
    name: 'cursor without its signature',
    url: (c) => `/v2/people?cursor=${c.peopleCursor.split('.')[0]}`,
    status: 400,
    shape: 'A',
    names: "'cursor'",
  },
  {
    name: 'tampered cursor',
    url: (c) => `/v2/people?cursor=${tamper(c.peopleCursor)}`,
    status: 400,
    shape: 'A',
    names: "'cursor'",
  },
  {
    name: 'people cursor on /v2/organization',
    url: (c) => `/v2/organization?cursor=${c.peopleCursor}`,
    status: 400,
    shape: 'A',
    names: "'cursor'",
  },
  {
    name: 'people cursor on /v2/people/history',
    url: (c) => `/v2/people/history?cursor=${c.peopleCursor}`,
    status: 400,
    shape: 'A',
    names: "'cursor'",
  },
  {
    name: 'unfiltered deal cursor under a pipeline filter',
    url: (c) => `/v2/deal?pipelineName=${encodeURIComponent('신규 영업')}&cursor=${c.dealCursor}`,
    status: 400,
    shape: 'A',
    names: "'cursor'",
  },
  {
    name: 'deal cursor on /v2/lead',
    url: (c) => `/v2/lead?cursor=${c.dealCursor}`,
    status: 400,
    shape: 'A',
    names: "'cursor'",
  },
  {
    name: 'cursor from another workspace',
    url: (c) => `/v2/organization?cursor=${c.otherOrgCursor}`,
    status: 400,
    shape: 'A',
    names: "'cursor'",
  },
  {
    name: '5 KB cursor',
    url: () => `/v2/people?cursor=${'A'.repeat(5 * 1024)}`,
    status: 400,
    shape: 'A',
    names: "'cursor'",
  },
  {
    name: 'a real cursor with limit changed is fine',
    url: (c) => `/v2/people?limit=5&cursor=${c.peopleCursor}`,
    status: 200,
    shape: 'ok',
  },
];

const repeatRows: Row[] = [
  {
    name: 'limit twice',
    url: () => '/v2/people?limit=1&limit=2',
    status: 400,
    shape: 'A',
    names: "'limit'",
  },
  {
    name: 'cursor twice',
    url: () => '/v2/organization?cursor=a&cursor=b',
    status: 400,
    shape: 'A',
    names: "'cursor'",
  },
  {
    name: 'pipelineName twice',
    url: () => '/v2/deal?pipelineName=a&pipelineName=b',
    status: 400,
    shape: 'A',
    names: "'pipelineName'",
  },
];

const q = encodeURIComponent;
const pipelineRows: Row[] = [
  {
    name: 'unknown pipelineName',
    url: () => `/v2/deal?pipelineName=${q('없는 파이프라인')}`,
    status: 400,
    shape: 'A',
    names: "'pipelineName'",
  },
  {
    name: 'pipelineName of a lead pipeline',
    url: () => `/v2/deal?pipelineName=${q('리드 접수')}`,
    status: 400,
    shape: 'A',
    names: "'pipelineName'",
  },
  {
    name: 'empty pipelineName',
    url: () => '/v2/deal?pipelineName=',
    status: 400,
    shape: 'A',
    names: "'pipelineName'",
  },
  {
    name: 'unknown pipelineStageName',
    url: () => `/v2/deal?pipelineStageName=${q('없는 단계')}`,
    status: 400,
    shape: 'A',
    names: "'pipelineStageName'",
  },
  {
    name: 'stage of a lead pipeline only',
    url: () => `/v2/deal?pipelineStageName=${q('접수')}`,
    status: 400,
    shape: 'A',
    names: "'pipelineStageName'",
  },
  {
    name: 'stage not in the named pipeline',
    url: () => `/v2/deal?pipelineName=${q('재계약')}&pipelineStageName=${q('미팅')}`,
    status: 400,
    shape: 'A',
    names: "'pipelineStageName'",
  },
  {
    name: 'pipeline name is case- and space-exact',
    url: () => `/v2/deal?pipelineName=${q('신규영업')}`,
    status: 400,
    shape: 'A',
    names: "'pipelineName'",
  },
  {
    name: 'known pipeline and stage',
    url: () => `/v2/deal?pipelineName=${q('신규 영업')}&pipelineStageName=${q('미팅')}`,
    status: 200,
    shape: 'ok',
    check: (res, c) =>
      expect(res.json().data.dealList.map((d: { id: string }) => d.id)).toEqual([c.data.deals[0]]),
  },
];

const pathRows: Row[] = [
  { name: 'dealId %00', url: () => '/v2/deal/%00', status: 400, shape: 'B', names: "'dealId'" },
  {
    name: 'dealId of 100 chars',
    url: () => `/v2/deal/${'a'.repeat(100)}`,
    status: 400,
    shape: 'B',
    names: "'dealId'",
  },
  {
    name: 'dealId of 600 chars',
    url: () => `/v2/deal/${'a'.repeat(600)}`,
    status: 400,
    shape: 'B',
    names: "'dealId'",
  },
  {
    name: 'dealId with a space',
    url: () => '/v2/deal/a%20b',
    status: 400,
    shape: 'B',
    names: "'dealId'",
  },
  {
    name: 'dealId ../x (encoded slash)',
    url: () => '/v2/deal/..%2Fx',
    status: 400,
    shape: 'B',
    names: "'dealId'",
  },
  {
    name: 'dealId in Hangul',
    url: () => `/v2/deal/${q('딜')}`,
    status: 400,
    shape: 'B',
    names: "'dealId'",
  },
  {
    // `history`, `activity` and `pipeline` are routes under /v2/deal; `submit` is not.
    name: 'dealId reserved word submit',
    url: () => '/v2/deal/submit',
    status: 400,
    shape: 'B',
    names: "'dealId'",
  },
  {
    name: 'dealId invalid percent-encoding %FF',
    url: () => '/v2/deal/%FF',
    status: 400,
    shape: 'B',
    names: "'dealId'",
  },
  {
    name: 'dealId truncated percent-encoding',
    url: () => '/v2/deal/%E0%A4%A',
    status: 400,
    shape: 'B',
    names: "'dealId'",
  },
  { name: 'dealId a lone %', url: () => '/v2/deal/%', status: 400, shape: 'B', names: "'dealId'" },
  { name: 'unknown deal id', url: () => '/v2/deal/no-such-deal', status: 404, shape: 'B' },
  {
    name: 'a lead id as deal id',
    url: (c) => `/v2/deal/${c.data.leads[0]}`,
    status: 404,
    shape: 'B',
  },
  {
    name: 'leadId with a space',
    url: () => '/v2/lead/a%20b/quote',
    status: 400,
    shape: 'A',
    names: "'leadId'",
  },
  {
    name: 'leadId of 600 chars',
    url: () => `/v2/lead/${'a'.repeat(600)}/quote`,
    status: 400,
    shape: 'A',
  },
  {
    name: 'leadId invalid percent-encoding',
    url: () => '/v2/lead/%FF/quote',
    status: 400,
    shape: 'A',
  },
  {
    name: 'unknown lead id on /quote',
    url: () => '/v2/lead/no-such-lead/quote',
    status: 404,
    shape: 'A',
  },
  {
    name: 'a deal id on /quote',
    url: (c) => `/v2/lead/${c.data.deals[0]}/quote`,
    status: 404,
    shape: 'A',
  },
  { name: 'unknown route under /v2', url: () => '/v2/nope', status: 404, shape: 'A' },
  {
    name: 'unknown route, no token',
    url: () => '/v2/nope',
    auth: () => null,
    status: 404,
    shape: 'A',
  },
  { name: 'unknown version', url: () => '/v3/people', status: 404, shape: 'A' },
  { name: 'root', url: () => '/', status: 404, shape: 'A' },
  { name: 'path below the single deal', url: () => '/v2/deal/abc/def', status: 404, shape: 'A' },
  { name: 'one lead (not an endpoint)', url: () => '/v2/lead/abc', status: 404, shape: 'A' },
  { name: 'extra segment on a list', url: () => '/v2/people/abc/def', status: 404, shape: 'A' },
  {
    name: 'invalid percent-encoding on an unknown path',
    url: () => '/v2/people/%FF',
    status: 400,
    shape: 'A',
  },
  { name: 'path case matters', url: () => '/V2/people', status: 404, shape: 'A' },
  { name: '../x unencoded resolves to /v2/x', url: () => '/v2/deal/../x', status: 404, shape: 'A' },
  {
    name: 'percent-encoded /v2 prefix still needs a token',
    url: () => '/%762/people',
    auth: () => null,
    status: 401,
    shape: 'A',
  },
  {
    name: 'percent-encoded /v2 prefix with a token',
    url: () => '/%762/people',
    status: 200,
    shape: 'ok',
  },
  {
    name: 'percent-encoded single-deal path still needs a token',
    url: (c) => `/v2/de%61l/${c.data.deals[0]}`,
    auth: () => null,
    status: 401,
    shape: 'B',
  },
  { name: 'trailing slash is the same route', url: () => '/v2/people/', status: 200, shape: 'ok' },
];

const methodRows: Row[] = (
  [
    ['PUT', '/v2/people'],
    ['DELETE', '/v2/people'],
    ['PATCH', '/v2/organization'],
    ['PUT', '/v2/deal'],
    ['DELETE', '/v2/deal/abc'],
    ['PUT', '/v2/lead/abc/quote'],
    ['DELETE', '/v2/people/history'],
    ['OPTIONS', '/v2/product'],
  ] as const
).map(
  ([method, path]): Row => ({
    name: `${method} ${path}`,
    method,
    url: () => path,
    status: 405,
    shape: 'A',
    check: (res) => {
      // The methods the path has (GET, and POST where it takes writes), never the one asked.
      const allowed = String(res.headers.allow).split(', ');
      expect(allowed).toContain('GET');
      expect(allowed).not.toContain(method);
    },
  }),
);

const bodyRows: Row[] = [
  {
    name: 'POST body over 1 MiB',
    method: 'POST',
    url: () => '/v2/people',
    headers: { 'content-type': 'application/json' },
    payload: `"${'x'.repeat(1024 * 1024)}"`,
    status: 413,
    shape: 'A',
  },
  {
    name: 'POST body over 1 MiB to the single-deal path (not a GET: shape A)',
    method: 'POST',
    url: (c) => dealUrl(c),
    headers: { 'content-type': 'application/json' },
    payload: `"${'x'.repeat(1024 * 1024)}"`,
    status: 413,
    shape: 'A',
  },
  {
    name: 'GET with a body over 1 MiB: GET bodies are not read',
    url: () => '/v2/people',
    headers: { 'content-type': 'application/json' },
    payload: `"${'x'.repeat(1024 * 1024)}"`,
    status: 200,
    shape: 'ok',
  },
];

const paramRows: Row[] = [
  {
    name: 'unknown query params are named',
    url: () => '/v2/people?foo=1&bar=2',
    status: 200,
    shape: 'ok',
    check: (res) => expect(res.headers['x-ignored-parameters']).toBe('foo,bar'),
  },
  {
    name: 'unknown param given twice is named once',
    url: () => '/v2/organization?foo=1&foo=2&limit=1',
    status: 200,
    shape: 'ok',
    check: (res) => expect(res.headers['x-ignored-parameters']).toBe('foo'),
  },
  {
    name: 'live-API params on deals',
    url: () => '/v2/deal?limit=100&pipelineId=p1&peopleId=x',
    status: 200,
    shape: 'ok',
    check: (res) => expect(res.headers['x-ignored-parameters']).toBe('pipelineId,peopleId'),
  },
  {
    name: 'unknown param on the single deal',
    url: (c) => `${dealUrl(c)}?foo=1`,
    status: 200,
    shape: 'ok',
    check: (res) => expect(res.headers['x-ignored-parameters']).toBe('foo'),
  },
  {
    name: 'limit on /quote is unknown there',
    url: (c) => `${quoteUrl(c)}?limit=1`,
    status: 200,
    shape: 'ok',
    check: (res) => expect(res.headers['x-ignored-parameters']).toBe('limit'),
  },
  {
    name: 'unknown param names are percent-encoded where a header cannot carry them',
    url: () => `/v2/people?${q('한글')}=1&${q('a,b')}=2&${q('x%y')}=3&plain=4`,
    status: 200,
    shape: 'ok',
    check: (res) =>
      expect(res.headers['x-ignored-parameters']).toBe('%ED%95%9C%EA%B8%80,a%2Cb,x%25y,plain'),
  },
  {
    name: 'fifty unknown params are all named',
    url: () => `/v2/people?${Array.from({ length: 50 }, (_, i) => `p${i}=1`).join('&')}`,
    status: 200,
    shape: 'ok',
    check: (res) =>
      expect(res.headers['x-ignored-parameters']).toBe(
        Array.from({ length: 50 }, (_, i) => `p${i}`).join(','),
      ),
  },
  {
    name: 'past fifty unknown params, the rest are counted',
    url: () => `/v2/people?${Array.from({ length: 60 }, (_, i) => `p${i}=1`).join('&')}`,
    status: 200,
    shape: 'ok',
    check: (res) =>
      expect(res.headers['x-ignored-parameters']).toBe(
        [...Array.from({ length: 50 }, (_, i) => `p${i}`), '(+10 more)'].join(','),
      ),
  },
  {
    name: 'no header when every param is known',
    url: () => '/v2/people?limit=1',
    status: 200,
    shape: 'ok',
    check: (res) => expect(res.headers['x-ignored-parameters']).toBeUndefined(),
  },
  {
    name: 'the scheme name is case-insensitive: lowercase bearer is accepted',
    auth: (c) => `bearer ${c.ws.token}`,
    url: () => '/v2/people?limit=1',
    status: 200,
    shape: 'ok',
  },
  {
    name: 'a limit of 30 digits is capped at 100 too',
    url: () => `/v2/product?limit=${'9'.repeat(30)}`,
    status: 200,
    shape: 'ok',
    check: (res) => expect(res.json().data.productList).toHaveLength(100),
  },
  {
    name: 'limit=500 is capped at 100',
    url: () => '/v2/product?limit=500',
    status: 200,
    shape: 'ok',
    check: (res) => {
      expect(res.json().data.productList).toHaveLength(100);
      expect(typeof res.json().data.nextCursor).toBe('string');
    },
  },
  {
    name: 'limit=1 gives one and a cursor',
    url: () => '/v2/product?limit=1',
    status: 200,
    shape: 'ok',
    check: (res) => expect(res.json().data.productList).toHaveLength(1),
  },
  {
    name: 'GET with Content-Type: application/json',
    url: () => '/v2/people',
    headers: { 'content-type': 'application/json' },
    status: 200,
    shape: 'ok',
  },
  {
    name: 'GET without Content-Type',
    url: dealUrl,
    status: 200,
    shape: 'ok',
  },
  {
    name: 'GET with another Content-Type',
    url: quoteUrl,
    headers: { 'content-type': 'text/plain' },
    status: 200,
    shape: 'ok',
  },
];

const ROWS: Row[] = [
  ...authRows,
  ...limitRows,
  ...cursorRows,
  ...repeatRows,
  ...pipelineRows,
  ...pathRows,
  ...methodRows,
  ...bodyRows,
  ...paramRows,
];

/** Asserts a body is JSON of the shape, and leaks nothing of the implementation. */
function expectBody(res: LightMyRequestResponse, shape: Shape | 'A|B'): void {
  expect(res.statusCode).not.toBe(500);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.body).not.toMatch(
    /\n\s+at |\.ts:\d+|node_modules|SQLITE_|\bselect\b[\s\S]*\bfrom\b|FST_ERR/i,
  );
  const body = JSON.parse(res.body) as Record<string, unknown>;
  const keys = Object.keys(body);
  if (shape === 'ok') {
    expect(body.success).toBe(true);
    return;
  }
  const isA = keys.join() === 'success,message,reason';
  const isB = keys.length === 1 && keys[0] === 'error';
  if (shape === 'A') expect(keys).toEqual(['success', 'message', 'reason']);
  else if (shape === 'B') expect(keys).toEqual(['error']);
  else expect(isA || isB, res.body).toBe(true);
  if (isA) {
    expect(body.success).toBe(false);
    expect(typeof body.message).toBe('string');
    expect((body.message as string).length).toBeGreaterThan(0);
    expect(body.reason).toBe(body.message);
  }
  if (isB) {
    expect(typeof body.error).toBe('string');
    expect((body.error as string).length).toBeGreaterThan(0);
  }
}

function messageOf(res: LightMyRequestResponse): string {
  const body = res.json() as { message?: string; error?: string };
  return body.message ?? body.error ?? '';
}

describe('errors', () => {
  let store: Awaited<ReturnType<typeof testStore>>;
  let app: FastifyInstance;
  const c = {} as Ctx;

  beforeAll(async () => {
    store = await testStore();
    c.ws = await testWorkspace(store, '오류 테스트');
    c.other = await testWorkspace(store, '다른 워크스페이스');
    c.data = await seedEveryType(c.ws, 'A');
    await seedEveryType(c.other, 'B');
    await c.ws.write((w) =>
      insertProducts(
        w,
        Array.from({ length: 118 }, (_, i) => ({ name: `추가 상품 ${i}`, price: i })),
      ),
    );
    app = await testApp(store);
    const cursor = async (token: string, url: string, key = 'nextCursor') => {
      const res = await app.inject({ url, headers: { authorization: `Bearer ${token}` } });
      const value = res.json().data[key] as unknown;
      if (typeof value !== 'string') throw new Error(`no cursor from ${url}: ${res.body}`);
      return value;
    };
    c.peopleCursor = await cursor(c.ws.token, '/v2/people?limit=1');
    c.orgCursor = await cursor(c.ws.token, '/v2/organization?limit=1');
    c.dealCursor = await cursor(c.ws.token, '/v2/deal?limit=1', 'nextCurosr');
    c.otherOrgCursor = await cursor(c.other.token, '/v2/organization?limit=1');
  });
  afterAll(async () => {
    await app?.close();
    await store?.dispose();
  });

  it.each(ROWS)('$name → $status', async (row) => {
    const authorization = row.auth ? row.auth(c) : bearer(c);
    const res = await app.inject({
      method: row.method ?? 'GET',
      url: row.url(c),
      headers: { ...(authorization === null ? {} : { authorization }), ...row.headers },
      ...(row.payload === undefined ? {} : { payload: row.payload }),
    });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(row.status);
    expectBody(res, row.shape);
    if (row.names) expect(messageOf(res)).toContain(row.names);
    row.check?.(res, c);
  });

  it('a revoked token gets 401 from the next request on, on every endpoint', async () => {
    const ws = await testWorkspace(store, '폐기 테스트');
    const data = await seedEveryType(ws, 'R');
    const urls = [
      '/v2/people',
      '/v2/people/history',
      '/v2/organization',
      '/v2/deal',
      `/v2/deal/${data.deals[0]}`,
      '/v2/deal/activity',
      '/v2/lead',
      `/v2/lead/${data.leads[0]}/quote`,
      '/v2/product',
    ];
    const headers = { authorization: `Bearer ${ws.token}` };
    for (const url of urls) expect((await app.inject({ url, headers })).statusCode).toBe(200);
    expect(await revokeToken(store, ws.tokenId)).toBe(true);
    for (const url of urls) {
      const res = await app.inject({ url, headers });
      expect(res.statusCode).toBe(401);
      expectBody(res, url.startsWith('/v2/deal/0') ? 'B' : 'A');
    }
    expect(await revokeToken(store, ws.tokenId)).toBe(false);
  });

  it('healthz and readyz answer 200 without a token', async () => {
    for (const url of ['/healthz', '/readyz']) {
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    }
  });

  it('fuzz: random path segments and query values never give a 500 or a foreign body', async () => {
    // FUZZ_SEED replays or varies the run; the default keeps CI deterministic.
    const seed = Number(process.env.FUZZ_SEED ?? 20240408);
    const random = mulberry32(seed);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const targets = [
      'segment:/v2/deal/',
      'segment:/v2/lead/{}/quote',
      'append:/v2/people',
      'append:/v2/organization',
      'append:/v2/lead',
      'append:/v2/product',
      'append:/v2/deal/activity',
      'append:/v2/people/history',
      ...ENDPOINTS.map((e) => `query:${e.url(c)}`),
    ];
    const params = ['cursor', 'limit', 'pipelineName', 'pipelineStageName', 'foo', '한글', ''];
    const headers = { authorization: bearer(c) };
    const seen = new Map<number, number>();
    for (let i = 0; i < 300; i++) {
      const { text, encoded } = fuzzValue(random);
      const target = pick(targets);
      const [kind, path] = [
        target.slice(0, target.indexOf(':')),
        target.slice(target.indexOf(':') + 1),
      ];
      let url: string;
      if (kind === 'segment')
        url = path.includes('{}') ? path.replace('{}', encoded) : `${path}${encoded}`;
      else if (kind === 'append') url = `${path}/${encoded}`;
      else url = `${path}?${q(pick(params))}=${encoded}`;
      const res = await app.inject({ method: 'GET', url, headers });
      seen.set(res.statusCode, (seen.get(res.statusCode) ?? 0) + 1);
      const context = `seed ${seed} #${i} ${JSON.stringify(text).slice(0, 80)} → ${url.slice(0, 120)}: ${res.statusCode} ${res.body.slice(0, 200)}`;
      expect([200, 400, 401, 404, 405], context).toContain(res.statusCode);
      expect(() => expectBody(res, expectedShape(url, res.statusCode)), context).not.toThrow();
    }
    if (process.env.FUZZ_SEED) console.log(seed, Object.fromEntries(seen));
    // The fuzz reaches both failures and successes.
    expect(seen.get(400)).toBeGreaterThan(0);
    expect(seen.get(200)).toBeGreaterThan(0);
  });
});

/** The shape a fuzzed URL must answer with, or 'A|B' where URL normalisation makes it unclear. */
function expectedShape(url: string, status: number): Shape | 'A|B' {
  if (status === 200) return 'ok';
  const path = url.split(/[?#]/)[0]!;
  const single = /^\/v2\/deal\/([^/]+)\/?$/.exec(path);
  if (!single) return /[\\.]|%2e/i.test(path) ? 'A|B' : 'A';
  // WHATWG URL parsing (app.inject) turns `\` into `/`.
  if (single[1]!.includes('\\')) return 'A|B';
  let segment: string;
  try {
    segment = decodeURIComponent(single[1]!);
  } catch {
    return 'B';
  }
  if (segment === 'activity') return 'A';
  if (segment === '.' || segment === '..' || /[\\\t\n\r]/.test(segment)) return 'A|B';
  return 'B';
}

/** A random value to put in a URL: its text and how it is written there. */
function fuzzValue(random: () => number): { text: string; encoded: string } {
  const length =
    random() < 0.05 ? 300 + Math.floor(random() * 1500) : 1 + Math.floor(random() * 24);
  const kind = Math.floor(random() * 5);
  if (kind === 0) {
    // Raw bytes, percent-encoded one by one: often not UTF-8 at all.
    const bytes = Array.from({ length }, () => Math.floor(random() * 256));
    const encoded = bytes.map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join('');
    return { text: `bytes:${encoded}`, encoded };
  }
  if (kind === 1) {
    // Unicode from several planes, including controls, Hangul, surrogates paired as emoji.
    const ranges: [number, number][] = [
      [0x00, 0x1f],
      [0x20, 0x7e],
      [0xac00, 0xd7a3],
      [0x1f600, 0x1f64f],
      [0x0300, 0x036f],
      [0xfff0, 0xfffd],
    ];
    let text = '';
    for (let i = 0; i < length; i++) {
      const [lo, hi] = ranges[Math.floor(random() * ranges.length)]!;
      text += String.fromCodePoint(lo + Math.floor(random() * (hi - lo + 1)));
    }
    return { text, encoded: encodeURIComponent(text) };
  }
  if (kind === 2) {
    // Broken percent-encodings mixed with id-like characters.
    const pieces = [
      '%',
      '%%',
      '%G1',
      '%2',
      '%C3',
      '%C3%28',
      '%ED%A0%80',
      '%00',
      '%2F',
      '%2E',
      'a',
      'Z',
      '-',
      '_',
      '9',
    ];
    let encoded = '';
    for (let i = 0; i < length; i++) encoded += pieces[Math.floor(random() * pieces.length)]!;
    return { text: `pct:${encoded}`, encoded };
  }
  if (kind === 3) {
    // Printable ASCII written raw, separators and all.
    let text = '';
    for (let i = 0; i < length; i++) text += String.fromCharCode(0x21 + Math.floor(random() * 94));
    return { text, encoded: text.replace(/#/g, '%23') };
  }
  // Id-like values that pass or nearly pass the id pattern.
  const alphabet = 'abcdefABCDEF0123456789-_';
  let text = '';
  for (let i = 0; i < Math.min(length * 3, 80); i++)
    text += alphabet[Math.floor(random() * alphabet.length)];
  return { text, encoded: text };
}

/** A small seeded PRNG, so a failing fuzz case can be replayed. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

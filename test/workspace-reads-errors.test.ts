/**
 * Bad input to the workspace-level reads, one table per operation: every row's status, the
 * shape A body `{success:false, message}`, and the parameter the message names.
 */
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { appForFile, get, type TestStore, type TestWorkspace, testWorkspace } from './helpers.ts';
import { seedWorkspaceReads, type WorkspaceSeed } from './workspace-seed.ts';

let store: TestStore;
let app: FastifyInstance;
appForFile((s, a) => {
  store = s;
  app = a;
});

/** What a row needs from the running test. */
interface Ctx {
  ws: TestWorkspace;
  seed: WorkspaceSeed;
  /** A `limit=1` cursor of each list, by path. */
  cursors: Record<string, string>;
}

/** One bad (or borderline) request and what must come back. */
interface Row {
  name: string;
  url: (c: Ctx) => string;
  /** The workspace's token unless null (no Authorization) or another string. */
  token?: string | null;
  status: number;
  /** Text the message must contain, e.g. the parameter. */
  names?: string;
}

const q = encodeURIComponent;

/** Rows every cursor list shares: auth, limit, cursor, a repeated parameter. */
function listRows(label: string, url: (c: Ctx) => string, otherList: string): Row[] {
  const at = (suffix: string) => (c: Ctx) => `${url(c)}${suffix}`;
  return [
    { name: `${label}: no token`, url, token: null, status: 401 },
    { name: `${label}: unknown token`, url, token: `scrm_${'x'.repeat(43)}`, status: 401 },
    ...['0', '-1', '1.5', 'abc', '', '1e3'].map(
      (v): Row => ({
        name: `${label}: limit=${JSON.stringify(v)}`,
        url: at(`?limit=${q(v)}`),
        status: 400,
        names: "'limit'",
      }),
    ),
    { name: `${label}: limit twice`, url: at('?limit=1&limit=2'), status: 400, names: "'limit'" },
    {
      name: `${label}: garbage cursor`,
      url: at('?cursor=garbage'),
      status: 400,
      names: "'cursor'",
    },
    { name: `${label}: empty cursor`, url: at('?cursor='), status: 400, names: "'cursor'" },
    {
      name: `${label}: tampered cursor`,
      url: (c) => {
        const cursor = c.cursors[label]!;
        return `${url(c)}?cursor=${cursor[0] === 'A' ? 'B' : 'A'}${cursor.slice(1)}`;
      },
      status: 400,
      names: "'cursor'",
    },
    {
      name: `${label}: cursor of ${otherList}`,
      url: (c) => `${url(c)}?cursor=${c.cursors[otherList]}`,
      status: 400,
      names: "'cursor'",
    },
    { name: `${label}: limit above 100 is capped`, url: at('?limit=100000'), status: 200 },
    { name: `${label}: unknown parameter ignored`, url: at('?nope=1'), status: 200 },
  ];
}

const TABLES: Record<string, Row[]> = {
  pipelines: [
    { name: 'deal pipelines: no token', url: () => '/v2/deal/pipeline', token: null, status: 401 },
    { name: 'lead pipelines: no token', url: () => '/v2/lead/pipeline', token: null, status: 401 },
    { name: 'deal pipeline below', url: () => '/v2/deal/pipeline/x', status: 404 },
    { name: 'lead pipeline ignored parameters', url: () => '/v2/lead/pipeline?x=1', status: 200 },
  ],
  user: listRows('/v2/user', () => '/v2/user', '/v2/team'),
  me: [
    { name: 'user/me: no token', url: () => '/v2/user/me', token: null, status: 401 },
    { name: 'user/me: unknown token', url: () => '/v2/user/me', token: 'nope', status: 401 },
    { name: 'user/me below', url: () => '/v2/user/me/x', status: 404 },
    { name: 'one user (not an endpoint)', url: (c) => `/v2/user/${c.seed.users[0]}`, status: 404 },
  ],
  team: listRows('/v2/team', () => '/v2/team', '/v2/user'),
  todo: listRows('/v2/todo', () => '/v2/todo', '/v2/memo'),
  memo: [
    ...listRows('/v2/memo', () => '/v2/memo', '/v2/todo'),
    ...(['ownerId', 'dealId', 'leadId', 'peopleId', 'organizationId'] as const).flatMap(
      (name): Row[] => [
        ...['a b', '딜', 'x'.repeat(65), '', 'me', '../x'].map(
          (v): Row => ({
            name: `memo: ${name}=${JSON.stringify(v.slice(0, 10))}`,
            url: () => `/v2/memo?${name}=${q(v)}`,
            status: 400,
            names: `'${name}'`,
          }),
        ),
        {
          name: `memo: ${name} twice`,
          url: () => `/v2/memo?${name}=a&${name}=b`,
          status: 400,
          names: `'${name}'`,
        },
        {
          name: `memo: unknown ${name} is an empty list`,
          url: () => `/v2/memo?${name}=nope`,
          status: 200,
        },
      ],
    ),
    ...(['startDate', 'endDate'] as const).flatMap((name) =>
      [
        '2024-13-01',
        '2024-02-30',
        '2024/04/08',
        '20240408',
        '2024-04-08T10:00:00',
        '2024-04-08T25:00:00Z',
        'today',
        '1712553926020',
        '',
      ].map(
        (v): Row => ({
          name: `memo: ${name}=${JSON.stringify(v)}`,
          url: () => `/v2/memo?${name}=${q(v)}`,
          status: 400,
          names: `'${name}'`,
        }),
      ),
    ),
    {
      name: 'memo: startDate after endDate (days)',
      url: () => '/v2/memo?startDate=2024-04-09&endDate=2024-04-08',
      status: 400,
      names: "'startDate'",
    },
    {
      name: 'memo: startDate after endDate (times)',
      url: () =>
        `/v2/memo?startDate=${q('2024-04-08T10:00:00.001+09:00')}&endDate=${q('2024-04-08T01:00:00Z')}`,
      status: 400,
      names: "'endDate'",
    },
    {
      name: 'memo: startDate equal to endDate (one instant) is fine',
      url: () => '/v2/memo?startDate=2024-04-08T01:00:00Z&endDate=2024-04-08T01:00:00Z',
      status: 200,
    },
    {
      name: 'memo: one day is fine',
      url: () => '/v2/memo?startDate=2024-04-08&endDate=2024-04-08',
      status: 200,
    },
    {
      name: 'memo: cursor of other filters',
      url: (c) => `/v2/memo?dealId=${c.seed.deal}&cursor=${c.cursors['/v2/memo']}`,
      status: 400,
      names: "'cursor'",
    },
  ],
  oneMemo: [
    {
      name: 'memo/{id}: no token',
      url: (c) => `/v2/memo/${c.seed.memos[0]}`,
      token: null,
      status: 401,
    },
    { name: 'memo/{id}: space', url: () => '/v2/memo/a%20b', status: 400, names: "'memoId'" },
    {
      name: 'memo/{id}: Hangul',
      url: () => `/v2/memo/${q('메모')}`,
      status: 400,
      names: "'memoId'",
    },
    {
      name: 'memo/{id}: 65 chars',
      url: () => `/v2/memo/${'a'.repeat(65)}`,
      status: 400,
      names: "'memoId'",
    },
    { name: 'memo/{id}: 600 chars', url: () => `/v2/memo/${'a'.repeat(600)}`, status: 400 },
    { name: 'memo/{id}: %FF', url: () => '/v2/memo/%FF', status: 400 },
    {
      name: 'memo/{id}: reserved word',
      url: () => '/v2/memo/history',
      status: 400,
      names: "'memoId'",
    },
    { name: 'memo/{id}: unknown', url: () => '/v2/memo/no-such-memo', status: 404 },
    { name: 'memo/{id}: a todo id', url: (c) => `/v2/memo/${c.seed.todos[0]}`, status: 404 },
    { name: 'memo/{id}: below', url: (c) => `/v2/memo/${c.seed.memos[0]}/x`, status: 404 },
  ],
  webForm: listRows('/v2/webForm', () => '/v2/webForm', '/v2/user'),
  submit: [
    ...listRows('submit', (c) => `/v2/webForm/${c.seed.webForm}/submit`, '/v2/webForm'),
    {
      name: 'submit: space',
      url: () => '/v2/webForm/a%20b/submit',
      status: 400,
      names: "'webFormId'",
    },
    {
      name: 'submit: 65 chars',
      url: () => `/v2/webForm/${'a'.repeat(65)}/submit`,
      status: 400,
      names: "'webFormId'",
    },
    { name: 'submit: %FF', url: () => '/v2/webForm/%FF/submit', status: 400 },
    { name: 'submit: unknown form', url: () => '/v2/webForm/no-such-form/submit', status: 404 },
    { name: 'submit: a memo id', url: (c) => `/v2/webForm/${c.seed.memos[0]}/submit`, status: 404 },
    {
      name: 'submit: unknown form with a garbage cursor',
      url: () => '/v2/webForm/no-such-form/submit?cursor=x',
      status: 404,
    },
    {
      name: 'submit: cursor of the other form',
      url: (c) => `/v2/webForm/${c.seed.webForms[1]}/submit?cursor=${c.cursors.submit}`,
      status: 400,
      names: "'cursor'",
    },
    {
      name: 'one web form (not an endpoint)',
      url: (c) => `/v2/webForm/${c.seed.webForm}`,
      status: 404,
    },
  ],
  field: [
    { name: 'field: no token', url: () => '/v2/field/people', token: null, status: 401 },
    ...[
      'persons',
      'quoteProduct',
      'quote_product',
      'PEOPLE',
      'user',
      'constructor',
      '__proto__',
      '%20',
    ].map(
      (v): Row => ({
        name: `field: type ${JSON.stringify(v)}`,
        url: () => `/v2/field/${v}`,
        status: 400,
        names: "'type'",
      }),
    ),
    { name: 'field: no type', url: () => '/v2/field', status: 404 },
    { name: 'field: type of 600 chars', url: () => `/v2/field/${'a'.repeat(600)}`, status: 400 },
    { name: 'field: quote-product', url: () => '/v2/field/quote-product', status: 200 },
  ],
};

describe('bad input to the workspace-level reads', () => {
  const ctx = {} as Ctx;
  beforeAll(async () => {
    ctx.ws = await testWorkspace(store);
    ctx.seed = await seedWorkspaceReads(ctx.ws, 'E');
    ctx.cursors = {};
    for (const [label, url] of [
      ['/v2/user', '/v2/user'],
      ['/v2/team', '/v2/team'],
      ['/v2/todo', '/v2/todo'],
      ['/v2/memo', '/v2/memo'],
      ['/v2/webForm', '/v2/webForm'],
      ['submit', `/v2/webForm/${ctx.seed.webForm}/submit`],
    ] as const) {
      const res = await get(app, ctx.ws.token, `${url}?limit=1`);
      ctx.cursors[label] = res.json.data.nextCursor;
      expect(typeof ctx.cursors[label], label).toBe('string');
    }
  });

  for (const [table, rows] of Object.entries(TABLES)) {
    describe(table, () => {
      it.each(rows.map((r) => [r.name, r] as const))('%s', async (_name, row) => {
        const token = row.token === undefined ? ctx.ws.token : row.token;
        const res = await get(app, token, row.url(ctx));
        expect(res.status, res.text).toBe(row.status);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        if (row.status === 200) {
          expect(res.json.success).toBe(true);
          return;
        }
        expect(Object.keys(res.json)).toEqual(['success', 'message', 'reason']);
        expect(res.json.success).toBe(false);
        expect(typeof res.json.message).toBe('string');
        expect(res.text).not.toMatch(/select |sqlite|at .*\.ts/i);
        if (row.names) expect(res.json.message).toContain(row.names);
      });
    });
  }
});

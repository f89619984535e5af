import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoWorkspace } from '../src/ingest/demo/create-workspace.ts';
import { createToken, firstAdmin } from '../src/resources/workspaces/writes.ts';
import {
  get,
  post,
  type TestWorkspace,
  testApp,
  testStore,
  testWorkspace,
  walk,
} from './helpers.ts';
import { callTool, httpClient, type Json, READ_TOOLS, WRITE_TOOLS } from './mcp-client.ts';
import { salescrmArgs } from './salescrm-command.ts';
import { tableSnapshot } from './table-snapshot.ts';

const ROOT = join(import.meta.dirname, '..');

/** The workspace's events of one object type (the feed's cursor never ends: stop at an empty page). */
async function eventsOf(app: FastifyInstance, token: string, objectType: string): Promise<Json[]> {
  const events: Json[] = [];
  let cursor = '';
  for (;;) {
    const res = await get(app, token, `/v2/event?objectType=${objectType}&limit=100${cursor}`);
    const page = res.json.data.eventList as Json[];
    if (page.length === 0) return events;
    events.push(...page);
    cursor = `&cursor=${res.json.data.nextCursor}`;
  }
}

describe('the MCP server', { timeout: 120_000 }, () => {
  let store: Awaited<ReturnType<typeof testStore>>;
  let app: FastifyInstance;
  let url: string;
  let token: string;
  let readOnlyToken: string;
  let other: TestWorkspace;
  let client: Client;

  beforeAll(async () => {
    store = await testStore();
    const demo = await createDemoWorkspace(store, { people: 30 });
    token = demo.token;
    const admin = await firstAdmin(store, demo.workspaceId);
    readOnlyToken = (await createToken(store, demo.workspaceId, admin!, 'ro', { readOnly: true }))
      .token;
    other = await testWorkspace(store, '다른 워크스페이스');
    app = await testApp(store);
    url = await app.listen({ port: 0, host: '127.0.0.1' });
    client = await httpClient(url, token);
  });

  afterAll(async () => {
    await client?.close();
    await app?.close();
    await store?.dispose();
  });

  it('lists every tool, with annotations that say which write and which destroy', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...READ_TOOLS, ...WRITE_TOOLS].sort());
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(20);
      expect(tool.annotations?.readOnlyHint).toBe(READ_TOOLS.includes(tool.name));
      expect(tool.annotations?.destructiveHint ?? false).toBe(tool.name === 'delete_record');
    }
  });

  it('lists record types, and fields with how to write each', async () => {
    const types = await callTool(client, 'list_fields');
    expect(Object.keys(types.json.recordTypes)).toContain('deal');
    const { json } = await callTool(client, 'list_fields', { type: 'people' });
    const api = await get(app, token, '/v2/field/people');
    expect(json.fields.map((f: Json) => f.name)).toEqual(
      api.json.data.fieldList.map((f: Json) => f.name),
    );
    const byName = new Map(json.fields.map((f: Json) => [f.name, f]));
    expect((byName.get('이름') as Json).write).toEqual({ in: 'body', key: 'name' });
    expect((byName.get('이메일') as Json).write).toEqual({
      in: 'fieldList',
      valueKey: 'stringValue',
    });
    expect((byName.get('생성 날짜') as Json).write).toBeNull();
  });

  it('searches as the API does, a page at a time', async () => {
    const body = {
      filterGroupList: [{ filters: [{ fieldName: '이름', operator: 'EXISTS' }] }],
      sortList: [{ fieldName: '이름', direction: 'asc' }],
      fieldList: ['이메일'],
      limit: 7,
    };
    const first = await callTool(client, 'search_records', { type: 'people', ...body });
    const api = await post(app, token, '/v2/object/people/search', body);
    expect(first.isError).toBe(false);
    expect(first.json.records).toEqual(api.json.data.objectList);
    expect(first.json.hasMore).toBe(true);
    const second = await callTool(client, 'search_records', {
      type: 'people',
      ...body,
      cursor: first.json.nextCursor,
    });
    const apiNext = await post(
      app,
      token,
      `/v2/object/people/search?cursor=${api.json.data.nextCursor}`,
      body,
    );
    expect(second.json.records).toEqual(apiNext.json.data.objectList);
  });

  it('needs filters to search, as the API does; list_records walks every record', async () => {
    for (const args of [{ type: 'people' }, { type: 'people', filterGroupList: [] }]) {
      const res = await callTool(client, 'search_records', args);
      expect(res.isError, JSON.stringify(res)).toBe(true);
      expect(JSON.stringify(res)).toContain('filterGroupList');
    }
  });

  it('lists records and reads them by id, as the lists and the batch read do', async () => {
    const listed = await callTool(client, 'list_records', { type: 'deal', limit: 5 });
    const api = await get(app, token, '/v2/deal?limit=5');
    expect(listed.json.records).toEqual(api.json.data.dealList);
    expect(listed.json.nextCursor).toBe(api.json.data.nextCursor);
    const products = await callTool(client, 'list_records', { type: 'product' });
    expect(products.json.records).toEqual(
      (await get(app, token, '/v2/product')).json.data.productList,
    );

    const ids = listed.json.records.map((d: Json) => d.id);
    const read = await callTool(client, 'get_records', {
      type: 'deal',
      ids: [...ids, 'no-such-deal'],
      fieldList: ['금액'],
    });
    const batch = await post(app, token, '/v3/object/read', {
      objectType: 'deal',
      idList: ids,
      fieldList: ['금액'],
    });
    expect(read.json.records).toEqual(batch.json.data.objectList);
    expect(read.json.missingIds).toEqual(['no-such-deal']);
  });

  it('lists pipelines, users and quotes as the API does', async () => {
    const pipelines = await callTool(client, 'list_pipelines', { type: 'deal' });
    expect(pipelines.json.pipelines).toEqual(
      (await get(app, token, '/v2/deal/pipeline')).json.data.pipelineList,
    );
    const users = await callTool(client, 'list_users');
    expect(users.json.records).toEqual((await get(app, token, '/v2/user')).json.data.userList);
    const quoted = await store.db
      .selectFrom('quotes')
      .select('deal_id')
      .where('deal_id', 'is not', null)
      .executeTakeFirstOrThrow();
    const dealId = String(quoted.deal_id);
    const quotes = await callTool(client, 'list_quotes', { type: 'deal', id: dealId });
    expect(quotes.json.quotes).toEqual(
      (await get(app, token, `/v2/deal/${dealId}/quote`)).json.data.quoteList,
    );
  });

  it("merges a record's activities, notes and history oldest first, paged without loss", async () => {
    const deals = (await walk(app, token, '/v2/deal', 'dealList')).records;
    let best: { id: string; total: number } = { id: '', total: -1 };
    for (const deal of deals.slice(0, 15)) {
      const id = String(deal.id);
      const total =
        (await walk(app, token, `/v2/deal/activity?dealId=${id}`, 'dealActivityList')).records
          .length +
        (await walk(app, token, `/v2/memo?dealId=${id}`, 'memoList')).records.length +
        (await walk(app, token, `/v2/deal/history?dealId=${id}`, 'dealHistoryList')).records.length;
      if (total > best.total) best = { id, total };
    }
    expect(best.total).toBeGreaterThan(3);
    const whole = await callTool(client, 'get_timeline', { type: 'deal', id: best.id, limit: 200 });
    expect(whole.json.entries).toHaveLength(best.total);
    const times = whole.json.entries.map((e: Json) => Date.parse(e.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(new Set(whole.json.entries.map((e: Json) => e.kind)).size).toBeGreaterThan(1);

    const paged: Json[] = [];
    let cursor: string | undefined;
    do {
      const page = await callTool(client, 'get_timeline', {
        type: 'deal',
        id: best.id,
        limit: 2,
        ...(cursor ? { cursor } : {}),
      });
      paged.push(...page.json.entries);
      cursor = page.json.nextCursor ?? undefined;
      expect(page.json.hasMore).toBe(Boolean(cursor));
    } while (cursor);
    expect(paged).toEqual(whole.json.entries);

    const unknown = await callTool(client, 'get_timeline', { type: 'deal', id: 'no-such-deal' });
    expect(unknown.isError).toBe(true);
    expect(unknown.json.status).toBe(404);
  });

  it('creates, updates, notes and deletes through the API (history, events with source API)', async () => {
    const created = await callTool(client, 'create_record', {
      type: 'people',
      name: '엠씨피 고객',
      fieldList: [{ name: '이메일', stringValue: 'mcp@example.com' }],
    });
    expect(created.isError).toBe(false);
    const id = created.json.data.people.id;
    const person = (await get(app, token, `/v2/people/${id}`)).json.data.people[0];
    expect(person.이름).toBe('엠씨피 고객');
    expect(person.이메일).toBe('mcp@example.com');
    const event = (await eventsOf(app, token, 'people')).findLast((e) => e.objectId === id);
    expect(event).toMatchObject({ event: '생성', source: 'API' });

    const updated = await callTool(client, 'update_record', {
      type: 'people',
      id,
      fieldList: [{ name: '전화', stringValue: '010-1234-5678' }],
    });
    expect(updated.json.data.people.id).toBe(id);
    expect((await get(app, token, `/v2/people/${id}`)).json.data.people[0].전화).toBe(
      '010-1234-5678',
    );
    const history = (await get(app, token, `/v2/people/history?peopleId=${id}`)).json.data
      .peopleHistoryList;
    expect(history.some((h: Json) => h.fieldName === '전화')).toBe(true);

    await callTool(client, 'add_note', { type: 'people', id, text: '엠씨피로 남긴 메모' });
    const memos = (await get(app, token, `/v2/memo?peopleId=${id}`)).json.data.memoList;
    expect(memos.map((m: Json) => m.text)).toEqual(['엠씨피로 남긴 메모']);

    const pipeline = (await get(app, token, '/v2/deal/pipeline')).json.data.pipelineList[0];
    const deal = await callTool(client, 'create_record', {
      type: 'deal',
      name: '엠씨피 딜',
      peopleId: id,
      pipelineId: pipeline.id,
      pipelineStageId: pipeline.pipelineStageList[0].id,
      status: 'In progress',
      price: 1000,
    });
    const dealId = deal.json.data.deal.id;
    const product = (await get(app, token, '/v2/product')).json.data.productList.find(
      (p: Json) => p.유형 === '일반',
    );
    const quote = await callTool(client, 'create_quote', {
      name: '엠씨피 견적',
      dealId,
      quoteProductList: [{ productId: product.id, price: 500, amount: 2 }],
    });
    expect(quote.isError, JSON.stringify(quote.json)).toBe(false);
    const quotes = (await get(app, token, `/v2/deal/${dealId}/quote`)).json.data.quoteList;
    expect(quotes.map((q: Json) => q.id)).toEqual([quote.json.data.quote.id]);

    const asked = await callTool(client, 'delete_record', { type: 'deal', id: dealId });
    expect(asked.json).toMatchObject({ deleted: false, wouldDelete: { id: dealId } });
    expect((await get(app, token, `/v2/deal/${dealId}`)).status).toBe(200);
    const done = await callTool(client, 'delete_record', {
      type: 'deal',
      id: dealId,
      confirm: true,
    });
    expect(done.json.deleted).toBe(true);
    expect((await get(app, token, `/v2/deal/${dealId}`)).status).toBe(404);
  });

  it('answers bad arguments with tool errors that name the field and what it takes', async () => {
    const unknownField = await callTool(client, 'create_record', {
      type: 'people',
      name: '오류',
      fieldList: [{ name: '이메알', stringValue: 'x@example.com' }],
    });
    expect(unknownField.isError).toBe(true);
    expect(unknownField.json.status).toBe(400);
    expect(unknownField.json.closestFields).toContain('이메일');

    const search = await callTool(client, 'search_records', {
      type: 'people',
      filterGroupList: [{ filters: [{ fieldName: '이메알', operator: 'EQ', value: 'a' }] }],
    });
    expect(search.isError).toBe(true);
    expect(search.json.message).toContain('이메일');

    const badOperator = await callTool(client, 'search_records', {
      type: 'people',
      filterGroupList: [{ filters: [{ fieldName: '이름', operator: 'LT', value: 'a' }] }],
    });
    expect(badOperator.isError).toBe(true);
    expect(badOperator.json.message).toContain('filterGroupList[0].filters[0]');

    const badStatus = await callTool(client, 'create_record', { type: 'deal', status: 'Done' });
    expect(badStatus.isError).toBe(true);
    expect(String(badStatus.json)).toContain('In progress');

    const wrongType = await callTool(client, 'get_records', { type: 'deal', ids: 'x' });
    expect(wrongType.isError).toBe(true);

    const badCursor = await callTool(client, 'get_timeline', {
      type: 'deal',
      id: 'x',
      cursor: 'not-a-cursor',
    });
    expect(badCursor.isError).toBe(true);

    const missing = await callTool(client, 'delete_record', { type: 'lead', id: 'no-such-lead' });
    expect(missing.isError).toBe(true);
    expect(missing.json.status).toBe(404);
  });

  it('offers a read-only token no write tool, and refuses its writes on /mcp and /v2 (403)', async () => {
    const ro = await httpClient(url, readOnlyToken);
    try {
      const { tools } = await ro.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(READ_TOOLS);
      const refused = await callTool(ro, 'create_record', { type: 'people', name: '읽기 전용' });
      expect(refused.isError).toBe(true);
      const read = await callTool(ro, 'search_records', {
        type: 'deal',
        filterGroupList: [{ filters: [{ fieldName: '이름', operator: 'EXISTS' }] }],
        limit: 1,
      });
      expect(read.isError).toBe(false);
    } finally {
      await ro.close();
    }
    const write = await post(app, readOnlyToken, '/v2/people', { name: '읽기 전용' });
    expect(write.status).toBe(403);
    expect(write.json).toEqual({
      success: false,
      message: expect.any(String),
      reason: expect.any(String),
    });
    const people = (await get(app, token, '/v2/people?limit=1')).json.data.peopleList[0];
    for (const [path, body] of [
      [`/v2/people/${people.id}`, { memo: 'x' }],
      ['/v3/object/create', { objectType: 'people', inputList: [{ data: { 이름: 'x' } }] }],
      ['/v2/webhook', { url: 'https://example.com', objectTypeList: ['people'] }],
    ] as const) {
      expect((await post(app, readOnlyToken, path, body)).status, path).toBe(403);
    }
    for (const [path, body] of [
      [
        '/v2/object/people/search',
        { filterGroupList: [{ filters: [{ fieldName: '이름', operator: 'EXISTS' }] }] },
      ],
      ['/v3/object/read', { objectType: 'people', idList: [people.id] }],
      ['/v3/pipeline/list', { objectType: 'deal' }],
      ['/v3/association/list', { objectType: 'deal' }],
    ] as const) {
      expect((await post(app, readOnlyToken, path, body)).status, path).toBe(200);
    }
    expect((await get(app, readOnlyToken, '/v2/people')).status).toBe(200);
  });

  it("keeps each workspace's records to its own token", async () => {
    const mine = await callTool(client, 'list_records', { type: 'people', limit: 3 });
    const ids = mine.json.records.map((p: Json) => p.id);
    const theirs = await httpClient(url, other.token);
    try {
      const read = await callTool(theirs, 'get_records', { type: 'people', ids });
      expect(read.json.records).toEqual([]);
      expect(read.json.missingIds).toEqual(ids);
      const listed = await callTool(theirs, 'list_records', { type: 'people' });
      expect(listed.json.records).toEqual([]);
      const timeline = await callTool(theirs, 'get_timeline', { type: 'people', id: ids[0] });
      expect(timeline.isError).toBe(true);
      const note = await callTool(theirs, 'add_note', { type: 'people', id: ids[0], text: 'x' });
      expect(note.isError).toBe(true);
    } finally {
      await theirs.close();
    }
  });

  it('refuses /mcp without a valid token', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { 'content-type': 'application/json', authorization: 'Bearer nope' },
      payload: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    expect(res.statusCode).toBe(401);
    await expect(httpClient(url, 'nope')).rejects.toThrow();
  });

  it('refuses an empty JSON-RPC batch, and accepts a notification without an answer', async () => {
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
    };
    const empty = await app.inject({ method: 'POST', url: '/mcp', headers, payload: '[]' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    const notification = await app.inject({
      method: 'POST',
      url: '/mcp',
      headers,
      payload: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    });
    expect(notification.statusCode).toBe(202);
    expect(notification.body).toBe('');
  });

  it('refuses U+0000 or a lone surrogate anywhere in a message with a JSON-RPC error and a 400, calling nothing', async () => {
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
    };
    const call = (params: unknown, id: unknown = 7) =>
      app.inject({
        method: 'POST',
        url: '/mcp',
        headers,
        payload: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }),
      });
    const before = await tableSnapshot(store);
    const named = await call({ name: 'a\u0000b', arguments: {} });
    expect(named.statusCode).toBe(400);
    expect(named.json()).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32602, message: 'Invalid params: U+0000 in params.name' },
    });
    const argument = await call(
      { name: 'create_record', arguments: { type: 'people', name: '김\u0000철수' } },
      'x',
    );
    expect(argument.statusCode).toBe(400);
    expect(argument.json().id).toBe('x');
    expect(argument.json().error.message).toBe('Invalid params: U+0000 in params.arguments.name');
    // A surrogate without its pair (`\ud800` in the JSON text) is refused alike.
    const lone = await call(
      { name: 'create_record', arguments: { type: 'people', name: '김\ud800철수' } },
      'y',
    );
    expect(lone.statusCode).toBe(400);
    expect(lone.json().error.message).toBe('Invalid params: U+D800 in params.arguments.name');
    expect(await tableSnapshot(store)).toEqual(before);
  });
});

describe('the MCP server and the rate limit', () => {
  it("counts a client's every message: connecting, tools/list, each tool call's API call", async () => {
    const store = await testStore();
    const ws = await testWorkspace(store);
    const app = await testApp(store, { rateLimitMax: 6, rateLimitWindowMs: 60_000 });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    // `initialize` and `notifications/initialized`: two.
    const client = await httpClient(url, ws.token);
    try {
      await client.listTools();
      for (let i = 0; i < 3; i++) {
        expect((await callTool(client, 'list_users')).isError).toBe(false);
      }
      // Six counted: a tool call's API call is refused, and the tool says so.
      const limited = await callTool(client, 'list_users');
      expect(limited.isError).toBe(true);
      expect(limited.json.status).toBe(429);
      expect(limited.json.retryAfterSeconds).toBeGreaterThan(0);
      // Any other message is refused before it runs: a 429 in shape A.
      await expect(client.listTools()).rejects.toMatchObject({
        code: 429,
        message: expect.stringContaining('요청이 너무 많습니다.'),
      });
    } finally {
      await client.close();
      await app.close();
      await store.dispose();
    }
  });
});

describe('the MCP server under BASE_PATH', () => {
  it('is POST {BASE_PATH}/mcp, and its tools call the API under that path', async () => {
    const store = await testStore();
    const ws = await testWorkspace(store);
    const app = await testApp(store, { basePath: '/api' });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const client = await httpClient(`${url}/api`, ws.token);
    try {
      const users = await callTool(client, 'list_users');
      expect(users.json.records.map((u: Json) => u.id)).toEqual([ws.userId]);
      expect((await get(app, ws.token, '/mcp')).status).toBe(404);
    } finally {
      await client.close();
      await app.close();
      await store.dispose();
    }
  });
});

describe('salescrm mcp (stdio)', { timeout: 120_000 }, () => {
  it('serves the tools on stdin and stdout, as the API answers', async () => {
    const store = await testStore();
    const demo = await createDemoWorkspace(store, { people: 10 });
    const app = await testApp(store);
    const client = new Client({ name: 'salescrm-test', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...salescrmArgs(), 'mcp', '--token', demo.token],
      cwd: ROOT,
      env: {
        ...(process.env as Record<string, string>),
        DATABASE_URL: store.url,
        LOG_LEVEL: 'silent',
      },
      stderr: 'pipe',
    });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...READ_TOOLS, ...WRITE_TOOLS].sort());
      const listed = await callTool(client, 'list_records', { type: 'organization', limit: 4 });
      expect(listed.json.records).toEqual(
        (await get(app, demo.token, '/v2/organization?limit=4')).json.data.organizationList,
      );
      const created = await callTool(client, 'create_record', {
        type: 'organization',
        name: '표준입출력 회사',
      });
      const id = created.json.data.organization.id;
      expect(
        (await get(app, demo.token, `/v2/organization/${id}`)).json.data.organization[0].이름,
      ).toBe('표준입출력 회사');
      const bad = await callTool(client, 'create_record', {
        type: 'organization',
        name: '표준입출력 회사',
      });
      expect(bad.isError).toBe(true);
      expect(bad.json.data.id).toBe(id);
    } finally {
      await client.close();
      await app.close();
      await store.dispose();
    }
  });
});

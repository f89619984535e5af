// `npm run bench:mcp [-- --people N] [--rounds R]`: builds a demo workspace (SQLite in a
// temporary file), serves it from a child process (`bench/api-server.ts`, the app `serve`
// runs, rate limit off), and measures with one client, one call after another, the median
// time of each MCP tool call over Streamable HTTP (`POST /mcp`, the SDK's client) against
// the API call(s) it wraps, sent with fetch; the two alternate, round after round. Also
// prints the tool count and how many bytes of descriptions and of `tools/list` a model reads,
// and what one JSON-RPC batch of 100 `tools/list` costs the server: its time, the server
// process's CPU (from /proc) and the answer's size. Last, the API's list read before any tool
// call and after 2,000 more, each in a request of its own: serving tool calls must not make
// the rest of the server slower.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { buildDemo, countArg, cpuMsOf, percentile, startChild, stopChild, table } from './lib.ts';

const { values } = parseArgs({
  options: {
    people: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '60' },
  },
});
const people = countArg('people', values.people);
const rounds = countArg('rounds', values.rounds);
const PORT = 38_547;
const BASE = `http://127.0.0.1:${PORT}`;

// biome-ignore lint/suspicious/noExplicitAny: the API's JSON
type Json = any;

/** One API request, as the tool makes it. */
interface Request {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

/** A tool call and the API requests it wraps. */
interface Case {
  name: string;
  tool: string;
  args: Record<string, unknown>;
  api: Request[];
}

const median = (values: number[]) => percentile(values, 50);

const dir = mkdtempSync(join(tmpdir(), 'salescrm-bench-mcp-'));
const databaseUrl = `sqlite:${join(dir, 'bench.db')}`;
const demo = buildDemo(databaseUrl, people);
const server = await startChild('bench/api-server.ts', [databaseUrl, String(PORT)]);
const auth = { Authorization: `Bearer ${demo.token}` };

async function api(request: Request): Promise<Json> {
  const res = await fetch(`${BASE}${request.path}`, {
    method: request.method,
    headers: {
      ...auth,
      ...(request.method === 'POST' ? { 'content-type': 'application/json' } : {}),
    },
    body: request.method === 'POST' ? JSON.stringify(request.body ?? {}) : undefined,
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${request.path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const BATCH = 100;

/** POSTs a JSON-RPC message (or batch) to `/mcp`, with the headers the protocol asks for. */
function postMcp(body: string): Promise<Response> {
  return fetch(`${BASE}/mcp`, {
    method: 'POST',
    headers: {
      ...auth,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body,
  });
}

/** What the batches of `tools/list` cost. */
interface BatchFigures {
  batches: number;
  ms: number;
  cpuMs: number;
  bytes: number;
  /** Batches the server shed (503: its event loop was late), each sent again after its `Retry-After`. */
  shed: number;
}

/**
 * Sends `batches` JSON-RPC batches of `BATCH` `tools/list` (after two to warm up): the median
 * time of one, the server process's CPU a batch, the answer's bytes, and how many were shed.
 */
async function toolsListBatch(pid: number, batches: number): Promise<BatchFigures> {
  const body = JSON.stringify(
    Array.from({ length: BATCH }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/list' })),
  );
  let shed = 0;
  // The time and size of the answered attempt.
  const send = async (): Promise<{ ms: number; bytes: number }> => {
    const started = performance.now();
    const res = await postMcp(body);
    const text = await res.text();
    const ms = performance.now() - started;
    if (res.status === 503) {
      shed += 1;
      const seconds = Number(res.headers.get('retry-after') ?? 1);
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      return send();
    }
    if (res.status !== 200)
      throw new Error(`tools/list batch: ${res.status} ${text.slice(0, 200)}`);
    return { ms, bytes: Buffer.byteLength(text) };
  };
  await send();
  await send();
  shed = 0;
  const times: number[] = [];
  let bytes = 0;
  const cpuBefore = cpuMsOf(pid);
  for (let i = 0; i < batches; i++) {
    const answered = await send();
    times.push(answered.ms);
    bytes = answered.bytes;
  }
  const cpuMs = (cpuMsOf(pid) - cpuBefore) / batches;
  return { batches, ms: median(times), cpuMs, bytes, shed };
}

/** Tool calls sent apart, after the cases: each its own `/mcp` request, as most assistants send. */
const TOOL_CALLS_APART = 2_000;

/** The median time of a list read (`GET /v2/people?limit=20`), over `n` reads after 20 to warm up. */
async function listReadMs(n: number): Promise<number> {
  const read: Request = { method: 'GET', path: '/v2/people?limit=20' };
  for (let i = 0; i < 20; i++) await api(read);
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await api(read);
    times.push(performance.now() - started);
  }
  return median(times);
}

/** `n` `tools/call` requests of `list_pipelines`, one a POST, one after another. */
async function toolCallsApart(n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const res = await postMcp(
      JSON.stringify({
        jsonrpc: '2.0',
        id: i + 1,
        method: 'tools/call',
        params: { name: 'list_pipelines', arguments: { type: 'deal' } },
      }),
    );
    const text = await res.text();
    if (res.status !== 200) throw new Error(`tools/call: ${res.status} ${text.slice(0, 200)}`);
  }
}

try {
  // The API's reads before the server has answered any tool call, to compare with after.
  const readsBefore = await listReadMs(200);
  const client = new Client({ name: 'salescrm-bench', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${BASE}/mcp`), { requestInit: { headers: auth } }),
  );
  const { tools } = await client.listTools();
  const descriptionBytes = tools.reduce(
    (sum, t) => sum + Buffer.byteLength(t.description ?? ''),
    0,
  );
  const listBytes = Buffer.byteLength(JSON.stringify(tools));

  const person = (await api({ method: 'GET', path: '/v2/people?limit=1' })).data.peopleList[0];
  const ids = (await api({ method: 'GET', path: '/v2/people?limit=20' })).data.peopleList.map(
    (p: Json) => p.id,
  );
  const deal = (await api({ method: 'GET', path: '/v2/deal?limit=1' })).data.dealList[0];
  const search = {
    filterGroupList: [{ filters: [{ fieldName: '이름', operator: 'CONTAINS', value: '민' }] }],
    limit: 20,
  };
  const cases: Case[] = [
    {
      name: 'list_fields people',
      tool: 'list_fields',
      args: { type: 'people' },
      api: [{ method: 'GET', path: '/v2/field/people' }],
    },
    {
      name: 'list_records people, 50',
      tool: 'list_records',
      args: { type: 'people', limit: 50 },
      api: [{ method: 'GET', path: '/v2/people?limit=50' }],
    },
    {
      name: 'search_records CONTAINS, 20',
      tool: 'search_records',
      args: { type: 'people', ...search },
      api: [{ method: 'POST', path: '/v2/object/people/search', body: search }],
    },
    {
      name: 'get_records 20 people',
      tool: 'get_records',
      args: { type: 'people', ids },
      api: [
        { method: 'POST', path: '/v3/object/read', body: { objectType: 'people', idList: ids } },
      ],
    },
    {
      name: 'get_timeline deal (4 reads)',
      tool: 'get_timeline',
      args: { type: 'deal', id: deal.id },
      api: [
        { method: 'GET', path: `/v2/deal/${deal.id}` },
        { method: 'GET', path: `/v2/deal/activity?dealId=${deal.id}` },
        { method: 'GET', path: `/v2/memo?dealId=${deal.id}` },
        { method: 'GET', path: `/v2/deal/history?dealId=${deal.id}` },
      ],
    },
    {
      name: 'list_pipelines deal',
      tool: 'list_pipelines',
      args: { type: 'deal' },
      api: [{ method: 'POST', path: '/v3/pipeline/list', body: { objectType: 'deal' } }],
    },
    {
      name: 'add_note (a write)',
      tool: 'add_note',
      args: { type: 'people', id: person.id, text: '벤치마크 메모' },
      api: [{ method: 'POST', path: `/v2/people/${person.id}`, body: { memo: '벤치마크 메모' } }],
    },
  ];

  const rows: (string | number)[][] = [];
  for (const c of cases) {
    const toolTimes: number[] = [];
    const apiTimes: number[] = [];
    for (let round = 0; round < rounds + 5; round++) {
      let started = performance.now();
      const result = (await client.callTool({ name: c.tool, arguments: c.args })) as {
        isError?: boolean;
        content: { text: string }[];
      };
      const toolMs = performance.now() - started;
      if (result.isError) throw new Error(`${c.tool}: ${result.content[0]!.text}`);
      started = performance.now();
      for (const request of c.api) await api(request);
      const apiMs = performance.now() - started;
      if (round >= 5) {
        toolTimes.push(toolMs);
        apiTimes.push(apiMs);
      }
    }
    const tool = median(toolTimes);
    const direct = median(apiTimes);
    rows.push([c.name, tool, direct, tool - direct]);
  }
  await client.close();
  const batch = await toolsListBatch(server.pid!, Math.min(rounds, 20));
  const readsAfterCases = await listReadMs(200);
  await toolCallsApart(TOOL_CALLS_APART);
  const readsAfterMore = await listReadMs(200);

  console.log(
    `\n${tools.length} tools; descriptions ${descriptionBytes} bytes; tools/list ${listBytes} bytes (names, descriptions, input schemas, annotations)`,
  );
  console.log(
    `median of ${rounds} calls each, ${people} people, SQLite, one client, one call at a time (ms)\n`,
  );
  console.log(table(['call', 'MCP tool over HTTP', 'API call(s) it wraps', 'difference'], rows));
  console.log(
    `\none JSON-RPC batch of ${BATCH} tools/list, ${batch.batches} batches: median ${batch.ms.toFixed(1)} ms, server CPU ${batch.cpuMs.toFixed(0)} ms a batch, ${batch.bytes} bytes answered; ${batch.shed} shed (503) and sent again`,
  );
  console.log(
    `a list read of the API (median of 200): ${readsBefore.toFixed(2)} ms before any tool call, ${readsAfterCases.toFixed(2)} ms after the calls above, ${readsAfterMore.toFixed(2)} ms after ${TOOL_CALLS_APART} more tool calls each in its own request (${(readsAfterMore / readsBefore).toFixed(2)} of before)`,
  );
} finally {
  await stopChild(server);
  rmSync(dir, { recursive: true, force: true });
}

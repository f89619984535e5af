// `npm run bench:mcp [-- --people N] [--rounds R]`: builds a demo workspace (SQLite in a
// temporary file), serves it from a child process (`bench/api-server.ts`, the app `serve`
// runs, rate limit off), and measures with one client, one call after another, the median
// time of each MCP tool call over Streamable HTTP (`POST /mcp`, the SDK's client) against
// the API call(s) it wraps, sent with fetch; the two alternate, round after round. Also
// prints the tool count and how many bytes of descriptions and of `tools/list` a model reads.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { buildDemo, countArg, percentile, startChild, stopChild, table } from './lib.ts';

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

try {
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

  console.log(
    `\n${tools.length} tools; descriptions ${descriptionBytes} bytes; tools/list ${listBytes} bytes (names, descriptions, input schemas, annotations)`,
  );
  console.log(
    `median of ${rounds} calls each, ${people} people, SQLite, one client, one call at a time (ms)\n`,
  );
  console.log(table(['call', 'MCP tool over HTTP', 'API call(s) it wraps', 'difference'], rows));
} finally {
  await stopChild(server);
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Every answer, whichever part of the server writes it (a route, a pre-rendered list, an
 * error, the router's own 400, the MCP transport, the reference page), says not to sniff
 * its type and not to be framed; the reference page has a policy of its own that still
 * lets it work (test/docs-page.test.ts runs it in a browser under that policy).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { LoadShedder } from '../src/server/overload.ts';
import { makePerson } from './factories.ts';
import { appWithWorkspace, type TestWorkspace } from './helpers.ts';

let app: FastifyInstance;
let ws: TestWorkspace;
appWithWorkspace((made) => ({ app, ws } = made), { workspace: 'file' });

const API_POLICY = "default-src 'none'; frame-ancestors 'none'";

type Headers = Record<string, string | string[] | number | undefined>;

function expectGuarded(headers: Headers, policy = API_POLICY): void {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['content-security-policy']).toBe(policy);
}

describe('security headers', () => {
  it.each([
    ['a list (pre-rendered bytes)', 'GET', '/v2/people', 200],
    ['a list again (from the page cache)', 'GET', '/v2/people', 200],
    ['the OpenAPI document', 'GET', '/openapi.json', 200],
    ['a probe', 'GET', '/healthz', 200],
    ['a 400 of a route', 'GET', '/v2/people?limit=x', 400],
    ['a 404 of no route', 'GET', '/v2/nothing', 404],
    ['a 405', 'DELETE', '/v2/people', 405],
    ['the router’s own 400 (bad percent-encoding)', 'GET', '/v2/people/%E0%A4%A', 400],
    ['a 415', 'POST', '/v2/people', 415, 'text/csv', 'a,b'],
    ['a 413', 'POST', '/v2/people', 413, 'application/json', `"${'x'.repeat(1024 * 1024)}"`],
  ])('on %s', async (_name, method, url, status, type?: string, payload?: string) => {
    const res = await app.inject({
      method: method as 'GET',
      url,
      headers: {
        authorization: `Bearer ${ws.token}`,
        ...(type ? { 'content-type': type } : {}),
      },
      ...(payload ? { payload } : {}),
    });
    expect(res.statusCode, res.body).toBe(status);
    expectGuarded(res.headers);
  });

  it('on a record, a write and a 401', async () => {
    const id = await ws.write((w) => makePerson(w, { name: '헤더 고객' }));
    const read = await app.inject({
      url: `/v2/people/${id}`,
      headers: { authorization: `Bearer ${ws.token}` },
    });
    expect(read.statusCode).toBe(200);
    expectGuarded(read.headers);
    const written = await app.inject({
      method: 'POST',
      url: '/v2/people',
      headers: { authorization: `Bearer ${ws.token}`, 'content-type': 'application/json' },
      payload: '{"name":"헤더 고객 2"}',
    });
    expect(written.statusCode).toBe(201);
    expectGuarded(written.headers);
    const refused = await app.inject({ url: '/v2/people' });
    expect(refused.statusCode).toBe(401);
    expectGuarded(refused.headers);
  });

  it('on an answer of the MCP transport (written past Fastify)', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/mcp',
      headers: {
        authorization: `Bearer ${ws.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      payload: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    expect(res.statusCode).toBe(200);
    expectGuarded(res.headers);
  });

  it('on the reference page and its files, whose page has a policy that lets it run', async () => {
    const page = await app.inject({ url: '/docs' });
    expect(page.statusCode).toBe(200);
    const policy = String(page.headers['content-security-policy']);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("default-src 'none'");
    expect(policy).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/]+=*'/);
    // Inline styles are allowed (Swagger UI applies one), inline scripts only by hash.
    expect(policy.match(/script-src [^;]*/)?.[0]).not.toContain('unsafe');
    expectGuarded(page.headers, policy);
    const asset = await app.inject({ url: '/docs/swagger-ui-bundle.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['x-content-type-options']).toBe('nosniff');
  });

  it('on a request shed under load (answered before Fastify)', () => {
    const shedder = new LoadShedder(1, '', () => 0);
    // As if the loop were late: the last sample's delay is far past the bound.
    Object.assign(shedder, { delay: 1_000, keptUp: true });
    const written: { status?: number; headers?: Headers } = {};
    const res = {
      writeHead(status: number, headers: Headers) {
        Object.assign(written, { status, headers });
        return this;
      },
      end() {
        return this;
      },
    } as unknown as ServerResponse;
    expect(shedder.answer({ url: '/v2/people', method: 'GET' } as IncomingMessage, res)).toBe(true);
    expect(written.status).toBe(503);
    const lower = Object.fromEntries(
      Object.entries(written.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
    );
    expectGuarded(lower);
  });
});

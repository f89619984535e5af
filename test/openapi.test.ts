import { Validator } from '@seriousme/openapi-schema-validator';
import { Value } from '@sinclair/typebox/value';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import examples from '../src/api-schema/examples.json' with { type: 'json' };
import { registerFormats } from '../src/api-schema/formats.ts';
import { buildOpenApiDocument } from '../src/api-schema/openapi.ts';
import { OPERATIONS } from '../src/api-schema/operations/index.ts';
import { RATE_LIMITED_MESSAGE } from '../src/http/errors.ts';
import { defineCustomObject } from '../src/resources/custom-objects/commands.ts';
import { insertCustomObject } from '../src/resources/custom-objects/writes.ts';
import type { Store } from '../src/store/database.ts';
import {
  makeDeal,
  makeLead,
  makeOrganization,
  makePerson,
  makePipeline,
  makeProduct,
} from './factories.ts';
import { get, type TestWorkspace, testApp, testStore, testWorkspace } from './helpers.ts';

registerFormats();

// biome-ignore lint/suspicious/noExplicitAny: the document is arbitrary JSON
type Doc = any;

/** `METHOD /path/{param}` of every route the app has (HEAD only where it is not a GET's). */
function routesOf(app: FastifyInstance): string[] {
  const gets = new Set(app.registeredRoutes.filter((r) => r.method === 'GET').map((r) => r.url));
  return app.registeredRoutes
    .filter((r) => !(r.method === 'HEAD' && gets.has(r.url)))
    .map((r) => `${r.method} ${r.url.replace(/:([A-Za-z]+)/g, '{$1}')}`)
    .sort();
}

/** `METHOD /path` of every operation of the document. */
function operationsOf(doc: Doc): string[] {
  return Object.entries(doc.paths as Record<string, Record<string, unknown>>)
    .flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`))
    .sort();
}

describe('GET /openapi.json', () => {
  let store: Store & { dispose(): Promise<void> };
  let app: FastifyInstance;
  let doc: Doc;

  beforeAll(async () => {
    store = await testStore();
    app = await testApp(store);
    const res = await get(app, null, '/openapi.json');
    expect(res.status).toBe(200);
    doc = res.json;
  });
  afterAll(async () => {
    await app.close();
    await store.dispose();
  });

  it('is a valid OpenAPI 3.1 document, served without a token', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('the validator does refuse a broken document', async () => {
    const broken = structuredClone(doc);
    broken.paths['/v2/people'].get.responses = 'none';
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('has every route of the server, and no route the server lacks', () => {
    expect(operationsOf(doc)).toEqual(routesOf(app));
    expect(operationsOf(doc).length).toBeGreaterThan(45);
  });

  it('puts the API, the document and its page under BASE_PATH, probes at the root, and still matches the routes', async () => {
    const based = await testApp(store, { basePath: '/api' });
    try {
      const res = await get(based, null, '/api/openapi.json');
      expect(res.status).toBe(200);
      expect((await get(based, null, '/openapi.json')).status).toBe(404);
      expect(Object.keys(res.json.paths)).toContain('/api/v2/deal/{dealId}');
      expect(Object.keys(res.json.paths)).not.toContain('/v2/deal/{dealId}');
      expect(Object.keys(res.json.paths)).toEqual(
        expect.arrayContaining([
          '/api/openapi.json',
          '/api/docs',
          '/api/docs/{asset}',
          '/healthz',
          '/readyz',
        ]),
      );
      const page = await get(based, null, '/api/docs');
      expect(page.status).toBe(200);
      expect(page.text).toContain("url: '/api/openapi.json'");
      expect(page.text).toContain('src="/api/docs/swagger-ui-bundle.js"');
      expect((await get(based, null, '/api/docs/swagger-ui.css')).status).toBe(200);
      expect((await get(based, null, '/docs')).status).toBe(404);
      expect((await get(based, null, '/healthz')).status).toBe(200);
      expect(operationsOf(res.json)).toEqual(routesOf(based));
      expect((await new Validator().validate(res.json)).valid).toBe(true);
    } finally {
      await based.close();
    }
  });

  it('uses shape B only on GET /v2/deal/{dealId}, shape A on every other API error', () => {
    const shapes = new Map<string, Set<string>>();
    for (const [path, item] of Object.entries(doc.paths as Record<string, Doc>)) {
      for (const [method, op] of Object.entries(item as Record<string, Doc>)) {
        for (const [status, res] of Object.entries(op.responses as Record<string, Doc>)) {
          if (Number(status) < 400) continue;
          const schema = res.content['application/json'].schema;
          // The MCP endpoint's 400 is shape A or the protocol's own JSON-RPC error.
          const ref = (schema.$ref ?? schema.oneOf[0].$ref) as string;
          if (schema.oneOf) expect(schema.oneOf[1].properties.jsonrpc).toBeDefined();
          const key = `${method.toUpperCase()} ${path}`;
          shapes.set(key, (shapes.get(key) ?? new Set()).add(ref.split('/').pop()!));
        }
      }
    }
    expect(shapes.get('GET /v2/deal/{dealId}')).toEqual(new Set(['ErrorB']));
    for (const [key, set] of shapes) {
      if (key !== 'GET /v2/deal/{dealId}') expect([key, [...set]]).toEqual([key, ['ErrorA']]);
    }
    expect(shapes.get('POST /v2/deal/{dealId}')).toEqual(new Set(['ErrorA']));
    expect(doc.paths['/v2/deal/{dealId}'].get.responses['404']).toBeDefined();
    expect(doc.paths['/v2/people'].post.responses['413']).toBeDefined();
  });

  it('declares bearer auth on the API and none on the service routes', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths['/v2/people'].get.security).toBeUndefined();
    for (const path of ['/healthz', '/readyz', '/openapi.json', '/docs', '/docs/{asset}'])
      expect(doc.paths[path].get.security).toEqual([]);
  });

  it('documents the rate-limit headers, Retry-After and X-Ignored-Parameters', () => {
    const list = doc.paths['/v2/deal'].get;
    expect(Object.keys(list.responses['200'].headers)).toEqual(
      expect.arrayContaining([
        'RateLimit-Limit',
        'RateLimit-Remaining',
        'RateLimit-Reset',
        'X-Ignored-Parameters',
      ]),
    );
    expect(Object.keys(list.responses['429'].headers)).toContain('Retry-After');
    // The 429 as the server answers it: its message, and a reason naming the wait.
    expect(list.responses['429'].content['application/json'].example).toEqual({
      success: false,
      message: RATE_LIMITED_MESSAGE,
      reason: '3초 후 재시도해주세요.',
    });
    expect(list.responses['429'].description).toContain('Retry-After');
    expect(
      doc.paths['/v2/deal/{dealId}'].get.responses['429'].content['application/json'].example,
    ).toEqual({ error: RATE_LIMITED_MESSAGE });
  });

  it('documents the list parameters with their formats, and the deal cursor spellings', () => {
    const params = doc.paths['/v2/deal/activity'].get.parameters as Doc[];
    expect(params.map((p) => p.name)).toEqual([
      'cursor',
      'limit',
      'dealId',
      'types',
      'startDate',
      'endDate',
    ]);
    expect(params[1].schema).toMatchObject({ type: 'integer', minimum: 1 });
    expect(new RegExp(params[3].schema.pattern).test('email,emailOpen')).toBe(true);
    expect(new RegExp(params[3].schema.pattern).test('email,bogus')).toBe(false);
    const deal = doc.paths['/v2/deal'].get.responses['200'].content['application/json'].schema;
    expect(Object.keys(deal.properties.data.properties)).toEqual([
      'dealList',
      'nextCurosr',
      'nextCursor',
    ]);
    expect(deal.properties.data.properties.dealList.items.anyOf[0]).toEqual({
      $ref: '#/components/schemas/Deal',
    });
  });

  it('lists each record schema’s keys in wire order', () => {
    const single = doc.components.schemas.SingleDeal;
    const keys = Object.keys(single.properties);
    expect(keys.slice(-5)).toEqual([
      '등록된 시퀀스 목록',
      '상담 일수',
      '정체 일수',
      '팔로워',
      '참여자',
    ]);
    expect(single.additionalProperties).toBeDefined();
    expect(doc.components.schemas.Quote.properties['견적 구성 상품'].items).toEqual({
      $ref: '#/components/schemas/QuoteProduct',
    });
  });

  it('has a real answer as the example of every API operation, valid against its schema', () => {
    const recorded = examples as Record<string, unknown>;
    // A download answers bytes: no JSON example.
    for (const op of OPERATIONS.filter((o) => o.api && o.response)) {
      const example = recorded[op.operationId];
      expect(example, op.operationId).toBeDefined();
      const errors = [...Value.Errors(op.response!, example)].map(
        (e) => `${op.operationId} ${e.path}: ${e.message}`,
      );
      expect(errors).toEqual([]);
      const media = doc.paths[op.path][op.method.toLowerCase()].responses[op.status].content;
      expect(media['application/json'].example).toEqual(example);
    }
  });

  it('builds the same document as the server serves', () => {
    expect(buildOpenApiDocument({ basePath: '', examples })).toEqual(doc);
  });
});

describe('live answers match the documented schemas', () => {
  let store: Store & { dispose(): Promise<void> };
  let app: FastifyInstance;
  let ws: TestWorkspace;

  beforeAll(async () => {
    store = await testStore();
    ws = await testWorkspace(store);
    app = await testApp(store);
  });
  afterAll(async () => {
    await app.close();
    await store.dispose();
  });

  it('every GET without path ids answers in its schema, and errors in theirs', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/v2/people',
      headers: { authorization: `Bearer ${ws.token}`, 'content-type': 'application/json' },
      payload: { name: '스키마 고객' },
    });
    expect(created.statusCode).toBe(201);
    for (const op of OPERATIONS.filter(
      (o) =>
        o.api && o.method === 'GET' && !o.path.includes('{') && !o.query.some((q) => q.required),
    )) {
      const res = await get(app, ws.token, op.path);
      expect([op.operationId, res.status]).toEqual([op.operationId, 200]);
      const errors = [...Value.Errors(op.response!, res.json)].map(
        (e) => `${op.operationId} ${e.path}: ${e.message}`,
      );
      expect(errors).toEqual([]);
    }
    const missing = await get(app, ws.token, '/v2/deal/nope');
    expect(missing.status).toBe(404);
    expect(Object.keys(missing.json)).toEqual(['error']);
  });

  it('reads with fieldList answer in their schema: id and the chosen fields only', async () => {
    const { pipe, person, organization, lead, deal, customObject } = await ws.write(async (w) => {
      const pipe = await makePipeline(w);
      const organization = await makeOrganization(w);
      const person = await makePerson(w, { organizationId: organization });
      const lead = await makeLead(w, { peopleId: person });
      const deal = await makeDeal(w, {
        peopleId: person,
        pipelineId: pipe.id,
        stageId: pipe.stageIds[0],
      });
      await makeProduct(w);
      const definition = await defineCustomObject(w, {
        name: '계약서',
        fields: [{ name: '계약 금액', type: 'number' }],
      });
      const customObject = await insertCustomObject(w, {
        definitionId: definition.id,
        name: '공급 계약',
      });
      return { pipe, person, organization, lead, deal, customObject };
    });
    const urls: Record<string, string> = {
      listPeople: '/v2/people?fieldList=이메일,전화',
      getPeople: `/v2/people/${person}?fieldList=이메일`,
      listOrganizations: '/v2/organization?fieldList=딜 개수',
      getOrganization: `/v2/organization/${organization}?fieldList=이름`,
      listDeals: `/v2/deal?fieldList=파이프라인&pipelineName=${pipe.name}`,
      listLeads: '/v2/lead?fieldList=마감일,수정 날짜',
      getLead: `/v2/lead/${lead}?fieldList=마감일`,
      listProducts: '/v2/product?fieldList=코드',
      listCustomObjects: '/v2/custom-object?fieldList=계약 금액,RecordId',
      getCustomObject: `/v2/custom-object/${customObject}?fieldList=이름`,
    };
    const withFields = OPERATIONS.filter((o) => o.query.some((q) => q.name === 'fieldList'));
    expect(withFields.map((o) => o.operationId).sort()).toEqual(Object.keys(urls).sort());
    for (const op of withFields) {
      const res = await get(app, ws.token, encodeURI(urls[op.operationId]!));
      expect([op.operationId, res.status]).toEqual([op.operationId, 200]);
      // A custom object's single read answers one object, not an array of one.
      const records = (Object.values(res.json.data).find(Array.isArray) ?? [
        res.json.data.customObject,
      ]) as object[];
      expect(records.length, op.operationId).toBeGreaterThan(0);
      expect(Object.keys(records[0]!).length, op.operationId).toBeLessThan(4);
      const errors = [...Value.Errors(op.response!, res.json)].map(
        (e) => `${op.operationId} ${e.path}: ${e.message}`,
      );
      expect(errors).toEqual([]);
    }
    expect(deal).toBeTruthy();
  });

  it('/docs and its assets need no token; other files are not served', async () => {
    const page = await get(app, null, '/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.text).toContain('/docs/swagger-ui-bundle.js');
    expect(page.text).not.toMatch(/https?:\/\//);
    const bundle = await get(app, null, '/docs/swagger-ui-bundle.js');
    expect(bundle.status).toBe(200);
    expect(bundle.text.length).toBeGreaterThan(100_000);
    for (const path of ['/docs/package.json', '/docs/..%2Fpackage.json', '/docs/index.html']) {
      const res = await get(app, null, path);
      expect([path, res.status]).toEqual([path, 404]);
      expect(res.json.success).toBe(false);
    }
  });
});

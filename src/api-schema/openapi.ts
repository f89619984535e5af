/**
 * The OpenAPI 3.1 document of the API, generated from the route table (`operations/`) and
 * the TypeBox schemas: records become components and are referenced where they occur.
 */
import type { TSchema } from '@sinclair/typebox';
import { FIELD_TYPE_OF_PATH } from '../domain/field-catalogue.ts';
import { ErrorA, ErrorB } from './envelopes.ts';
import { OPERATIONS } from './operations/index.ts';
import { JsonRpcError } from './operations/mcp.ts';
import { type Operation, pathParameters } from './operations/operation.ts';
import { RECORD_SCHEMAS } from './records/components.ts';
import * as writeBodies from './write-bodies.ts';

/** Real answers by `operationId`, used as the success examples (see `examples.json`). */
export type OperationExamples = Record<string, unknown>;

/** What the document is built for. */
export interface OpenApiOptions {
  /** BASE_PATH of the server ('' by default): the API's paths are under it. */
  basePath: string;
  examples?: OperationExamples;
  /** Package version, shown as the document's version. */
  version?: string;
}

type Json = Record<string, unknown>;

/** Named schemas, each written once under components and referenced elsewhere. */
const COMPONENTS: Record<string, TSchema> = {
  ...RECORD_SCHEMAS,
  ...Object.fromEntries(Object.entries(writeBodies).map(([name, schema]) => [name, schema])),
  ErrorA,
  ErrorB,
};

const FIELD_TYPES = Object.keys(FIELD_TYPE_OF_PATH);

/** Path parameters that are not record ids. */
const PATH_PARAMETER_SCHEMAS: Record<string, Json> = {
  type: { type: 'string', enum: FIELD_TYPES },
  targetType: { type: 'string', enum: ['people', 'organization', 'deal', 'lead'] },
  toTargetType: {
    type: 'string',
    enum: ['people', 'organization', 'deal', 'lead', 'memo', 'custom-object'],
    description: '`…/primary` takes `memo`, `…/custom` takes `custom-object`',
  },
  asset: { type: 'string', examples: ['swagger-ui-bundle.js'] },
};

/** `targetType` of the association reads: a custom object's associations are read too. */
const ASSOCIATION_TARGET_TYPE: Json = {
  type: 'string',
  enum: ['people', 'organization', 'deal', 'lead', 'custom-object'],
};

/** The schema of a path parameter that is not a record id, in the path it is of. */
function pathParameterSchema(path: string, name: string): Json | undefined {
  if (name === 'targetType' && path.includes('/association/')) return ASSOCIATION_TARGET_TYPE;
  return PATH_PARAMETER_SCHEMAS[name];
}

/**
 * A TypeBox schema as plain JSON Schema: TypeBox's symbol keys dropped (JSON has none), and
 * every named schema other than `self` replaced by a `$ref` to its component.
 */
function toJsonSchema(schema: unknown, refs: Map<unknown, string>, self?: unknown): unknown {
  if (schema !== self && refs.has(schema)) {
    return { $ref: `#/components/schemas/${refs.get(schema)}` };
  }
  if (Array.isArray(schema)) return schema.map((s) => toJsonSchema(s, refs));
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) out[key] = toJsonSchema(value, refs);
  return out;
}

const HEADERS = {
  'X-Request-Id': {
    description: 'The request’s id, also in the server’s log',
    schema: { type: 'string' },
  },
  'RateLimit-Limit': {
    description: 'Requests allowed per window, per workspace (absent when the limit is off)',
    schema: { type: 'integer' },
  },
  'RateLimit-Remaining': {
    description: 'Requests left in the current window',
    schema: { type: 'integer' },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the window resets',
    schema: { type: 'integer' },
  },
  'Retry-After': {
    description: 'Seconds to wait before trying again',
    schema: { type: 'integer' },
  },
  'X-Ignored-Parameters': {
    description:
      'Query parameters (and top-level body keys of writes) the endpoint does not know and ignored, comma-separated, percent-encoded where a header cannot carry them or `,` or `%` is in them; at most 50 names (and 2,000 characters of them), then `(+N more)` for the rest',
    schema: { type: 'string' },
  },
};

const ERROR_TEXT: Record<number, string> = {
  400: 'A malformed parameter, cursor or body (the message names it)',
  401: 'Missing, malformed, unknown or revoked token',
  403: 'A write with a read-only token',
  404: 'No such record in this workspace',
  409: 'A conflict: the name is taken, or the record is still in use (the message says which)',
  410: 'The events after the cursor are past retention: sync again without a cursor',
  413: 'Request body over 1 MiB',
  415: 'A body that is not `multipart/form-data`, or a file of a kind not taken (by extension or content)',
  429: "Too many requests: the workspace's rate limit, or too many failed token checks from one address (`AUTH_FAILURE_LIMIT`). `reason` names the seconds to wait (`3초 후 재시도해주세요.`), the number `Retry-After` gives",
  500: 'Unexpected failure (no internals in the body)',
  502: 'The SMTP server refused the message (its reply in the message); nothing was kept',
  503: 'Database unavailable or overloaded (for e-mail: no SMTP_URL set)',
  507: 'The database has no space left: the write was not kept (`reason`: `disk full`)',
};

/** The 413 of an upload: its own bound. */
const FORM_TOO_LARGE = 'A file over 25 MB (refused as it arrives, nothing kept)';

function headerRefs(names: string[]): Json {
  return Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));
}

/** The error answers of an operation, in its shape. */
function errorResponses(op: Operation): Json {
  if (op.errorShape === 'none') return {};
  const statuses = [
    400,
    401,
    ...(op.api && op.method === 'POST' && !op.readsOnly ? [403] : []),
    ...(op.notFound ? [404] : []),
    ...(op.conflict ? [409] : []),
    ...(op.gone ? [410] : []),
    ...(op.method === 'POST' ? [413] : []),
    ...(op.form ? [415] : []),
    // On /mcp too: every message counts (a rate-limited tool call is also a tool error).
    429,
    500,
    ...(op.badGateway ? [502] : []),
    503,
    ...(op.method === 'GET' ? [] : [507]),
  ];
  const shape = { $ref: `#/components/schemas/${op.errorShape === 'B' ? 'ErrorB' : 'ErrorA'}` };
  const out: Json = {};
  for (const status of statuses) {
    // The MCP layer's own refusals are JSON-RPC error responses (400, 404, 406).
    const schema =
      op.mcp && status === 400
        ? { oneOf: [shape, JSON.parse(JSON.stringify(JsonRpcError))] }
        : shape;
    const text = status === 413 && op.form ? FORM_TOO_LARGE : ERROR_TEXT[status];
    // A 429's message, as the server answers it (src/http/errors.ts).
    const message = status === 429 ? '요청이 너무 많습니다.' : `${text}`;
    const example =
      op.errorShape === 'B'
        ? { error: message }
        : status === 507
          ? { success: false, message, reason: 'disk full' }
          : status === 429
            ? { success: false, message, reason: '3초 후 재시도해주세요.' }
            : { success: false, message, reason: message };
    const headers = [
      'X-Request-Id',
      ...(status === 401 ? [] : ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']),
    ];
    if (status === 429 || status === 503) headers.push('Retry-After');
    out[status] = {
      description: text,
      headers: headerRefs(headers),
      content: { 'application/json': { schema, example } },
    };
  }
  return out;
}

/** The success answer of an operation. */
function successResponse(
  op: Operation,
  refs: Map<unknown, string>,
  examples: OperationExamples,
): Json {
  const headers = headerRefs([
    'X-Request-Id',
    // `/mcp` counts its messages (a request of tool calls only is counted by their API calls).
    ...(op.api || op.mcp ? ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'] : []),
    ...(op.api ? ['X-Ignored-Parameters'] : []),
  ]);
  if (!op.response) {
    return {
      description: op.summary,
      headers,
      content: { [op.contentType ?? 'text/plain']: { schema: { type: 'string' } } },
    };
  }
  const media: Json = { schema: toJsonSchema(op.response, refs) };
  if (examples[op.operationId] !== undefined) media.example = examples[op.operationId];
  return { description: op.summary, headers, content: { 'application/json': media } };
}

/** One operation as an OpenAPI Operation Object. */
function operationObject(
  op: Operation,
  refs: Map<unknown, string>,
  examples: OperationExamples,
): Json {
  const parameters: Json[] = pathParameters(op.path).map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: pathParameterSchema(op.path, name) ?? { type: 'string', minLength: 1, maxLength: 64 },
  }));
  for (const h of op.headers ?? []) {
    parameters.push({
      name: h.name,
      in: 'header',
      required: h.required ?? false,
      description: h.description,
      schema: toJsonSchema(h.schema, refs),
    });
  }
  for (const q of op.query) {
    parameters.push({
      name: q.name,
      in: 'query',
      required: q.required ?? false,
      description: q.description,
      schema: toJsonSchema(q.schema, refs),
    });
  }
  const out: Json = {
    operationId: op.operationId,
    summary: op.summary,
    tags: [op.tag],
    parameters,
    responses: {
      [op.status]: successResponse(op, refs, examples),
      // JSON-RPC notifications and responses (messages without an `id`) get no answer.
      ...(op.mcp
        ? {
            202: {
              description: 'Only notifications or responses were sent: accepted, no body',
              headers: headerRefs([
                'X-Request-Id',
                'RateLimit-Limit',
                'RateLimit-Remaining',
                'RateLimit-Reset',
              ]),
            },
          }
        : {}),
      ...errorResponses(op),
    },
  };
  if (op.body) {
    out.requestBody = {
      required: true,
      content: { 'application/json': { schema: toJsonSchema(op.body, refs) } },
    };
  }
  if (op.form) {
    out.requestBody = {
      required: true,
      content: {
        'multipart/form-data': {
          schema: toJsonSchema(op.form, refs),
          encoding: { file: { contentType: 'application/octet-stream' } },
        },
      },
    };
  }
  if (!op.api && !op.mcp) out.security = [];
  return out;
}

/** The OpenAPI 3.1 document of every operation of the server. */
export function buildOpenApiDocument(options: OpenApiOptions): Json {
  const refs = new Map<unknown, string>(Object.entries(COMPONENTS).map(([name, s]) => [s, name]));
  const examples = options.examples ?? {};
  const paths: Record<string, Json> = {};
  for (const op of OPERATIONS) {
    const path = op.api || op.underBase || op.mcp ? `${options.basePath}${op.path}` : op.path;
    paths[path] ??= {};
    paths[path]![op.method.toLowerCase()] = operationObject(op, refs, examples);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Sales CRM API v2',
      version: options.version ?? '0.1.0',
      description: [
        'Records carry Korean keys in a fixed order, then the workspace’s custom fields (see `GET /v2/field/{type}`).',
        'Lists are keyset pages: pass `nextCursor` back as `cursor` until it is null (deal and lead lists also spell it `nextCurosr`).',
        'Every error is `{"success": false, "message": ...}` except on `GET /v2/deal/{dealId}`, where it is `{"error": ...}`.',
        'Unknown query parameters are ignored and named in `X-Ignored-Parameters`.',
        'Batch calls under `/v3` (tag Batch) read, create and update many records of one type; a batch write is one transaction, and a refused one names the item under `data.index`.',
      ].join('\n\n'),
    },
    servers: [
      {
        url: '/',
        description: options.basePath ? `API paths are under ${options.basePath}` : 'This server',
      },
    ],
    security: [{ bearerAuth: [] }],
    tags: [...new Set(OPERATIONS.map((o) => o.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'A workspace token (`salescrm token create --workspace ID`)',
        },
      },
      headers: HEADERS,
      schemas: Object.fromEntries(
        Object.entries(COMPONENTS).map(([name, s]) => [name, toJsonSchema(s, refs, s)]),
      ),
    },
  };
}

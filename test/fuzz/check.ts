/**
 * Sending a fuzz request (its `§new:…§` and `§uniq§` tokens made real first) and the checks
 * of its answer against the operation's part of the document: the success status and
 * response schema, or a refusal in the operation's error shape; never a 5xx, never the other
 * workspace's data.
 */
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { ErrorA, ErrorB } from '../../src/api-schema/envelopes.ts';
import { JsonRpcError } from '../../src/api-schema/operations/mcp.ts';
import type { Operation } from '../../src/api-schema/operations/operation.ts';
import { type Fixture, FOREIGN_MARKER, uniq } from './fixture.ts';
import type { Req } from './valid.ts';

/** Replaces the tokens of `text` by fresh records' ids and unique suffixes. */
async function resolveText(fx: Fixture, text: string): Promise<string> {
  const parts = text.split(/(§[^§]+§)/);
  for (let i = 1; i < parts.length; i += 2) {
    const token = parts[i]!.slice(1, -1);
    if (token === 'uniq') parts[i] = uniq();
    else if (token.startsWith('new:')) parts[i] = await fx.fresh(token.slice(4) as 'deal');
    else throw new Error(`unknown token ${parts[i]}`);
  }
  return parts.join('');
}

/** A request as sent: path with its query, and the payload. */
export interface Sent {
  method: 'GET' | 'POST';
  url: string;
  payload?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
}

/** Makes the tokens of `req` real (records made here are made before any snapshot). */
export async function prepare(fx: Fixture, req: Req): Promise<Sent> {
  const path = await resolveText(fx, req.path);
  const query = (req.query ?? [])
    .map(
      ([k, v]) => `${encodeURIComponent(k)}=${/%[0-9A-F]{2}/i.test(v) ? v : encodeURIComponent(v)}`,
    )
    .join('&');
  const url = query ? `${path}?${query}` : path;
  const headers = req.headers ? { headers: req.headers } : {};
  if (req.payload !== undefined) {
    return {
      ...headers,
      method: req.method,
      url,
      payload: req.payload,
      ...(req.contentType ? { contentType: req.contentType } : {}),
    };
  }
  if (req.body === undefined) return { ...headers, method: req.method, url };
  return {
    ...headers,
    method: req.method,
    url,
    payload: await resolveText(fx, JSON.stringify(req.body)),
    contentType: req.contentType ?? 'application/json',
  };
}

export function send(
  app: FastifyInstance,
  token: string,
  sent: Sent,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: sent.method,
    url: sent.url,
    headers: {
      ...sent.headers,
      authorization: `Bearer ${token}`,
      ...(sent.contentType ? { 'content-type': sent.contentType } : {}),
    },
    ...(sent.payload === undefined ? {} : { payload: sent.payload }),
  });
}

/** What a failing case prints: the request and the answer, shortened. */
export function describeCase(why: string, sent: Sent, res: LightMyRequestResponse): string {
  const payload =
    sent.payload === undefined
      ? ''
      : ` ${String(sent.payload).slice(0, 300)}${String(sent.payload).length > 300 ? '…' : ''}`;
  return `${why}: ${sent.method} ${sent.url.slice(0, 200)}${payload} → ${res.statusCode} ${res.body.slice(0, 400)}`;
}

function schemaErrors(schema: TSchema, value: unknown): string {
  return [...Value.Errors(schema, value)]
    .slice(0, 3)
    .map((e) => `${e.path}: ${e.message}`)
    .join('; ');
}

/** Throws unless `res` is the operation's success, in its response schema. */
export function checkSuccess(op: Operation, res: LightMyRequestResponse, context: string): void {
  if (res.statusCode !== op.status) throw new Error(`expected ${op.status}: ${context}`);
  if (!op.response) {
    const media = op.contentType?.split(';')[0];
    const got = String(res.headers['content-type']);
    if (media && media !== 'application/octet-stream' && !got.startsWith(media)) {
      throw new Error(`expected ${op.contentType}: ${context}`);
    }
    return;
  }
  const json = parse(res, context);
  if (!Value.Check(op.response, json)) {
    throw new Error(
      `answer not in the response schema (${schemaErrors(op.response, json)}): ${context}`,
    );
  }
}

/** Throws unless `res` is a refusal in the operation's error shape. */
export function checkRefusal(op: Operation, res: LightMyRequestResponse, context: string): void {
  if (op.errorShape === 'none') return;
  if (!String(res.headers['content-type']).startsWith('application/json')) {
    throw new Error(`error not JSON: ${context}`);
  }
  const schema = op.errorShape === 'B' ? ErrorB : ErrorA;
  const json = parse(res, context);
  const jsonRpc = op.mcp && res.statusCode === 400 && Value.Check(JsonRpcError, json);
  if (!jsonRpc && !Value.Check(schema, json)) {
    throw new Error(
      `error not in shape ${op.errorShape} (${schemaErrors(schema, json)}): ${context}`,
    );
  }
  if (/\n\s+at |\.ts:\d+|node_modules|SQLITE_|FST_ERR|\bselect\b.*\bfrom\b/i.test(res.body)) {
    throw new Error(`error leaks internals: ${context}`);
  }
}

/** Throws when the answer holds the other workspace's data. */
export function checkNoForeignData(
  res: LightMyRequestResponse,
  sent: Sent,
  fx: Fixture,
  context: string,
): void {
  if (res.body.includes(FOREIGN_MARKER)) throw new Error(`the other workspace's data: ${context}`);
  const request = `${sent.url} ${sent.payload === undefined ? '' : String(sent.payload)}`;
  for (const ids of Object.values(fx.o.ids)) {
    for (const id of ids) {
      if (res.body.includes(id) && !request.includes(id)) {
        throw new Error(`the other workspace's id ${id}: ${context}`);
      }
    }
  }
}

function parse(res: LightMyRequestResponse, context: string): unknown {
  try {
    return JSON.parse(res.body);
  } catch {
    throw new Error(`not JSON: ${context}`);
  }
}

import type { FastifyInstance } from 'fastify';

/** One answer of the API, as a tool reads it. */
export interface ApiAnswer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: the API's JSON, read by key
  json: any;
  /** `Retry-After` of a 429, in seconds. */
  retryAfter?: string;
  /** `X-Ignored-Parameters`: the query and body keys the operation ignored. */
  ignored?: string;
  /** The body's bytes and its headers, for an answer that is not JSON (a file's content). */
  raw?: { bytes: Buffer; headers: Record<string, string | undefined> };
}

/** What a call sends besides a JSON body: request headers, or a multipart body instead. */
export interface CallOptions {
  /** Headers of the request (`Idempotency-Key`), besides `Authorization`. */
  headers?: Record<string, string>;
  /** A `multipart/form-data` body, sent as it is in place of the JSON body. */
  form?: { payload: Buffer; contentType: string };
  /** A success is read as bytes (`raw`), not as JSON: a download. */
  raw?: boolean;
}

/** Calls one API operation as the tool's caller: a path under the base path, a JSON body. */
export type ApiCall = (
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  options?: CallOptions,
) => Promise<ApiAnswer>;

/**
 * An `ApiCall` that runs the request in process through the app (`inject`), with the
 * caller's `Authorization`: the API's own auth, read-only check, rate limit, validation,
 * history and webhooks, exactly as over the network.
 */
export function injectCall(app: FastifyInstance, base: string, authorization: string): ApiCall {
  return async (method, path, body, options = {}) => {
    const { form } = options;
    const contentType = form?.contentType ?? 'application/json';
    const res = await app.inject({
      method,
      url: `${base}${path}`,
      headers: {
        ...options.headers,
        authorization,
        ...(method === 'POST' ? { 'content-type': contentType } : {}),
      },
      payload: method === 'POST' ? (form?.payload ?? JSON.stringify(body ?? {})) : undefined,
    });
    const retryAfter = res.headers['retry-after'];
    const ignored = res.headers['x-ignored-parameters'];
    const more = {
      ...(typeof retryAfter === 'string' ? { retryAfter } : {}),
      ...(typeof ignored === 'string' ? { ignored } : {}),
    };
    if (options.raw && res.statusCode >= 200 && res.statusCode < 300) {
      const headers: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(res.headers)) {
        headers[name] = Array.isArray(value) ? value.join(', ') : value?.toString();
      }
      return {
        status: res.statusCode,
        json: null,
        raw: { bytes: res.rawPayload, headers },
        ...more,
      };
    }
    let json: unknown;
    try {
      json = JSON.parse(res.body);
    } catch {
      json = { success: false, message: res.body, reason: res.body };
    }
    return { status: res.statusCode, json, ...more };
  };
}

/** A query string of the values given (undefined and null left out), with its `?`. */
export function query(values: Record<string, string | number | undefined | null>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

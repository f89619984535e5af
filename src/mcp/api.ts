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
}

/** Calls one API operation as the tool's caller: a path under the base path, a JSON body. */
export type ApiCall = (method: 'GET' | 'POST', path: string, body?: unknown) => Promise<ApiAnswer>;

/**
 * An `ApiCall` that runs the request in process through the app (`inject`), with the
 * caller's `Authorization`: the API's own auth, read-only check, rate limit, validation,
 * history and webhooks, exactly as over the network.
 */
export function injectCall(app: FastifyInstance, base: string, authorization: string): ApiCall {
  return async (method, path, body) => {
    const res = await app.inject({
      method,
      url: `${base}${path}`,
      headers: {
        authorization,
        ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
      },
      payload: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
    });
    let json: unknown;
    try {
      json = JSON.parse(res.body);
    } catch {
      json = { success: false, message: res.body, reason: res.body };
    }
    const retryAfter = res.headers['retry-after'];
    const ignored = res.headers['x-ignored-parameters'];
    return {
      status: res.statusCode,
      json,
      ...(typeof retryAfter === 'string' ? { retryAfter } : {}),
      ...(typeof ignored === 'string' ? { ignored } : {}),
    };
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

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Which requests get a log line. */
export interface RequestLogOptions {
  /** Every request, at `info` (LOG_REQUESTS=1). */
  all: boolean;
  /** Requests slower than this many milliseconds, at `warn`, even when `all` is off (SLOW_REQUEST_MS; 0: every one). */
  slowMs: number;
}

/**
 * One JSON line per request, written when its answer has gone: the request id (also the
 * `X-Request-Id` header), the workspace of its token, the method, the route's pattern
 * (never the URL, whose query may carry anything), the status and the time taken. Never a
 * header: no token, no `Authorization`.
 */
export function logRequests(app: FastifyInstance, options: RequestLogOptions): void {
  app.addHook('onResponse', (request, reply, done) => {
    const durationMs = reply.elapsedTime;
    const slow = durationMs >= options.slowMs;
    if (slow) request.log.warn(requestFields(request, reply, durationMs), 'slow request');
    else if (options.all) request.log.info(requestFields(request, reply, durationMs), 'request');
    done();
  });
}

/** What a request's log line says besides its id (the logger adds `requestId`). */
function requestFields(request: FastifyRequest, reply: FastifyReply, durationMs: number) {
  return {
    workspaceId: request.auth?.workspaceId ?? null,
    method: request.method,
    route: request.routeOptions.url ?? null,
    status: reply.statusCode,
    durationMs: Math.round(durationMs * 10) / 10,
  };
}

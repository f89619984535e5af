import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import type { Config } from '../config.ts';
import { DomainError } from '../domain/errors.ts';
import { discardBody, REFUSED_BODY_BOUNDS } from '../http/discard-body.ts';
import {
  DISK_FULL_MESSAGE,
  type ErrorShape,
  errorAnswer,
  errorBody,
  STATUS_OF,
} from '../http/errors.ts';
import { PageCache } from '../http/page-cache.ts';
import type { ReadTaskRunner, RouteDeps } from '../http/route-deps.ts';
import { setSecurityHeaders } from '../http/security-headers.ts';
import { JSON_TYPE } from '../http/send.ts';
import { registerMcpRoute } from '../mcp/http-route.ts';
import { registerSubjectActivityRoutes } from '../resources/activities/routes.ts';
import { registerAssociationRoutes } from '../resources/associations/routes.ts';
import { registerBatchRoutes } from '../resources/batch/routes.ts';
import { registerCustomObjectRoutes } from '../resources/custom-objects/routes.ts';
import { registerCustomObjectWrites } from '../resources/custom-objects/write-routes.ts';
import { registerDealActivityRoutes } from '../resources/deal-activities/routes.ts';
import { registerDealRoutes } from '../resources/deals/routes.ts';
import { registerDealWrites } from '../resources/deals/write-routes.ts';
import { smtpMailer } from '../resources/emails/mailer.ts';
import { registerEmailRoutes } from '../resources/emails/routes.ts';
import { registerEventRoutes } from '../resources/events/routes.ts';
import { registerFieldRoutes } from '../resources/fields/routes.ts';
import { registerFieldWrites } from '../resources/fields/write-routes.ts';
import { registerFileRoutes } from '../resources/files/routes.ts';
import { registerLeadRoutes } from '../resources/leads/routes.ts';
import { registerLeadWrites } from '../resources/leads/write-routes.ts';
import { registerMemoRoutes } from '../resources/notes/routes.ts';
import { registerMemoWrites } from '../resources/notes/write-routes.ts';
import { registerOrganizationRoutes } from '../resources/organizations/routes.ts';
import { registerOrganizationWrites } from '../resources/organizations/write-routes.ts';
import { registerPeopleRoutes } from '../resources/people/routes.ts';
import { registerPeopleWrites } from '../resources/people/write-routes.ts';
import { registerPeopleHistoryRoutes } from '../resources/people-history/routes.ts';
import { registerPipelineRoutes } from '../resources/pipelines/routes.ts';
import { registerProductRoutes } from '../resources/products/routes.ts';
import { registerProductWrites } from '../resources/products/write-routes.ts';
import { registerQuoteRoutes } from '../resources/quotes/routes.ts';
import { registerQuoteWrites } from '../resources/quotes/write-routes.ts';
import { registerRecordHistoryRoutes } from '../resources/record-history/routes.ts';
import { registerRecordingRoutes } from '../resources/recordings/routes.ts';
import { registerSearchRoutes } from '../resources/search/routes.ts';
import { registerSequenceRoutes } from '../resources/sequences/routes.ts';
import { registerSequenceWrites } from '../resources/sequences/write-routes.ts';
import { registerTeamRoutes } from '../resources/teams/routes.ts';
import { registerTodoRoutes } from '../resources/todos/routes.ts';
import { registerTodoWrites } from '../resources/todos/write-routes.ts';
import { registerUserRoutes } from '../resources/users/routes.ts';
import { registerWebFormRoutes } from '../resources/web-forms/routes.ts';
import { registerWebhookRoutes } from '../resources/webhooks/routes.ts';
import { urlVerifier } from '../resources/webhooks/verify.ts';
import { registerWebhookWrites } from '../resources/webhooks/write-routes.ts';
import type { Store } from '../store/database.ts';
import { isDiskFull } from '../store/disk-full.ts';
import { isStoreUnavailable } from '../store/unavailable.ts';
import { UnsyncedWriteError } from '../store/writes-stopped.ts';
import { isSingleDealPath, routeKind } from './api-route.ts';
import { tokenAuthenticator } from './auth.ts';
import { authFailureCounter, throttledAuthenticator } from './auth-failures.ts';
import { clientErrorHandler, expectationRefuser } from './client-error.ts';
import { DiskFullLog } from './disk-full-log.ts';
import { recordRoutes, registerDocsRoutes } from './docs.ts';
import { Metrics } from './metrics.ts';
import { LoadShedder } from './overload.ts';
import { chargeRequest } from './rate-charge.ts';
import { MemoryRateLimiter, type RateLimiter } from './rate-limit.ts';
import { refuseReadOnlyWrite } from './read-only.ts';
import { logRequests } from './request-log.ts';
import { WorkspaceGate } from './workspace-gate.ts';

/** Options of `buildApp`; the config's values decide the rest. */
export interface AppOptions {
  store: Store;
  config: Pick<
    Config,
    | 'basePath'
    | 'rateLimitMax'
    | 'rateLimitWindowMs'
    | 'pageCacheBytes'
    | 'logLevel'
    | 'logRequests'
    | 'webhookAllowPrivate'
  > &
    Partial<
      Pick<
        Config,
        | 'metrics'
        | 'metricsPort'
        | 'slowRequestMs'
        | 'requestTimeoutMs'
        | 'overloadDelayMs'
        | 'workspaceHeavyRunning'
        | 'workspaceHeavyWaiting'
        | 'smtpUrl'
        | 'smtpFrom'
        | 'authFailureLimit'
        | 'trustProxy'
      >
    >;
  /** Shared counters (e.g. Redis); defaults to this process's memory. */
  rateLimiter?: RateLimiter;
  /** Threads that run searches off the event loop (`serve` starts them); without, on it. */
  readThreads?: ReadTaskRunner | undefined;
  /** Log to stdout (the CLI's serve); tests leave it off. */
  logger?: boolean;
  /** Log JSON lines to this stream instead of stdout (tests read what is logged). */
  logStream?: { write(line: string): void };
  /** Milliseconds between two log lines about a full disk (default 10 s). */
  diskFullLogIntervalMs?: number;
  /** Milliseconds a webhook URL has to answer its verification (default 10 s; tests shorten it). */
  webhookVerifyTimeoutMs?: number;
  /**
   * The metrics to record requests in (`serve` makes them for METRICS or METRICS_PORT);
   * with `config.metrics` and none given, the app makes its own.
   */
  metrics?: Metrics | undefined;
}

const BODY_LIMIT = 1024 * 1024;
/** How long a long read may run when the config does not say (REQUEST_TIMEOUT_MS). */
const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
const DEFAULT_SLOW_REQUEST_MS = 500;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
/** Heavy calls a workspace runs at once, and waiting (WORKSPACE_HEAVY_RUNNING, _WAITING). */
const DEFAULT_HEAVY_RUNNING = 2;
const DEFAULT_HEAVY_WAITING = 8;

/** Builds the HTTP API over a store: auth, limits, errors and every resource's routes. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { store, config } = options;
  // Load shedding answers before Fastify sees a request (overload.ts). Off unless the
  // config says (an app built in a test shares its event loop with the test).
  const shedder =
    (config.overloadDelayMs ?? 0) > 0
      ? new LoadShedder(config.overloadDelayMs!, config.basePath)
      : undefined;
  const app = Fastify({
    ...(shedder ? { serverFactory: shedder.serverFactory() } : {}),
    logger:
      options.logStream || options.logger
        ? {
            level: config.logLevel,
            ...(options.logStream ? { stream: options.logStream } : {}),
          }
        : false,
    // Fastify's own two lines per request are replaced by one of ours (request-log.ts).
    logController: new LogController({
      disableRequestLogging: true,
      requestIdLogLabel: 'requestId',
    }),
    bodyLimit: BODY_LIMIT,
    genReqId: () => crypto.randomUUID(),
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    // What Node's HTTP parser refuses, answered in the API's shape (client-error.ts).
    clientErrorHandler: clientErrorHandler(config.basePath),
    // Node answers an HTTP/1.1 request without Host 400 with an empty body; the API routes
    // nothing by host (an HTTP/1.0 request, which need not say it, was served already).
    http: { requireHostHeader: false },
    frameworkErrors: (_error, request, reply) =>
      badPath(config.basePath, request.method, request.url, reply),
    // While closing (SIGTERM), a request that still arrives on an open keep-alive
    // connection is served, with `Connection: close`, rather than refused with Fastify's
    // own 503 body, which is in neither of the API's error shapes.
    return503OnClosing: false,
    // Behind the proxies TRUST_PROXY names, `request.ip` is the client their
    // X-Forwarded-For gives (what AUTH_FAILURE_LIMIT counts by), not the proxy.
    ...(config.trustProxy ? { trustProxy: config.trustProxy } : {}),
  });
  const base = config.basePath;
  app.server.on('checkExpectation', expectationRefuser(base));
  // Unset (an app built in a test), failed token checks are not throttled.
  const authenticate = throttledAuthenticator(
    tokenAuthenticator(store),
    authFailureCounter(config.authFailureLimit),
  );
  const limiter =
    options.rateLimiter ??
    (config.rateLimitMax > 0
      ? new MemoryRateLimiter(config.rateLimitMax, config.rateLimitWindowMs)
      : undefined);
  const cache = config.pageCacheBytes > 0 ? new PageCache(config.pageCacheBytes) : undefined;
  const gate = new WorkspaceGate(
    config.workspaceHeavyRunning ?? DEFAULT_HEAVY_RUNNING,
    config.workspaceHeavyWaiting ?? DEFAULT_HEAVY_WAITING,
  );
  if (shedder) shedder.causing = (authorization) => gate.causing(authorization);
  const diskFull = new DiskFullLog(store.location, options.diskFullLogIntervalMs);

  app.decorateRequest('auth', null as never);
  app.decorateRequest('leaveGate', null as never);
  recordRoutes(app);
  logRequests(app, {
    all: config.logRequests,
    slowMs: config.slowRequestMs ?? DEFAULT_SLOW_REQUEST_MS,
  });

  // Metrics (no token, at the root like the health checks): on this port with METRICS=1,
  // on a port of their own (served by `serve`) with METRICS_PORT.
  const metrics = options.metrics ?? (config.metrics ? new Metrics(store) : undefined);
  if (metrics) {
    metrics.watchCache(cache);
    metrics.watchShedder(shedder);
    metrics.observe(app);
    if (config.metrics && config.metricsPort === undefined) {
      app.get('/metrics', async (_request, reply) =>
        reply.header('Content-Type', metrics.contentType).send(await metrics.text()),
      );
    }
  }

  // JSON bodies, where an empty body (a delete sent with `Content-Type: application/json`,
  // as every client of the API does) reads as no body.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, text, done) => {
    if (typeof text !== 'string' || text.trim() === '') return done(null, undefined);
    parseJson(request, text, (error, value) => {
      if (error)
        done(new DomainError('invalid_body', '요청 본문이 올바른 JSON이 아닙니다.'), undefined);
      else done(null, value);
    });
  });

  app.addHook('onRequest', async (request, reply) => {
    setSecurityHeaders(reply);
    reply.header('X-Request-Id', request.id);
    // The matched route, not the raw URL: `/%762/people` is routed to `/v2/people` too.
    const route = request.routeOptions.url;
    const kind = routeKind(route, base);
    if (kind === 'service' || route === undefined) return;
    request.auth = await authenticate(request.headers.authorization, request.ip);
    // `/mcp` takes the API's tokens and counts its messages once it has read them (http-route.ts).
    if (kind === 'mcp') return;
    refuseReadOnlyWrite(request.auth, request.method, route.slice(base.length));
    if (!limiter) return;
    const cost = request.routeOptions.config?.rateCost ?? 1;
    await chargeRequest(limiter, request.auth.workspaceId, cost, reply);
  });

  // A heavy call waits for its workspace's turn once its body has been read (workspace-gate.ts),
  // and gives the turn back when its answer has gone or its client left. The hooks are the
  // heavy routes' own: the other routes run none of them.
  const enterGate = async (request: FastifyRequest) => {
    if (!request.auth) return;
    const leave = await gate.enter(request.auth.workspaceId, request.headers.authorization);
    if (request.raw.destroyed) {
      leave();
      return;
    }
    request.leaveGate = leave;
  };
  const leaveGate = async (request: FastifyRequest) => request.leaveGate?.();
  app.addHook('onRoute', (route) => {
    if (!route.config?.heavy) return;
    route.preHandler = [...[route.preHandler ?? []].flat(), enterGate];
    route.onResponse = [...[route.onResponse ?? []].flat(), leaveGate];
    route.onRequestAbort = [...[route.onRequestAbort ?? []].flat(), leaveGate];
  });

  // With a read replica, a read request's queries go where the workspace's writes are
  // (callback hook: the route runs inside `next`, so the choice follows it).
  const routeReads = store.routeReads?.bind(store);
  if (routeReads) {
    app.addHook('onRequest', (request, _reply, done) => {
      if (!request.auth || (request.method !== 'GET' && request.method !== 'HEAD')) return done();
      routeReads(request.auth.workspaceId, request.auth.dataVersion, done);
    });
  }

  app.get('/healthz', async (_request, reply) =>
    reply.header('Content-Type', JSON_TYPE).send('{"status":"ok"}'),
  );
  app.get('/readyz', async (_request, reply) => {
    const ok = await store.ping();
    if (!ok) reply.header('Retry-After', '5');
    return reply
      .code(ok ? 200 : 503)
      .header('Content-Type', JSON_TYPE)
      .send(ok ? '{"status":"ready"}' : '{"status":"unavailable"}');
  });

  const deps: RouteDeps = {
    store,
    cache,
    base,
    requestTimeoutMs: config.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    readThreads: options.readThreads,
  };
  registerPeopleRoutes(app, deps);
  registerSearchRoutes(app, deps);
  registerPeopleHistoryRoutes(app, deps);
  registerOrganizationRoutes(app, deps);
  registerDealActivityRoutes(app, deps);
  registerDealRoutes(app, deps);
  registerLeadRoutes(app, deps);
  registerProductRoutes(app, deps);
  registerQuoteRoutes(app, deps);
  registerSubjectActivityRoutes(app, deps);
  registerRecordHistoryRoutes(app, deps);

  // Writes (docs/decisions.md, Reads and writes).
  registerPeopleWrites(app, deps);
  registerOrganizationWrites(app, deps);
  registerDealWrites(app, deps);
  registerLeadWrites(app, deps);
  registerProductWrites(app, deps);
  registerQuoteWrites(app, deps);
  registerCustomObjectRoutes(app, deps);
  registerCustomObjectWrites(app, deps);
  // Workspace-level reads: pipelines, users, teams, todos, notes, web forms, field lists.
  registerPipelineRoutes(app, deps);
  registerUserRoutes(app, deps);
  registerTeamRoutes(app, deps);
  registerTodoRoutes(app, deps);
  registerTodoWrites(app, deps);
  registerMemoRoutes(app, deps);
  registerMemoWrites(app, deps);
  registerWebFormRoutes(app, deps);
  registerSequenceRoutes(app, deps);
  registerAssociationRoutes(app, deps);
  registerSequenceWrites(app, deps);
  registerFieldRoutes(app, deps);
  registerFieldWrites(app, deps);
  registerEventRoutes(app, deps);
  // Files (docs/decisions.md, Other resources): multipart uploads kept in the database, downloads,
  // deletes.
  registerFileRoutes(app, deps);
  registerRecordingRoutes(app, deps);
  // E-mail (docs/decisions.md, Other resources): sent through SMTP_URL, recorded as the people's
  // activity.
  const mailer = config.smtpUrl ? smtpMailer(config.smtpUrl) : undefined;
  if (mailer) app.addHook('onClose', async () => mailer.close());
  registerEmailRoutes(app, deps, { mailer, from: config.smtpFrom });
  // Batch reads and writes, a record type's pipelines and associations (`/v3`).
  registerBatchRoutes(app, deps);
  // Webhooks (docs/decisions.md, Events and webhooks): registration, management and the delivery
  // log.
  registerWebhookRoutes(app, deps);
  registerWebhookWrites(
    app,
    deps,
    urlVerifier({
      allowPrivate: config.webhookAllowPrivate,
      timeoutMs: options.webhookVerifyTimeoutMs,
    }),
  );
  // The MCP server for AI assistants (docs/mcp.md), over the same token and operations.
  registerMcpRoute(
    app,
    base,
    limiter && {
      charge: (workspaceId, cost, reply) => chargeRequest(limiter, workspaceId, cost, reply),
      count: async (workspaceId, cost) => {
        await limiter.hit(workspaceId, cost);
      },
    },
  );
  // The OpenAPI document and the reference page (no token).
  registerDocsRoutes(app, { basePath: base });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = METHODS.filter(
      (m) => m !== request.method && app.findRoute({ method: m, url: path }) !== null,
    );
    if (allowed.length > 0) {
      return reply
        .code(405)
        .header('Allow', allowed.join(', '))
        .header('Content-Type', JSON_TYPE)
        .send(errorBody('A', `${request.method} 메서드는 이 경로에서 지원하지 않습니다.`));
    }
    return reply
      .code(404)
      .header('Content-Type', JSON_TYPE)
      .send(errorBody('A', `경로를 찾을 수 없습니다: ${request.method} ${path}`));
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const shape: ErrorShape = request.routeOptions.config?.errorShape ?? 'A';
    const answer = errorAnswer(error);
    if (error instanceof UnsyncedWriteError) {
      request.log.error({ err: error }, 'a write was not synced to disk: writes stopped');
    }
    if (answer) {
      for (const [name, value] of Object.entries(answer.headers)) reply.header(name, value);
      return reply
        .code(answer.status)
        .header('Content-Type', JSON_TYPE)
        .send(errorBody(shape, answer.message, answer.data, answer.reason));
    }
    if (isDiskFull(error)) {
      diskFull.report(request.log, error);
      return reply
        .code(STATUS_OF.disk_full)
        .header('Content-Type', JSON_TYPE)
        .send(errorBody(shape, DISK_FULL_MESSAGE, undefined, 'disk full'));
    }
    const status = mapFrameworkError(error);
    if (status === 500) {
      request.log.error({ err: error }, 'request failed');
      return reply
        .code(500)
        .header('Content-Type', JSON_TYPE)
        .send(errorBody(shape, '서버 내부 오류입니다.'));
    }
    const message =
      status === 413
        ? '요청 본문이 1 MiB를 넘습니다.'
        : status === 415
          ? '요청 본문은 Content-Type: application/json 으로 보내 주세요.'
          : status === 503
            ? '데이터베이스를 잠시 사용할 수 없습니다.'
            : '잘못된 요청입니다.';
    if (status === 503) reply.header('Retry-After', '1');
    const send = () =>
      reply.code(status).header('Content-Type', JSON_TYPE).send(errorBody(shape, message));
    if (status !== 413 || request.raw.complete) return send();
    // The rest of the body is read first, so that the client is still reading when the
    // answer arrives; the connection is kept only when the whole body was read.
    return discardBody(request.raw, REFUSED_BODY_BOUNDS).then((ended) => {
      if (ended) reply.removeHeader('connection');
      return send();
    });
  });

  return app;
}

/**
 * Answers the router's own errors (a path that is not valid percent-encoding, or a path
 * parameter over `maxParamLength`) as a 400 in the shape of the route the path names.
 */
function badPath(base: string, method: string, url: string, reply: FastifyReply): void {
  const singleDeal = isSingleDealPath(base, method, url.split('?')[0]!);
  // Before routing: the hooks that set them did not run.
  setSecurityHeaders(reply);
  reply
    .code(400)
    .header('X-Request-Id', reply.request.id)
    .header('Content-Type', JSON_TYPE)
    .send(
      singleDeal
        ? errorBody('B', `'dealId' 형식이 올바르지 않습니다.`)
        : errorBody(
            'A',
            '요청 경로가 올바르지 않습니다: 잘못된 퍼센트 인코딩이거나 경로의 값이 너무 깁니다.',
          ),
    );
}

/** Status of an error raised by Fastify itself or the database driver. */
function mapFrameworkError(error: FastifyError): number {
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return 413;
  if (isStoreUnavailable(error)) return 503;
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500)
    return error.statusCode;
  return 500;
}

import { randomUUID } from 'node:crypto';
import {
  createServer,
  type ServerOptions as HttpServerOptions,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyServerFactory } from 'fastify';
import { errorBody } from '../http/errors.ts';
import { SECURITY_HEADERS } from '../http/security-headers.ts';
import { JSON_TYPE } from '../http/send.ts';
import { isSingleDealPath, pathKind } from './api-route.ts';

/** What Fastify passes a server factory: its options, with its defaults filled in. */
interface ServerOptions {
  http?: HttpServerOptions;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number | null;
}

/** How often the event loop's delay is sampled (milliseconds). */
const SAMPLE_MS = 100;
/** The histogram's resolution (milliseconds), taken off each mean as Node's own lateness. */
const RESOLUTION_MS = 10;
/** The share of API requests shed at most, so that some always get through and probe the load. */
const MOST_SHED = 0.95;
/**
 * A server that has just started listening sheds nothing until a sample shows its loop keeping
 * up (a delay within the bound): until then it is still starting (its first requests' cold
 * paths, what runs just after `listen`), however long a loaded machine makes that. A window
 * of 200 ms of the clock passed before a busy machine had run a start-up, and its first
 * requests were shed. A server that never keeps up (started into more requests than it can
 * answer) is armed after this many samples all the same (5 s on a loop that keeps time).
 */
const ARM_LATEST_SAMPLES = 50;
/**
 * While some workspaces have heavy calls under way, the others' requests are shed only past
 * this many times the bound: the load is shed from the workspaces causing it.
 */
const BYSTANDER_FACTOR = 4;

/**
 * Connections the kernel holds for the server before it accepts them (`listen`'s backlog;
 * Linux caps it at `net.core.somaxconn`, 4096 by default since 5.4). Node's default, 511,
 * overflowed when a thousand clients connected at once (`bench:overload`): the kernel then
 * drops connections it has half made, and their clients waited 1 s, 3 s, ... to retry, timed
 * out connecting, or had their request reset (`ECONNRESET`) instead of getting an answer.
 */
export const LISTEN_BACKLOG = 4096;

export const OVERLOADED_MESSAGE =
  '요청이 너무 많아 처리할 수 없습니다. 잠시 후 다시 시도해 주세요.';

/**
 * Load shedding: while the event loop's mean delay over the last sample (or, in a stretch
 * of reads that has not let the loop run its timers, the time the next sample is overdue)
 * is over `delayMs`, API requests (`/v2`, `/v3`, `/mcp`) are answered 503 with
 * `Retry-After: 1`, each with the probability `1 - delayMs / delay` (a delay twice the
 * bound sheds half). Requests then wait for at most about twice the bound, instead of
 * queueing without end when more arrive than the server can answer; probes, metrics and the
 * document are never shed; nor is anything after the server starts listening until a
 * sample shows its loop keeping up (the start-up's own work is not overload, however long
 * it takes). While some workspaces have heavy calls under way (`workspace-gate.ts`), the
 * requests of the others are shed only past four times the bound: the load is shed from the
 * workspaces causing it, not from everyone.
 *
 * The answer is written on the HTTP server's request, before the framework routes it, runs
 * its hooks or makes an error of it: a shed request then costs the server 0.12–0.17 of the
 * single deal's read (HTTP's own parsing and writing; measured with wrk), where it cost as
 * much as the read before, so the time a shed frees goes to the requests it keeps. Its
 * shape follows the path: B for reading one deal (`GET /v2/deal/{id}`), A otherwise.
 */
export class LoadShedder {
  private delay = 0;
  /** When the sampling timer is next due: a loop that has not run it since is that late now. */
  private due = Number.POSITIVE_INFINITY;
  /** Samples taken since the server started listening. */
  private samples = 0;
  /** Whether a sample since the server started listening showed the loop keeping up. */
  private keptUp = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  private readonly bodyA = errorBody('A', OVERLOADED_MESSAGE);
  private readonly bodyB = errorBody('B', OVERLOADED_MESSAGE);
  /** Requests shed since the start. */
  shed = 0;
  /**
   * Whether a request with this `Authorization` header comes from a workspace causing the
   * load (`WorkspaceGate.causing`); unset, every request is shed alike.
   */
  causing: ((authorization: string | undefined) => boolean | undefined) | undefined;

  constructor(
    private readonly delayMs: number,
    private readonly base: string,
    private readonly random: () => number = Math.random,
  ) {}

  /**
   * Whether requests may be shed: since `start`, a sample showed the loop keeping up, or
   * `ARM_LATEST_SAMPLES` were taken.
   */
  get armed(): boolean {
    return this.keptUp || this.samples >= ARM_LATEST_SAMPLES;
  }

  /** Starts sampling the event loop's delay; requests may be shed once it is `armed`. */
  start(): void {
    if (this.timer) return;
    this.samples = 0;
    this.keptUp = false;
    this.histogram.enable();
    this.due = performance.now() + SAMPLE_MS;
    this.timer = setInterval(() => {
      // The histogram's mean lateness of its own timer; when the loop was so busy that the
      // histogram's timer did not run since the last sample (no mean), this timer's own.
      const now = performance.now();
      const late = Math.max(0, now - this.due);
      this.due = now + SAMPLE_MS;
      const mean = this.histogram.mean / 1e6 - RESOLUTION_MS;
      this.delay = Math.max(late, Number.isNaN(mean) ? 0 : mean);
      this.histogram.reset();
      this.samples += 1;
      if (this.delay <= this.delayMs) this.keptUp = true;
    }, SAMPLE_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.histogram.disable();
    this.delay = 0;
    this.due = Number.POSITIVE_INFINITY;
  }

  /** Answers `req` 503 and returns true when it is to be shed; false leaves it alone. */
  answer(req: IncomingMessage, res: ServerResponse): boolean {
    // The last sample's delay, or, while the loop has not run its timers since (one poll of
    // libuv's reads up to 48 × 1,024 sockets before it does: 15 s for 18,000 connections
    // each sending), how late the next sample is now; the requests read in such a stretch
    // have waited about as long.
    const now = performance.now();
    const delay = Math.max(this.delay, now - this.due);
    if (delay <= this.delayMs || !this.armed) return false;
    const url = req.url ?? '/';
    const end = url.indexOf('?');
    const path = end === -1 ? url : url.slice(0, end);
    if (pathKind(path, this.base) === 'service') return false;
    const bystander = this.causing?.(req.headers.authorization) === false;
    const bound = bystander ? BYSTANDER_FACTOR * this.delayMs : this.delayMs;
    if (this.random() >= Math.min(MOST_SHED, 1 - bound / delay)) return false;
    this.shed += 1;
    const body = isSingleDealPath(this.base, req.method ?? '', path) ? this.bodyB : this.bodyA;
    res.writeHead(503, {
      'Content-Type': JSON_TYPE,
      'Content-Length': Buffer.byteLength(body),
      'Retry-After': '1',
      'X-Request-Id': randomUUID(),
      ...SECURITY_HEADERS,
    });
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  }

  /**
   * Fastify's `serverFactory`: the HTTP server Fastify would make (its timeouts), whose
   * requests pass through `answer` first. Sampling starts when the server listens.
   */
  serverFactory(): FastifyServerFactory {
    return (handler, fastifyOptions) => {
      const options = fastifyOptions as ServerOptions;
      // Nothing is shed once the server stops listening (a shutdown's drain): each answer
      // then closes its connection, which bounds the load, and a 503 would not say so.
      const server: Server = createServer(options.http ?? {}, (req, res) => {
        if (!(server.listening && this.answer(req, res))) handler(req, res);
      });
      // As Fastify sets its own server (its defaults: 72 s keep-alive, no request timeout).
      server.keepAliveTimeout = options.keepAliveTimeout ?? 72_000;
      server.requestTimeout = options.requestTimeout ?? 0;
      server.setTimeout(options.connectionTimeout ?? 0);
      if ((options.maxRequestsPerSocket ?? 0) > 0)
        server.maxRequestsPerSocket = options.maxRequestsPerSocket!;
      server.once('listening', () => this.start());
      server.once('close', () => this.stop());
      return server;
    };
  }
}

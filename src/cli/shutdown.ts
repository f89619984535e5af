import type { IncomingMessage } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** The most a connection idle at the signal is given for its next request. */
const IDLE_MOMENT_MS = 1_000;

/** How often connections gone idle while draining are closed. */
const IDLE_SWEEP_MS = 50;

/**
 * Resolves once SIGTERM or SIGINT has closed the app without cutting a request:
 *
 * - the listening socket closes at once (a new connection is refused, never reset);
 * - every answer from then on carries `Connection: close` (but one with a request pipelined
 *   behind it: the last answer of the connection does), so each client opens its next
 *   connection elsewhere, and the server closes the connection after the answer;
 * - a connection idle at the signal gets a moment (1 s, within `graceMs`) for its next
 *   request, which is served; then it is closed, and so is any connection found idle later;
 * - requests in flight finish; after `graceMs` the connections still open are cut.
 *
 * `onSignal` runs first (the dispatcher starts stopping alongside). Repeated signals are
 * ignored (a terminal's Ctrl-C reaches the workers and the primary, which forwards it too).
 * Call it before the app is ready: it adds the hook that writes `Connection: close`.
 */
export function untilStopped(
  app: FastifyInstance,
  graceMs: number,
  onSignal: () => void = () => {},
): Promise<void> {
  let draining = false;
  // The last request received on each connection: a request pipelined behind another is
  // served before its connection is closed, so only the last one's answer says `close`. (An
  // answer may be ready while the requests before it still wait for theirs, e.g. for the
  // sync of their write: what is ahead of it does not matter, only what is behind.)
  const last = new WeakMap<Socket, IncomingMessage>();
  app.server.on('request', (request: IncomingMessage) => {
    last.set(request.socket, request);
  });
  app.addHook('onSend', async (request, reply) => {
    if (draining && last.get(request.raw.socket) === request.raw) {
      reply.header('Connection', 'close');
    }
  });
  return new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      if (draining) return;
      draining = true;
      onSignal();
      app.log.info({ signal }, 'shutting down: finishing in-flight requests');
      const server = app.server;
      // Only stop listening: `http.Server#close` would also close the idle keep-alive
      // connections at once, and a request a client is sending on one just then is reset.
      const drained = new Promise<void>((done) =>
        NetServer.prototype.close.call(server, () => done()),
      );
      let sweep: NodeJS.Timeout | undefined;
      const moment = setTimeout(
        () => {
          server.closeIdleConnections();
          sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
        },
        Math.min(IDLE_MOMENT_MS, graceMs / 2),
      );
      const cut = setTimeout(() => {
        app.log.warn({ graceMs }, 'in-flight requests did not finish in time; closing them');
        server.closeAllConnections();
      }, graceMs);
      cut.unref();
      const finish = () => {
        clearTimeout(moment);
        clearInterval(sweep);
        clearTimeout(cut);
        resolve();
      };
      drained
        .then(() => app.close())
        .then(finish, (error: unknown) => {
          app.log.error({ err: error }, 'error while closing');
          finish();
        });
    };
    process.on('SIGTERM', () => stop('SIGTERM'));
    process.on('SIGINT', () => stop('SIGINT'));
  });
}

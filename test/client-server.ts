import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** A request a stub server received. */
export interface StubCall {
  method: string;
  url: string;
  body: string;
  headers: IncomingMessage['headers'];
}

/** A tiny real HTTP server whose answers a test scripts, call by call. */
export interface StubServer {
  url: string;
  calls: StubCall[];
  close(): Promise<void>;
}

/** How a stub answers call number `n` (0-based); it may also never answer. */
export type StubHandler = (call: StubCall, res: ServerResponse, n: number) => void | Promise<void>;

/** Starts a stub server on a free port of 127.0.0.1. */
export async function stubServer(handler: StubHandler): Promise<StubServer> {
  const calls: StubCall[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const call: StubCall = {
        method: req.method ?? '',
        url: req.url ?? '',
        body: Buffer.concat(chunks).toString('utf8'),
        headers: req.headers,
      };
      calls.push(call);
      void handler(call, res, calls.length - 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers a JSON error body with a status and headers. */
export function answer(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/** Passes a call on to a real server and relays its answer. */
export async function proxy(target: string, call: StubCall, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  for (const name of ['authorization', 'content-type', 'accept']) {
    const value = call.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const upstream = await fetch(`${target}${call.url}`, {
    method: call.method,
    headers,
    ...(call.method === 'GET' ? {} : { body: call.body }),
  });
  const out: Record<string, string> = {};
  upstream.headers.forEach((value, name) => {
    if (name !== 'content-length' && name !== 'transfer-encoding' && name !== 'connection')
      out[name] = value;
  });
  res.writeHead(upstream.status, out);
  res.end(await upstream.text());
}

/** Listens on a free port of 127.0.0.1 and answers the base URL. */
export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

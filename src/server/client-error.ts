import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyInstance } from 'fastify';
import { errorBody } from '../http/errors.ts';
import { SECURITY_HEADERS } from '../http/security-headers.ts';
import { JSON_TYPE } from '../http/send.ts';
import { isSingleDealPath } from './api-route.ts';
import { readRawHead, requestLine } from './raw-request.ts';

export const MALFORMED_MESSAGE = '요청이 올바른 HTTP/1.1 요청이 아닙니다.';
export const HEADERS_TOO_LARGE_MESSAGE = `요청 헤더가 너무 큽니다: 요청 줄과 헤더를 합쳐 ${maxHeaderSize / 1024} KiB까지 받습니다.`;
export const TIMEOUT_MESSAGE = '요청이 제시간에 다 도착하지 않았습니다.';
export const EXPECTATION_MESSAGE =
  "'Expect' 헤더의 요구를 들어줄 수 없습니다: 이 서버는 '100-continue'만 받습니다.";
export const RAW_TARGET_MESSAGE =
  '경로나 쿼리의 UTF-8 문자는 퍼센트 인코딩해 보내 주세요 (예: 이름 → %EC%9D%B4%EB%A6%84).';

/** How long a refused connection is read (and dropped) before it is closed, if the client does not close it. */
const LINGER_MS = 5_000;

/**
 * Fastify's `clientErrorHandler`: answers what Node's HTTP parser refused (a malformed
 * request, headers over `maxHeaderSize`, a request that did not arrive in time) in the
 * API's error shape with a Korean message, as a whole HTTP/1.1 response written on the
 * socket, then closes the connection. A request refused only for raw UTF-8 in its path or
 * query is served instead, with those bytes percent-encoded, as if it had been sent so.
 */
export function clientErrorHandler(base: string): (error: ConnectionError, socket: Socket) => void {
  // The parser refuses every chunk after the first error: one answer a connection.
  const answered = new WeakSet<Socket>();
  return function handle(this: FastifyInstance, error: ConnectionError, socket: Socket) {
    if (error.code === 'ECONNRESET' || socket.destroyed || answered.has(socket)) return;
    answered.add(socket);
    // The connection is this handler's now. The rest of what the client sends is read and
    // dropped, so that closing does not reset the connection before the client has read
    // the answer; a client that ends its side still gets the answer (Node's own listener
    // would end ours at once, before a request served through the app is answered).
    socket.removeAllListeners('end');
    socket.on('data', () => {});
    socket.on('error', () => {});
    // Node gives the Buffer it was parsing (Fastify's type says its JSON form).
    const raw: unknown = error.rawPacket;
    const packet = Buffer.isBuffer(raw) ? raw : Buffer.alloc(0);
    const at = typeof error.bytesParsed === 'number' ? error.bytesParsed : 0;
    if (error.code === 'HPE_INVALID_URL') {
      const head = readRawHead(packet, at);
      if (head) {
        void serve(this, head, socket).catch(() => socket.destroy());
        return;
      }
    }
    const { method, path, rawBytes } = requestLine(packet, at);
    const [status, message] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, HEADERS_TOO_LARGE_MESSAGE]
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, TIMEOUT_MESSAGE]
          : error.code === 'HPE_INVALID_URL' && rawBytes
            ? [400, RAW_TARGET_MESSAGE]
            : [400, MALFORMED_MESSAGE];
    const shape = isSingleDealPath(base, method, path) ? 'B' : 'A';
    const body = Buffer.from(errorBody(shape, message));
    const headers = {
      ...SECURITY_HEADERS,
      'Content-Type': JSON_TYPE,
      'X-Request-Id': randomUUID(),
    };
    send(socket, status, headers, body);
  };
}

/**
 * The HTTP server's `checkExpectation` listener: an `Expect` header other than
 * `100-continue`, which Node answers 417 with an empty body, answered in the API's shape.
 */
export function expectationRefuser(
  base: string,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const shape = isSingleDealPath(base, req.method ?? '', path) ? 'B' : 'A';
    const body = errorBody(shape, EXPECTATION_MESSAGE);
    res.writeHead(417, {
      ...SECURITY_HEADERS,
      'Content-Type': JSON_TYPE,
      'Content-Length': Buffer.byteLength(body),
      'X-Request-Id': randomUUID(),
      Connection: 'close',
    });
    res.end(body);
  };
}

/** Serves a request read again (`readRawHead`) through the app, and closes the connection. */
async function serve(
  app: FastifyInstance,
  head: NonNullable<ReturnType<typeof readRawHead>>,
  socket: Socket,
): Promise<void> {
  const res = await app.inject({
    method: head.method as 'GET',
    url: head.url,
    headers: head.headers,
    remoteAddress: socket.remoteAddress,
  });
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined || SET_HERE.has(name)) continue;
    headers[name] = Array.isArray(value) ? value : String(value);
  }
  send(socket, res.statusCode, headers, head.method === 'HEAD' ? Buffer.alloc(0) : res.rawPayload);
}

/** Headers of an injected answer that `send` writes itself. */
const SET_HERE = new Set(['connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/**
 * Writes a whole HTTP/1.1 response with `headers` on `socket` and ends the connection (an
 * injected answer has its security headers already: adding them again would send the docs
 * page two policies, which a browser enforces both of).
 */
function send(
  socket: Socket,
  status: number,
  headers: Record<string, string | string[]>,
  body: Buffer,
): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`];
  for (const [name, value] of Object.entries(headers)) {
    for (const one of [value].flat()) lines.push(`${name}: ${one}`);
  }
  lines.push(`Content-Length: ${body.length}`, 'Connection: close', '', '');
  socket.end(Buffer.concat([Buffer.from(lines.join('\r\n'), 'latin1'), body]));
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

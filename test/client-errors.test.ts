/**
 * What Node's HTTP parser refuses, before any route: a malformed request, headers over
 * 16 KiB, raw (unencoded) UTF-8 in the request target. The answers are whole HTTP/1.1
 * responses in the API's error shape with a Korean message (they were Fastify's English
 * `{"error":"Bad Request","message":"Client Error","statusCode":400}`), and a query sent
 * with raw UTF-8, as curl sends what is typed, is served as the percent-encoded one is.
 * The requests are bytes on a socket: `inject` never meets the parser.
 */
import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeDeal, makePerson } from './factories.ts';
import { appWithWorkspace, type TestWorkspace } from './helpers.ts';

let app: FastifyInstance;
let ws: TestWorkspace;
let port: number;
appWithWorkspace((made) => ({ app, ws } = made), { workspace: 'file' });
beforeAll(async () => {
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as { port: number }).port;
  await ws.write(async (w) => {
    const person = await makePerson(w, { name: '원시 고객' });
    await makeDeal(w, { name: '원시 딜', peopleId: person });
  });
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  /** The head as sent: each header line, repeats included. */
  head: string;
  body: string;
}

/**
 * Sends `bytes` on a new connection and reads the answer until the server closes it (the
 * requests say `Connection: close`; the client does not end its side, as curl does not:
 * Node's server ends a connection whose client has, before answering).
 */
function exchange(bytes: Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers,
        head: text.slice(0, split),
        body: text.slice(split + 4),
      });
    });
    socket.write(bytes);
  });
}

/** A request's bytes: the request line as given (raw UTF-8 stays raw), then `headers`. */
function request(line: string, headers: string[] = [], body = ''): Buffer {
  const head = [line, 'Host: 127.0.0.1', 'Connection: close', ...headers, '', ''].join('\r\n');
  return Buffer.concat([Buffer.from(head, 'utf8'), Buffer.from(body)]);
}

function expectShapeA(answer: RawAnswer, status: number, message: RegExp): void {
  expect(answer.status, answer.body).toBe(status);
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(answer.headers.connection).toBe('close');
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(answer.body)));
  const json = JSON.parse(answer.body);
  expect(Object.keys(json)).toEqual(['success', 'message', 'reason']);
  expect(json.success).toBe(false);
  expect(json.message).toMatch(message);
  expect(json.message).toMatch(/[가-힣]/);
}

describe('what the HTTP parser refuses', () => {
  it('a malformed request line is a 400 in shape A, in Korean', async () => {
    expectShapeA(await exchange(Buffer.from('GARBAGE\r\n\r\n')), 400, /HTTP\/1\.1 요청/);
    expectShapeA(
      await exchange(Buffer.from('GET /v2/people HTTP/9.9\r\nHost: x\r\n\r\n')),
      400,
      /HTTP\/1\.1 요청/,
    );
  });

  it('a header of 20 KB is a 431 in shape A, in Korean', async () => {
    const answer = await exchange(
      request('GET /v2/people HTTP/1.1', [
        `Authorization: Bearer ${ws.token}`,
        `X-Big: ${'a'.repeat(20_000)}`,
      ]),
    );
    expectShapeA(answer, 431, /헤더가 너무 큽니다/);
  });

  it('the single deal keeps its shape B when the parser refuses its request', async () => {
    const answer = await exchange(
      request('GET /v2/deal/abc HTTP/1.1', [`X-Big: ${'a'.repeat(20_000)}`]),
    );
    expect(answer.status).toBe(431);
    expect(Object.keys(JSON.parse(answer.body))).toEqual(['error']);
  });

  it('an expectation the server does not meet is a 417 in shape A, in Korean', async () => {
    const answer = await exchange(
      request('GET /v2/people HTTP/1.1', [`Authorization: Bearer ${ws.token}`, 'Expect: magic']),
    );
    expectShapeA(answer, 417, /Expect/);
  });

  it('a request without Host is served: the API routes nothing by host', async () => {
    const head = `GET /v2/people HTTP/1.1\r\nAuthorization: Bearer ${ws.token}\r\nConnection: close\r\n\r\n`;
    const answer = await exchange(Buffer.from(head));
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body).success).toBe(true);
  });

  it('raw UTF-8 in a query is served as the percent-encoded query is', async () => {
    const auth = [`Authorization: Bearer ${ws.token}`];
    const raw = await exchange(request('GET /v2/people?fieldList=이름,이메일 HTTP/1.1', auth));
    const encoded = await exchange(
      request(`GET /v2/people?fieldList=${encodeURIComponent('이름,이메일')} HTTP/1.1`, auth),
    );
    expect(encoded.status, encoded.body).toBe(200);
    expect(raw.status, raw.body).toBe(200);
    expect(raw.body).toBe(encoded.body);
    // The fields chosen are the ones named: the raw bytes were read as UTF-8.
    expect(JSON.parse(raw.body).data.peopleList).toEqual([
      { id: expect.any(String), 이름: '원시 고객', 이메일: null },
    ]);
    expect(raw.headers['x-content-type-options']).toBe('nosniff');
    expect(raw.headers['content-type']).toBe(encoded.headers['content-type']);
    // Each security header once: two policies would both be enforced.
    for (const name of ['content-security-policy', 'x-frame-options', 'x-content-type-options']) {
      expect(raw.head.toLowerCase().split(`\r\n${name}:`).length - 1, name).toBe(1);
    }
  });

  it('raw UTF-8 in a path is routed as the percent-encoded path is', async () => {
    const auth = [`Authorization: Bearer ${ws.token}`];
    const raw = await exchange(request('GET /v2/deal/없는딜 HTTP/1.1', auth));
    const encoded = await exchange(
      request(`GET /v2/deal/${encodeURIComponent('없는딜')} HTTP/1.1`, auth),
    );
    expect(raw.status).toBe(encoded.status);
    expect(raw.body).toBe(encoded.body);
    expect(Object.keys(JSON.parse(raw.body))).toEqual(['error']);
  });

  it('raw UTF-8 in the target of a request with a body is a 400 that says to percent-encode', async () => {
    const answer = await exchange(
      request(
        'POST /v2/people?메모=1 HTTP/1.1',
        [
          `Authorization: Bearer ${ws.token}`,
          'Content-Type: application/json',
          'Content-Length: 2',
        ],
        '{}',
      ),
    );
    expectShapeA(answer, 400, /퍼센트 인코딩/);
  });
});

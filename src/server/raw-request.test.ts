import { describe, expect, it } from 'vitest';
import { readRawHead, requestLine } from './raw-request.ts';

const bytes = (text: string) => Buffer.from(text, 'utf8');
/** Where the parser stops in `packet`: at its first byte over 0x7F. */
const firstHigh = (packet: Buffer) => packet.findIndex((b) => b > 0x7f);

describe('readRawHead', () => {
  it('reads a bodiless request with its raw UTF-8 percent-encoded', () => {
    const packet = bytes(
      'GET /v2/people?fieldList=이름 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\n\r\n',
    );
    expect(readRawHead(packet, firstHigh(packet))).toEqual({
      method: 'GET',
      url: '/v2/people?fieldList=%EC%9D%B4%EB%A6%84',
      headers: { host: 'x', authorization: 'Bearer t' },
    });
  });

  it('reads the second request of a packet, where the parser was', () => {
    const packet = bytes(
      'GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b?q=값 HTTP/1.1\r\nHost: y\r\n\r\n',
    );
    expect(readRawHead(packet, firstHigh(packet))?.url).toBe('/b?q=%EA%B0%92');
  });

  it('refuses a head cut short, one with a body, and one with more wrong than UTF-8', () => {
    const cut = bytes('GET /b?q=값 HTTP/1.1\r\nHost: y\r\n');
    expect(readRawHead(cut, firstHigh(cut))).toBeUndefined();
    const started = bytes('값 HTTP/1.1\r\nHost: y\r\n\r\n');
    expect(readRawHead(started, 0)).toBeUndefined();
    const body = bytes('POST /b?q=값 HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}');
    expect(readRawHead(body, firstHigh(body))).toBeUndefined();
    const chunked = bytes('POST /b?q=값 HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n');
    expect(readRawHead(chunked, firstHigh(chunked))).toBeUndefined();
    const control = bytes('GET /b?q=값\x01 HTTP/1.1\r\nHost: y\r\n\r\n');
    expect(readRawHead(control, firstHigh(control))).toBeUndefined();
    const folded = bytes('GET /b?q=값 HTTP/1.1\r\nHost: y\r\n continued\r\n\r\n');
    expect(readRawHead(folded, firstHigh(folded))).toBeUndefined();
    const version = bytes('GET /b?q=값 HTTP/1.0\r\nHost: y\r\n\r\n');
    expect(readRawHead(version, firstHigh(version))).toBeUndefined();
  });
});

describe('requestLine', () => {
  it('finds the request line of the request the parser was in', () => {
    const packet = bytes(`GET /v2/deal/x HTTP/1.1\r\nX-Big: ${'a'.repeat(100)}\r\n\r\n`);
    expect(requestLine(packet, packet.length - 3)).toEqual({
      method: 'GET',
      path: '/v2/deal/x',
      rawBytes: false,
    });
    expect(requestLine(bytes('GET /가?x HTTP/1.1\r\n'), 5).rawBytes).toBe(true);
  });
});

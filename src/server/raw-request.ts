/**
 * A request head that Node's HTTP parser refused only for raw (unencoded) UTF-8 in its
 * path or query, read again with those bytes percent-encoded. Node's parser (llhttp)
 * refuses any byte over 0x7F in the request target, in its lenient mode too; curl sends
 * `?fieldList=이름,이메일` as the bytes typed, as do other clients a user types a URL into.
 */

/** The methods a request line is read with: a line that starts otherwise is not one. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** A header name: an HTTP token. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** A bodiless request, its target percent-encoded. */
export interface RawHead {
  method: string;
  /** The request target with every byte over 0x7F percent-encoded. */
  url: string;
  headers: Record<string, string>;
}

/**
 * The request line of the request the parser was reading at byte `at`, as far as it can
 * be read, for the answer's shape: its method, its path, and whether its target has raw
 * bytes over 0x7F. It is the first line after the head before `at`, or the packet's first.
 */
export function requestLine(
  packet: Buffer,
  at: number,
): { method: string; path: string; rawBytes: boolean } {
  const before = at < 4 ? -1 : packet.lastIndexOf('\r\n\r\n', at - 4);
  const start = before < 0 ? 0 : before + 4;
  const end = packet.indexOf('\r\n', start);
  const line = packet.subarray(start, end < 0 ? packet.length : end).toString('latin1');
  const [method = '', target = ''] = line.split(' ');
  return { method, path: target.split('?')[0]!, rawBytes: /[\x80-\xff]/.test(target) };
}

/**
 * The head of the request whose target the parser refused at byte `at` of `packet`, if it
 * is whole in `packet`, has no body and is refused for nothing but bytes over 0x7F in its
 * target; undefined otherwise (the request then gets a 400).
 */
export function readRawHead(packet: Buffer, at: number): RawHead | undefined {
  const start = lineStart(packet, at);
  const end = packet.indexOf('\r\n\r\n', start);
  if (end < 0) return undefined;
  const lines = packet.subarray(start, end).toString('latin1').split('\r\n');
  const parts = lines[0]!.split(' ');
  if (parts.length !== 3 || !METHODS.has(parts[0]!) || parts[2] !== 'HTTP/1.1') return undefined;
  const url = percentEncodeHigh(Buffer.from(parts[1]!, 'latin1'));
  // What is left must be what the parser takes: visible ASCII, starting at the root.
  if (!/^\/[\x21-\x7e]*$/.test(url)) return undefined;
  // No prototype: a header named `constructor` or `__proto__` is a header like any other.
  const headers: Record<string, string> = Object.create(null);
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).toLowerCase();
    if (colon <= 0 || !TOKEN.test(name) || /[\r\n\0]/.test(line)) return undefined;
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  // Only a request without a body: its end is the end of its head.
  if (headers['transfer-encoding'] !== undefined) return undefined;
  if ((headers['content-length'] ?? '0') !== '0') return undefined;
  return { method: parts[0]!, url, headers };
}

/** Where the line holding byte `at` starts: the request line the parser was reading. */
function lineStart(packet: Buffer, at: number): number {
  return at <= 0 ? 0 : packet.lastIndexOf('\n', Math.min(at, packet.length) - 1) + 1;
}

/** `bytes` as text, each byte over 0x7F percent-encoded (a UTF-8 sequence, byte by byte). */
function percentEncodeHigh(bytes: Buffer): string {
  let out = '';
  for (const b of bytes) {
    out += b > 0x7f ? `%${b.toString(16).toUpperCase()}` : String.fromCharCode(b);
  }
  return out;
}

import { closeSync, openSync, readSync } from 'node:fs';
import type { Readable } from 'node:stream';

/** Longest NDJSON line an import reads (one record: a few KB; its custom values included). */
export const MAX_LINE_CHARS = 8 * 1024 * 1024;

/** A line over `MAX_LINE_CHARS`: the file is refused, nothing is imported. */
export class LineTooLongError extends Error {
  constructor(where = '') {
    super(
      `${where}a line is longer than ${MAX_LINE_CHARS / 1024 / 1024} Mi characters: not an export line`,
    );
  }
}

const LF = 10;
const CR = 13;

/**
 * Splits UTF-8 bytes, given in chunks, into lines: on LF, CRLF or a lone CR (as `readline`
 * does), a CRLF cut across chunks being one break. Works on the bytes and decodes each line
 * once (a line break is never part of a multi-byte character), so a chunk is not decoded
 * and copied whole before it is split.
 */
export class LineSplitter {
  /** The unfinished line: bytes after the last break. */
  private rest: Buffer | undefined;
  /** The last chunk ended with a CR: a LF opening the next one is the same break. */
  private afterCr = false;

  /** The lines completed by `chunk` (which the splitter may keep a part of). */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    const buf = chunk;
    let start = 0;
    if (this.afterCr) {
      this.afterCr = false;
      if (buf.length > 0 && buf[0] === LF) start = 1;
    }
    if (this.rest) {
      // The unfinished line ends at the chunk's first break; only that much is joined to it.
      const lf = buf.indexOf(LF, start);
      const cr = buf.indexOf(CR, start);
      const end = cr >= 0 && (lf < 0 || cr < lf) ? cr : lf;
      if (end < 0) {
        this.keep(Buffer.concat([this.rest, buf.subarray(start)]));
        return lines;
      }
      lines.push(Buffer.concat([this.rest, buf.subarray(start, end)]).toString('utf8'));
      this.rest = undefined;
      start = end + 1;
      if (buf[end] === CR) {
        if (end === buf.length - 1) this.afterCr = true;
        else if (buf[end + 1] === LF) start++;
      }
    }
    let cr = buf.indexOf(CR, start);
    for (;;) {
      const lf = buf.indexOf(LF, start);
      if (cr >= 0 && (lf < 0 || cr < lf)) {
        // A CR before the next LF (or the chunk's end): a break, a CRLF's when a LF follows.
        if (cr === buf.length - 1) {
          lines.push(buf.toString('utf8', start, cr));
          this.afterCr = true;
          start = buf.length;
          break;
        }
        lines.push(buf.toString('utf8', start, cr));
        start = buf[cr + 1] === LF ? cr + 2 : cr + 1;
        cr = buf.indexOf(CR, start);
        continue;
      }
      if (lf < 0) break;
      lines.push(buf.toString('utf8', start, lf));
      start = lf + 1;
    }
    // Copied, so the chunk the caller reads into next may be reused.
    if (start < buf.length) this.keep(Buffer.from(buf.subarray(start)));
    return lines;
  }

  private keep(rest: Buffer): void {
    this.rest = rest;
    if (unitsOf(rest) > MAX_LINE_CHARS) throw new LineTooLongError();
  }

  /** The last line, when the input does not end with a break. */
  end(): string[] {
    const rest = this.rest;
    this.rest = undefined;
    return rest && rest.length > 0 ? [rest.toString('utf8')] : [];
  }
}

/** UTF-16 units of UTF-8 bytes, about: one per lead byte, two per four-byte character. */
function unitsOf(bytes: Buffer): number {
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if ((b & 0xc0) !== 0x80) n += b >= 0xf0 ? 2 : 1;
  }
  return n;
}

/**
 * The lines of a UTF-8 stream, split on LF, CRLF or a lone CR (as `readline` does), in one
 * batch per chunk read: the consumer awaits once per chunk, not once per line.
 */
export async function* ndjsonLines(input: Readable): AsyncGenerator<string[]> {
  const splitter = new LineSplitter();
  for await (const chunk of input) {
    const lines = splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
    if (lines.length > 0) yield lines;
  }
  const last = splitter.end();
  if (last.length > 0) yield last;
}

/** Bytes a file is read by at a time. */
const FILE_CHUNK = 1024 * 1024;

/**
 * The lines of a UTF-8 file, as `ndjsonLines` splits them, read synchronously a chunk at a
 * time (an import holds the database's write lock, so nothing waits on it meanwhile, and a
 * read from the page cache takes less than handing it to the thread pool); `onBytes` is
 * told of each chunk read.
 */
export function* ndjsonFileLines(path: string, onBytes?: (n: number) => void): Generator<string[]> {
  const fd = openSync(path, 'r');
  try {
    const splitter = new LineSplitter();
    const chunk = Buffer.allocUnsafe(FILE_CHUNK);
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      onBytes?.(n);
      const lines = splitter.push(chunk.subarray(0, n));
      if (lines.length > 0) yield lines;
    }
    const last = splitter.end();
    if (last.length > 0) yield last;
  } finally {
    closeSync(fd);
  }
}

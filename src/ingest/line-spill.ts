import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Bytes gathered before a write to the file, and read from it at a time. */
const BLOCK = 1024 * 1024;

/**
 * Lines kept aside in a private temporary file, to be read back once, in order: an import
 * keeps there the checked lines of the records it renders at the end, once every fact about
 * them has been read, rather than holding them in memory. The file is removed as soon as it
 * is open where the system allows (so a killed import leaves nothing behind), else by
 * `close()`. Lines must not contain a line break.
 */
export class LineSpill {
  private fd: number | undefined;
  private dir: string | undefined;
  private readonly block = Buffer.allocUnsafe(BLOCK);
  private used = 0;
  private written = 0;
  /** Lines appended. */
  count = 0;

  constructor(private readonly parent = tmpdir()) {}

  private open(): number {
    if (this.fd !== undefined) return this.fd;
    const dir = mkdtempSync(join(this.parent, 'salescrm-import-'));
    const path = join(dir, 'lines.ndjson');
    this.fd = openSync(path, 'w+', 0o600);
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      this.dir = dir;
    }
    return this.fd;
  }

  /** Keeps one line. */
  append(line: string): void {
    this.count++;
    // A UTF-16 code unit is at most 3 bytes of UTF-8, and the line break 1.
    if (this.used + line.length * 3 + 1 > BLOCK) {
      this.writeBlock();
      if (line.length * 3 + 1 > BLOCK) {
        this.writeBytes(Buffer.from(`${line}\n`));
        return;
      }
    }
    this.used += this.block.write(line, this.used, 'utf8');
    this.block[this.used++] = 10;
  }

  private writeBlock(): void {
    if (this.used === 0) return;
    this.writeBytes(this.block.subarray(0, this.used));
    this.used = 0;
  }

  private writeBytes(bytes: Buffer): void {
    const fd = this.open();
    let done = 0;
    while (done < bytes.length) {
      done += writeSync(fd, bytes, done, bytes.length - done, this.written + done);
    }
    this.written += bytes.length;
  }

  /** The lines kept, in order, in batches of up to `size`. Read once, after the last append. */
  *batches(size: number): Generator<string[]> {
    if (this.fd === undefined) {
      // Everything is still in the block: no file was needed.
      yield* splitBatches(this.block.subarray(0, this.used), size);
      return;
    }
    this.writeBlock();
    let buffer = Buffer.allocUnsafe(BLOCK);
    let start = 0;
    let end = 0;
    let position = 0;
    let batch: string[] = [];
    for (;;) {
      const nl = buffer.indexOf(10, start);
      if (nl >= 0 && nl < end) {
        batch.push(buffer.toString('utf8', start, nl));
        start = nl + 1;
        if (batch.length === size) {
          yield batch;
          batch = [];
        }
        continue;
      }
      if (position >= this.written) break;
      // Keep the unfinished line, at the start of a buffer large enough for another block.
      const rest = end - start;
      if (rest + BLOCK > buffer.length) {
        const bigger = Buffer.allocUnsafe(rest + BLOCK);
        buffer.copy(bigger, 0, start, end);
        buffer = bigger;
      } else {
        buffer.copy(buffer, 0, start, end);
      }
      start = 0;
      end = rest;
      const n = readSync(this.fd, buffer, end, buffer.length - end, position);
      if (n === 0) break;
      position += n;
      end += n;
    }
    if (batch.length > 0) yield batch;
  }

  /** Closes and removes the file. */
  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }
}

function* splitBatches(bytes: Buffer, size: number): Generator<string[]> {
  let start = 0;
  let batch: string[] = [];
  for (;;) {
    const nl = bytes.indexOf(10, start);
    if (nl < 0) break;
    batch.push(bytes.toString('utf8', start, nl));
    start = nl + 1;
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LineSplitter, ndjsonFileLines } from '../src/ingest/ndjson-lines.ts';
import { LineTooLongError, MAX_LINE_CHARS, ndjsonLines } from '../src/ingest/run-import.ts';

/** All lines of the chunks, as `ndjsonLines` splits them. */
async function linesOf(chunks: (string | Buffer)[]): Promise<string[]> {
  const out: string[] = [];
  for await (const batch of ndjsonLines(Readable.from(chunks))) out.push(...batch);
  return out;
}

describe('ndjsonLines', () => {
  it('splits on LF, CRLF and lone CR, keeping empty lines, like readline', async () => {
    expect(await linesOf(['a\nb\r\nc\rd\n\ne'])).toEqual(['a', 'b', 'c', 'd', '', 'e']);
  });

  it('joins lines and CRLF breaks cut across chunks', async () => {
    expect(await linesOf(['{"a":', '1}\r', '\n{"b"', ':2}\n'])).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('decodes a UTF-8 character cut across chunks', async () => {
    const bytes = Buffer.from('"고객"\n');
    expect(await linesOf([bytes.subarray(0, 2), bytes.subarray(2)])).toEqual(['"고객"']);
  });

  it('ends without a final break, and a final CR is a break', async () => {
    expect(await linesOf(['x\ny'])).toEqual(['x', 'y']);
    expect(await linesOf(['x\r'])).toEqual(['x']);
  });
});

/** The lines `text` holds, as `readline` splits them: on LF, CRLF and lone CR. */
function reference(text: string): string[] {
  const lines = text.split(/\r\n|\n|\r/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

describe('LineSplitter', () => {
  const text = '{"a":"고객"}\r\n\r\n{"b":2}\r\r\nx\ry\n\n\r\n한글 줄\rlast';
  const bytes = Buffer.from(text);

  it('splits bytes cut anywhere, in any chunk sizes, as readline splits the text', () => {
    for (let size = 1; size <= bytes.length; size++) {
      const splitter = new LineSplitter();
      const lines: string[] = [];
      for (let i = 0; i < bytes.length; i += size) {
        lines.push(...splitter.push(bytes.subarray(i, i + size)));
      }
      lines.push(...splitter.end());
      expect(lines, `chunks of ${size} bytes`).toEqual(reference(text));
    }
  });

  it('reads a file the same way, the chunk it reads into being reused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'salescrm-lines-'));
    try {
      const file = join(dir, 'f.ndjson');
      const many = Array.from({ length: 50_000 }, (_, i) => `{"n":${i},"이름":"사람 ${i}"}`);
      const content = `${many.join('\n')}\r\n${text}`;
      writeFileSync(file, content);
      let read = 0;
      const lines = [...ndjsonFileLines(file, (n) => (read += n))].flat();
      expect(lines).toEqual(reference(content));
      expect(read).toBe(Buffer.byteLength(content));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('ndjsonLines on a file with no line break', () => {
  it('refuses a line over MAX_LINE_CHARS instead of holding the whole file', async () => {
    const chunk = 'x'.repeat(1024 * 1024);
    const chunks = Array.from({ length: MAX_LINE_CHARS / chunk.length + 2 }, () => chunk);
    await expect(linesOf(chunks)).rejects.toBeInstanceOf(LineTooLongError);
  });

  it('still reads a long line under the limit', async () => {
    const long = 'y'.repeat(MAX_LINE_CHARS - 10);
    expect((await linesOf([long.slice(0, 5_000_000), `${long.slice(5_000_000)}\nz`])).length).toBe(
      2,
    );
  });
});

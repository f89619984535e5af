import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
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

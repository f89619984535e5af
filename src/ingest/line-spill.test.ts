import { describe, expect, it } from 'vitest';
import { LineSpill } from './line-spill.ts';

function readAll(spill: LineSpill, size: number): string[][] {
  return [...spill.batches(size)];
}

describe('LineSpill', () => {
  it('gives back few lines from memory, in batches, in order', () => {
    const spill = new LineSpill();
    for (const line of ['a', '고객', '', '{"x":1}']) spill.append(line);
    expect(readAll(spill, 3)).toEqual([['a', '고객', ''], ['{"x":1}']]);
    spill.close();
  });

  it('gives back many lines, and lines longer than its block, through its file', () => {
    const spill = new LineSpill();
    const lines: string[] = [];
    for (let i = 0; i < 30_000; i++) {
      const line =
        i % 10_000 === 7 ? `${'긴 줄 '.repeat(400_000)}${i}` : `{"n":${i},"이름":"사람 ${i}"}`;
      lines.push(line);
      spill.append(line);
    }
    expect(spill.count).toBe(lines.length);
    const batches = readAll(spill, 1_000);
    expect(batches.length).toBe(30);
    expect(batches.flat()).toEqual(lines);
    spill.close();
  });

  it('gives back nothing when nothing was kept', () => {
    const spill = new LineSpill();
    expect(readAll(spill, 10)).toEqual([]);
    spill.close();
  });
});

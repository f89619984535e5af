import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { heapBytes } from './heap-size.ts';

/** `[estimate, measured]` bytes a value, for catalogs of each size (test/heap-size-measure.ts). */
function measuredCatalogs(sizes: number[]): [number, number][] {
  const script = join(import.meta.dirname, '../../test/heap-size-measure.ts');
  const out = execFileSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', script, ...sizes.map(String)],
    { encoding: 'utf8' },
  );
  return JSON.parse(out);
}

/** The catalogs measured, by their number of names. */
const CASES: [string, number][] = [
  ['a small catalog', 5],
  ['a demo-sized catalog', 30],
  ['a catalog of a thousand products', 1_000],
];
const SIZES = CASES.map(([, names]) => names);

describe('heapBytes', () => {
  /** `[estimate, measured]` by catalog size, measured in one process for all of them. */
  let measured: Map<number, [number, number]>;
  beforeAll(() => {
    const pairs = measuredCatalogs(SIZES);
    measured = new Map(SIZES.map((names, i) => [names, pairs[i]!]));
  }, 60_000);

  // Within a fifth either way: the catalogs' budget is set by it.
  it.each(CASES)('counts %s close to what it takes', (_, names) => {
    const [estimate, real] = measured.get(names)!;
    expect(estimate / real).toBeGreaterThan(0.8);
    expect(estimate / real).toBeLessThan(1.25);
  });

  it('counts a Latin-1 string one byte a character and another two', () => {
    expect(heapBytes('a'.repeat(100))).toBe(116);
    expect(heapBytes('가'.repeat(100))).toBe(216);
  });
});

import { describe, expect, it } from 'vitest';
import { heapWarning } from './transfer-run.ts';

const GiB = 1024 ** 3;

describe('heapWarning', () => {
  it('says nothing when the files fit the heap, as a million people fit the default', () => {
    expect(heapWarning(0, 4.1 * GiB)).toBeUndefined();
    expect(heapWarning(4.2 * GiB, 4.1 * GiB)).toBeUndefined();
  });

  it('names the size, the limit and a setting that fits when they may not', () => {
    const warning = heapWarning(8 * GiB, 4.1 * GiB);
    expect(warning).toMatch(/importing 8\.0 GiB .* limit \(4\.1 GiB\)/);
    const mb = Number(/--max-old-space-size=(\d+)/.exec(warning ?? '')?.[1]);
    // The setting is in MiB and leaves room above the estimate (0.6 of the file's size).
    expect(mb % 1024).toBe(0);
    expect(mb * 1024 ** 2).toBeGreaterThan(8 * GiB * 0.6);
    expect(heapWarning(8 * GiB, mb * 1024 ** 2)).toBeUndefined();
  });
});

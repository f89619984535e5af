import { describe, expect, it } from 'vitest';
import { SendPacer } from './send-pacer.ts';

describe('SendPacer', () => {
  it('lets the first burst start at once, the next a gap after the last that started POSTs', () => {
    const pacer = new SendPacer(20);
    expect(pacer.wait(1_000)).toBe(0);
    pacer.started(1_000, 3);
    expect(pacer.wait(1_005)).toBe(15);
    expect(pacer.wait(1_020)).toBe(0);
    // A burst that started nothing is not one.
    pacer.started(1_020, 0);
    expect(pacer.wait(1_021)).toBe(0);
    pacer.started(1_030, 1);
    expect(pacer.wait(1_031)).toBe(19);
  });

  it('with no gap, never waits', () => {
    const pacer = new SendPacer(0);
    pacer.started(5, 2);
    expect(pacer.wait(5)).toBe(0);
  });
});

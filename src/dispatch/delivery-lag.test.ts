import { describe, expect, it } from 'vitest';
import { deliveryLagSeconds } from './delivery-lag.ts';

describe('a delivery’s lag', () => {
  it('is the seconds from its event to the answer', () => {
    expect(
      deliveryLagSeconds('2026-11-30T12:00:00.000Z', Date.UTC(2026, 10, 30, 12, 0, 1, 250)),
    ).toBe(1.25);
  });

  it('is 0 when the clocks put the answer before the event', () => {
    expect(deliveryLagSeconds('2026-11-30T12:00:01.000Z', Date.UTC(2026, 10, 30, 12, 0, 0))).toBe(
      0,
    );
  });

  it('is none when the event’s time is not one', () => {
    for (const garbage of ['', 'yesterday', '2026-13-45T99:00:00Z', '\u0000'])
      expect(deliveryLagSeconds(garbage, Date.now())).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import {
  effectOfAttempt,
  FAILED_IN_A_ROW_TO_DISABLE,
  NO_STREAK_CHANGE,
  type StreakChange,
  streakAfter,
} from './webhook-retry.ts';

const DELAYS = [60, 300];
const NOW = Date.parse('2026-01-01T00:00:00.000Z');
const middle = () => 0.5;

describe('effectOfAttempt', () => {
  it('delivers a pending delivery answered with any 2xx', () => {
    for (const status of [200, 204, 299])
      expect(effectOfAttempt('pending', 1, status, DELAYS, NOW, 0.1, middle)).toEqual({
        kind: 'delivered',
      });
  });

  it('retries after the next delay of the schedule when the answer is not a 2xx, or none came', () => {
    expect(effectOfAttempt('pending', 1, 500, DELAYS, NOW, 0.1, middle)).toEqual({
      kind: 'retry',
      nextMs: NOW + 60_000,
    });
    expect(effectOfAttempt('pending', 2, null, DELAYS, NOW, 0.1, middle)).toEqual({
      kind: 'retry',
      nextMs: NOW + 300_000,
    });
    expect(effectOfAttempt('pending', 1, 300, DELAYS, NOW, 0.1, () => 0)).toEqual({
      kind: 'retry',
      nextMs: NOW + 54_000,
    });
  });

  it('fails a delivery once the schedule is spent', () => {
    expect(effectOfAttempt('pending', 3, 503, DELAYS, NOW)).toEqual({ kind: 'failed' });
    expect(effectOfAttempt('pending', 1, 404, [], NOW)).toEqual({ kind: 'failed' });
  });

  it('only logs a try of a delivery no longer pending, whatever its answer', () => {
    for (const status of ['delivered', 'failed'])
      for (const code of [200, 500, null])
        expect(effectOfAttempt(status, 1, code, DELAYS, NOW)).toEqual({ kind: 'logged' });
  });
});

describe('streakAfter', () => {
  const fold = (kinds: ('delivered' | 'failed' | 'retry' | 'logged')[]): StreakChange =>
    kinds.reduce(
      (change, kind) => streakAfter(change, kind === 'retry' ? { kind, nextMs: NOW } : { kind }),
      NO_STREAK_CHANGE,
    );

  it('adds one for each failed delivery and nothing for a retry or a logged try', () => {
    expect(fold(['failed', 'retry', 'failed', 'logged'])).toEqual({ reset: false, failed: 2 });
  });

  it('clears the streak at a delivery, counting the failures after it', () => {
    expect(fold(['failed', 'failed', 'delivered'])).toEqual({ reset: true, failed: 0 });
    expect(fold(['failed', 'delivered', 'failed'])).toEqual({ reset: true, failed: 1 });
  });

  it('leaves a batch of retries without a change to write', () => {
    expect(fold(['retry', 'logged'])).toBe(NO_STREAK_CHANGE);
  });

  it('counts ten failures in a row, the streak that disables a webhook', () => {
    expect(fold(Array(FAILED_IN_A_ROW_TO_DISABLE).fill('failed'))).toEqual({
      reset: false,
      failed: 10,
    });
  });
});

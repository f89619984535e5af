import { describe, expect, it } from 'vitest';
import type { AttemptOutcome } from '../store/outbox/attempts.ts';
import { TriesToRecord } from './tries-to-record.ts';

/** A try of delivery `id` in workspace `workspaceId`, answered `statusCode`. */
function tried(id: string, workspaceId: string, statusCode = 200): AttemptOutcome {
  return {
    workspaceId,
    id,
    webhookId: 'wh',
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1,
    statusCode,
    error: null,
  };
}

const ids = (list: readonly AttemptOutcome[] | undefined) => list?.map((o) => o.id);
const PACE = { recordMs: 50, carryMs: 500, most: 4 };
const all = () => true;

describe('TriesToRecord', () => {
  it('carries no streamed try of a workspace while a streamed one no write may record waits there', () => {
    const tries = new TriesToRecord(PACE);
    const streamed = (o: AttemptOutcome, eventSeq: number) => ({
      ...o,
      streamed: { eventSeq, at: o.startedAt },
    });
    tries.add(streamed(tried('refused', 'w1', 503), 1), false, 0);
    tries.add(streamed(tried('later', 'w1'), 2), true, 1);
    tries.add(streamed(tried('elsewhere', 'w2'), 1), true, 1);
    // The failed one's record comes first: it gives it a row before the mark passes it.
    expect(tries.carry('w1', all)).toBeUndefined();
    expect(ids(tries.carry('w2', all))).toEqual(['elsewhere']);
    expect(ids(tries.takeDue(false, 60))).toEqual(['refused']);
    expect(ids(tries.carry('w1', all))).toEqual(['later']);
  });

  it('lets tries no write records wait the record delay, carriable ones the carry delay', () => {
    const tries = new TriesToRecord(PACE);
    expect(tries.untilDue(0)).toBe(Number.POSITIVE_INFINITY);
    tries.add(tried('a', 'w1'), true, 0);
    expect(tries.untilDue(100)).toBe(400);
    tries.add(tried('b', 'w2', 500), false, 100);
    expect(tries.untilDue(100)).toBe(50);
    expect(tries.takeDue(false, 120)).toEqual([]);
  });

  it('takes, once any is due, those no write records and the carriable ones that waited long enough', () => {
    const tries = new TriesToRecord(PACE);
    tries.add(tried('old', 'w1'), true, 0);
    tries.add(tried('young', 'w2'), true, 400);
    tries.add(tried('failed', 'w2', 500), false, 450);
    expect(ids(tries.takeDue(false, 510))).toEqual(['old', 'failed']);
    expect(tries.size).toBe(1);
    // The young one still waits for a write of its workspace.
    expect(tries.untilDue(510)).toBe(390);
    expect(ids(tries.carry('w2', all))).toEqual(['young']);
    expect(tries.size).toBe(0);
  });

  it("gives a write its workspace's carriable tries only, all of them or none", () => {
    const tries = new TriesToRecord(PACE);
    tries.add(tried('a', 'w1'), true, 0);
    tries.add(tried('b', 'w2'), true, 1);
    tries.add(tried('c', 'w1', 500), false, 2);
    tries.add(tried('d', 'w1'), true, 3);
    expect(tries.carry('w3', all)).toBeUndefined();
    // What cannot be recorded at once stays for the dispatcher.
    expect(tries.carry('w1', () => false)).toBeUndefined();
    expect(ids(tries.carry('w1', all))).toEqual(['a', 'd']);
    expect(tries.carry('w1', all)).toBeUndefined();
    expect(ids(tries.takeDue(true, 4))).toEqual(['b', 'c']);
  });

  it('takes every try when too many wait, or when asked for all', () => {
    const tries = new TriesToRecord(PACE);
    for (const [i, id] of ['a', 'b', 'c'].entries()) tries.add(tried(id, `w${i}`), true, i);
    expect(tries.untilDue(10)).toBeGreaterThan(0);
    tries.add(tried('d', 'w3'), true, 3);
    expect(tries.untilDue(10)).toBe(0);
    expect(ids(tries.takeDue(false, 10))).toEqual(['a', 'b', 'c', 'd']);
    tries.add(tried('e', 'w1'), true, 20);
    expect(ids(tries.takeDue(true, 20))).toEqual(['e']);
    expect(tries.carry('w1', all)).toBeUndefined();
  });

  it('puts back tries a record did not write, first, for the dispatcher alone', () => {
    const tries = new TriesToRecord(PACE);
    tries.add(tried('b', 'w1'), true, 0);
    tries.putBack([tried('a', 'w1')], 10);
    expect(tries.untilDue(10)).toBe(50);
    expect(ids(tries.carry('w1', all))).toEqual(['b']);
    expect(ids(tries.takeDue(false, 60))).toEqual(['a']);
  });

  it('keeps the order and the timers of what is left once writes carried the rest', () => {
    const tries = new TriesToRecord({ ...PACE, most: 100 });
    for (const [i, ws] of ['w1', 'w2', 'w1', 'w3', 'w2', 'w3'].entries())
      tries.add(tried(`t${i}`, ws), true, i * 10);
    tries.add(tried('failed', 'w2', 500), false, 60);
    expect(ids(tries.carry('w1', all))).toEqual(['t0', 't2']);
    expect(tries.size).toBe(5);
    // The oldest carriable left ended at 10.
    expect(tries.untilDue(100)).toBe(Math.min(10 + 500 - 100, 60 + 50 - 100));
    // Past half carried: the list is compacted, the rest as it was.
    expect(ids(tries.carry('w2', all))).toEqual(['t1', 't4']);
    expect(tries.size).toBe(3);
    expect(tries.untilDue(200)).toBe(0);
    expect(ids(tries.takeDue(true, 200))).toEqual(['t3', 't5', 'failed']);
    expect(tries.size).toBe(0);
    expect(tries.carry('w3', all)).toBeUndefined();
  });

  it('makes every waiting try one for the dispatcher when writes stop carrying', () => {
    const tries = new TriesToRecord(PACE);
    tries.add(tried('a', 'w1'), true, 0);
    tries.uncarry();
    expect(tries.carry('w1', all)).toBeUndefined();
    expect(tries.untilDue(10)).toBe(40);
  });
});

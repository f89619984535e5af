import { describe, expect, it } from 'vitest';
import type { Delivery } from '../store/outbox/deliveries.ts';
import { WebhookQueues } from './queues.ts';

/** A delivery of webhook `webhookId`: `seq` its event, `attemptCount` 0 for a first attempt. */
function delivery(id: string, webhookId: string, seq: number, attemptCount = 0): Delivery {
  return {
    workspaceId: 'ws',
    id,
    webhookId,
    eventSeq: seq,
    attemptCount,
    url: 'https://example.com/hook',
    payload: '{}',
    occurredAt: '2026-01-01T00:00:00.000Z',
    secrets: ['s'],
  };
}

const ids = (list: readonly Delivery[]) => list.map((d) => d.id);

describe('WebhookQueues', () => {
  it("sends a webhook's first attempts one at a time in event order, whatever order they were claimed in", () => {
    const q = new WebhookQueues();
    q.hold(delivery('c', 'w', 3), 0);
    q.hold(delivery('a', 'w', 1), 0);
    q.hold(delivery('b', 'w', 2), 0);
    const first = q.start(10, 10);
    expect(ids(first)).toEqual(['a']);
    expect(q.start(10, 10)).toEqual([]);
    q.ended(first[0]!);
    expect(ids(q.start(10, 10))).toEqual(['b']);
  });

  it('lets retries go beside a first attempt in flight, up to the limit per webhook', () => {
    const q = new WebhookQueues();
    q.hold(delivery('f1', 'w', 1), 0);
    q.hold(delivery('f2', 'w', 2), 0);
    for (const id of ['r1', 'r2', 'r3']) q.hold(delivery(id, 'w', 0, 1), 0);
    expect(ids(q.start(10, 3))).toEqual(['f1', 'r1', 'r2']);
    expect(q.sending).toBe(3);
  });

  it('takes webhooks in turn within the limit in all', () => {
    const q = new WebhookQueues();
    for (const w of ['x', 'y']) for (const n of [1, 2, 3]) q.hold(delivery(`${w}${n}`, w, 0, 1), 0);
    expect(ids(q.start(4, 10))).toEqual(['x1', 'y1', 'y2', 'x2']);
    expect(q.start(4, 10)).toEqual([]);
  });

  it('holds a delivery once, and counts what it holds of each webhook', () => {
    const q = new WebhookQueues();
    q.hold(delivery('a', 'w', 1), 0);
    q.hold(delivery('a', 'w', 1), 0);
    q.hold(delivery('b', 'w', 2), 0);
    q.hold(delivery('c', 'v', 1), 0);
    expect(q.held.size).toBe(3);
    expect(q.heldOf('ws', 'w')).toBe(2);
    expect(q.heldOf('ws', 'none')).toBe(0);
    expect(q.mostHeldOfOne()).toBe(2);
  });

  it('forgets recorded deliveries, and a webhook with none held', () => {
    const q = new WebhookQueues();
    const a = delivery('a', 'w', 1);
    q.hold(a, 0);
    const [sent] = q.start(1, 1);
    q.ended(sent!);
    q.forget(a);
    expect(q.held.size).toBe(0);
    expect(q.mostHeldOfOne()).toBe(0);
    q.forget(a); // twice is nothing
    expect(q.heldOf('ws', 'w')).toBe(0);
  });

  it("lets go of one webhook's waiting deliveries, or of all, but not of those in flight", () => {
    const q = new WebhookQueues();
    for (const id of ['a1', 'a2', 'a3']) q.hold(delivery(id, 'a', 0, 1), 0);
    q.hold(delivery('b1', 'b', 1), 0);
    expect(ids(q.start(1, 1))).toEqual(['a1']);
    expect(ids(q.letGo({ workspaceId: 'ws', webhookId: 'a' }))).toEqual(['a2', 'a3']);
    expect(q.heldOf('ws', 'a')).toBe(1);
    expect(ids(q.letGo({ workspaceId: 'ws', webhookId: 'none' }))).toEqual([]);
    expect(ids(q.letGo())).toEqual(['b1']);
    expect([...q.held.keys()]).toEqual(['a1']);
  });

  it('names the leases that end soon, and takes their renewal', () => {
    const q = new WebhookQueues();
    q.hold(delivery('soon', 'w', 0, 1), 1_000);
    q.hold(delivery('late', 'w', 0, 1), 5_000);
    expect(ids(q.leasesEndingWithin(0, 2_000))).toEqual(['soon']);
    q.renewed([{ workspaceId: 'ws', id: 'soon' }], 9_000);
    expect(ids(q.leasesEndingWithin(0, 2_000))).toEqual([]);
    expect(q.held.get('soon')?.leaseEnds).toBe(9_000);
  });
});

import { describe, expect, it } from 'vitest';
import { HeldStreams } from './held-streams.ts';

/** A write's events `first`..`last` in workspace `ws`, which made deliveries for `made`. */
function events(first: number, last: number, made: string[] = []) {
  return { workspaceId: 'ws', first, last, made: new Set(made) };
}

describe('HeldStreams', () => {
  it('tracks a webhook from the write whose first attempts it took, to that write’s last event', () => {
    const s = new HeldStreams();
    expect(s.in('ws')).toBe(false);
    s.written('ws', new Map([['a', 3]]), undefined);
    expect(s.in('ws')).toBe(true);
    expect(s.get('ws', 'a')?.position).toBe(3);
    s.written('ws', new Map([['a', 5]]), events(4, 6, ['a']));
    expect(s.get('ws', 'a')?.position).toBe(6);
  });

  it('keeps a position whole across a write that made the webhook nothing, and only then', () => {
    const s = new HeldStreams();
    s.written('ws', new Map([['a', 3]]), events(1, 3, ['a']));
    s.written('ws', new Map(), events(4, 5));
    expect(s.get('ws', 'a')?.position).toBe(5);
    // A write of another process came between: 6 is not this one's.
    s.written('ws', new Map(), events(7, 7));
    expect(s.get('ws', 'a')?.position).toBeUndefined();
  });

  it('loses the position when a write made the webhook deliveries it did not take', () => {
    const s = new HeldStreams();
    s.written('ws', new Map([['a', 1]]), events(1, 1, ['a']));
    s.written('ws', new Map(), events(2, 2, ['a']));
    expect(s.get('ws', 'a')?.position).toBeUndefined();
    expect(s.toAcquire(0)).toEqual([]);
  });

  it('breaks a stream that a write of another process came between while it was being taken', () => {
    const s = new HeldStreams();
    s.written('ws', new Map([['a', 1]]), events(1, 1, ['a']));
    const [a] = s.toAcquire(0);
    a!.acquiring = true;
    s.written('ws', new Map(), events(3, 3));
    s.taken(a!, 1_000);
    a!.acquiring = false;
    expect(s.anyBroken).toBe(true);
    expect(s.broken()).toEqual([a]);
    s.letGo(a!, 500);
    expect(s.anyBroken).toBe(false);
  });

  it('does not break a stream it neither holds nor is taking', () => {
    const s = new HeldStreams();
    s.written('ws', new Map([['a', 1]]), events(1, 1, ['a']));
    s.written('ws', new Map(), events(3, 3));
    // Its own write's deliveries taken again: a position, and taking it leaves it whole.
    s.written('ws', new Map([['a', 4]]), events(4, 4, ['a']));
    const [a] = s.toAcquire(0);
    s.taken(a!, 1_000);
    expect(s.anyBroken).toBe(false);
    expect(s.broken()).toEqual([]);
  });

  it('offers each stream to take once, until it is taken, and forgets a dropped one', () => {
    const s = new HeldStreams();
    s.written('ws', new Map([['a', 1]]), events(1, 1, ['a']));
    const [a] = s.toAcquire(0);
    expect(a?.key).toEqual({ workspaceId: 'ws', webhookId: 'a' });
    a!.acquiring = true;
    expect(s.toAcquire(0)).toEqual([]);
    a!.acquiring = false;
    a!.retryAt = 100;
    expect(s.toAcquire(50)).toEqual([]);
    expect(s.toAcquire(100)).toEqual([a]);
    s.taken(a!, 1_000);
    expect(s.toAcquire(100)).toEqual([]);
    expect(s.held()).toEqual([a]);
    expect(s.endingWithin(500, 400)).toEqual([]);
    expect(s.endingWithin(700, 400)).toEqual([a]);
    s.drop(a!.key);
    expect(s.held()).toEqual([]);
    expect(s.in('ws')).toBe(false);
  });
});

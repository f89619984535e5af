import { describe, expect, it } from 'vitest';
import { ChangeFeed, TOKENS_ADDED } from './change-feed.ts';
import { notified } from './postgres-listener.ts';

describe('ChangeFeed', () => {
  it('holds nothing until it listens', () => {
    const feed = new ChangeFeed();
    expect(feed.unchangedSince('a', feed.mark())).toBe(false);
    feed.started();
    expect(feed.unchangedSince('a', feed.mark())).toBe(true);
  });

  it('a change of a key stales what was read of it before, not of other keys', () => {
    const feed = new ChangeFeed();
    feed.started();
    const mark = feed.mark();
    feed.changed('a');
    expect(feed.unchangedSince('a', mark)).toBe(false);
    expect(feed.unchangedSince('b', mark)).toBe(true);
    expect(feed.unchangedSince(TOKENS_ADDED, mark)).toBe(true);
    // Read after the change: holds.
    expect(feed.unchangedSince('a', feed.mark())).toBe(true);
  });

  it('a change notified while a lookup ran stales the lookup', () => {
    const feed = new ChangeFeed();
    feed.started();
    const before = feed.mark();
    feed.changed('a'); // arrives while the lookup's query runs
    expect(feed.unchangedSince('a', before)).toBe(false);
  });

  it('a lost connection, or a change of this process it cannot name, stales everything', () => {
    const feed = new ChangeFeed();
    feed.started();
    let mark = feed.mark();
    feed.lost();
    expect(feed.live).toBe(false);
    expect(feed.unchangedSince('a', mark)).toBe(false);
    feed.started();
    expect(feed.unchangedSince('a', mark)).toBe(false);
    mark = feed.mark();
    feed.changedAll();
    expect(feed.unchangedSince('a', mark)).toBe(false);
    expect(feed.unchangedSince('a', feed.mark())).toBe(true);
  });

  it('forgets the keys it remembers past 100,000, and then holds nothing read before', () => {
    const feed = new ChangeFeed();
    feed.started();
    const mark = feed.mark();
    for (let i = 0; i < 100_000; i++) feed.changed(`w${i}`);
    const late = feed.mark();
    feed.changed('one more');
    expect(feed.unchangedSince('never changed', mark)).toBe(false);
    expect(feed.unchangedSince('never changed', late)).toBe(false);
    expect(feed.unchangedSince('never changed', feed.mark())).toBe(true);
  });

  it("a commit that moved only a workspace's versions keeps what was read of it, with the highest versions named since", () => {
    const feed = new ChangeFeed();
    feed.started();
    const mark = feed.mark();
    expect(feed.movedSince('a', mark)).toBeUndefined();
    feed.moved('a', { dataVersion: 7, catalogVersion: 2 });
    // Two processes' commits, notified out of their order: the versions never go back.
    feed.moved('a', { dataVersion: 6, catalogVersion: 3 });
    expect(feed.unchangedSince('a', mark)).toBe(true);
    expect(feed.movedSince('a', mark)).toEqual({ dataVersion: 7, catalogVersion: 3 });
    expect(feed.movedSince('b', mark)).toBeUndefined();
    // Read after them: nothing moved since.
    expect(feed.movedSince('a', feed.mark())).toBeUndefined();
    // Any other change stales it, moved or not.
    feed.changed('a');
    expect(feed.unchangedSince('a', mark)).toBe(false);
  });

  it('forgets the versions it remembers past 100,000 workspaces, and then holds nothing read before', () => {
    const feed = new ChangeFeed();
    feed.started();
    const mark = feed.mark();
    for (let i = 0; i < 100_000; i++) feed.moved(`w${i}`, { dataVersion: 1, catalogVersion: 1 });
    feed.moved('one more', { dataVersion: 1, catalogVersion: 1 });
    expect(feed.unchangedSince('w0', mark)).toBe(false);
    expect(feed.unchangedSince('never changed', mark)).toBe(false);
  });

  it("reads a notification's payload: a workspace, its versions, or a token added", () => {
    const feed = new ChangeFeed();
    feed.started();
    const mark = feed.mark();
    notified(feed, 'a 12 4');
    notified(feed, 'b');
    notified(feed, 'c 12');
    notified(feed, 'd x 4');
    notified(feed, 'e  4');
    notified(feed, 'f 1 2 3');
    notified(feed, 'g -1 4');
    expect(feed.unchangedSince('a', mark)).toBe(true);
    expect(feed.movedSince('a', mark)).toEqual({ dataVersion: 12, catalogVersion: 4 });
    // A workspace alone, or versions that are not both numbers: a change of the workspace.
    for (const key of ['b', 'c', 'd']) expect(feed.unchangedSince(key, mark)).toBe(false);
    for (const key of ['e', 'f', 'g']) expect(feed.unchangedSince(key, mark)).toBe(false);
    expect(feed.unchangedSince(TOKENS_ADDED, mark)).toBe(true);
    notified(feed, '');
    expect(feed.unchangedSince(TOKENS_ADDED, mark)).toBe(false);
  });
});

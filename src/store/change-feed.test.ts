import { describe, expect, it } from 'vitest';
import { ChangeFeed, TOKENS_ADDED } from './change-feed.ts';

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
});

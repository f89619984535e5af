import { describe, expect, it } from 'vitest';
import type { RenderedPage } from './list-page.ts';
import { ReadAhead } from './read-ahead.ts';

const rendered = (text: string): RenderedPage => ({ bytes: Buffer.from(text), next: undefined });

describe('ReadAhead', () => {
  it('hands a page over once, at the version it was read at', async () => {
    const ahead = new ReadAhead();
    ahead.start('a', 1, async () => rendered('page a'));
    expect((await ahead.take('a', 1))?.bytes.toString()).toBe('page a');
    expect(ahead.take('a', 1)).toBeUndefined();
    ahead.start('b', 1, async () => rendered('page b'));
    expect(ahead.take('b', 2)).toBeUndefined();
    expect(ahead.size).toBe(0);
  });

  it('reads in the background, after the current turn', async () => {
    const ahead = new ReadAhead();
    let read = false;
    ahead.start('a', 1, async () => {
      read = true;
      return rendered('a');
    });
    expect(read).toBe(false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(read).toBe(true);
  });

  it('drops a failed read: the request reads the page itself', async () => {
    const ahead = new ReadAhead();
    ahead.start('a', 1, async () => {
      throw new Error('store unavailable');
    });
    await expect(ahead.take('a', 1)).resolves.toBeUndefined();
  });

  it('keeps one page for each of its 64 newest walks', async () => {
    const ahead = new ReadAhead();
    for (let i = 0; i < 100; i++) ahead.start(`walk${i}`, 1, async () => rendered(`${i}`));
    expect(ahead.size).toBe(64);
    expect(ahead.take('walk0', 1)).toBeUndefined();
    expect((await ahead.take('walk99', 1))?.bytes.toString()).toBe('99');
  });

  it('holds at most 16 MiB of pages, dropping the oldest', async () => {
    const ahead = new ReadAhead();
    const big = (i: number): RenderedPage => ({
      bytes: Buffer.alloc(5 * 1024 * 1024, i),
      next: undefined,
    });
    for (let i = 0; i < 4; i++) ahead.start(`walk${i}`, 1, async () => big(i));
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(ahead.heldBytes).toBe(15 * 1024 * 1024);
    expect(ahead.size).toBe(3);
    expect(ahead.take('walk0', 1)).toBeUndefined();
    expect((await ahead.take('walk3', 1))?.bytes[0]).toBe(3);
    expect(ahead.heldBytes).toBe(10 * 1024 * 1024);
  });
});

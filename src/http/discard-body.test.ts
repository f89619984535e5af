import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { discardBody } from './discard-body.ts';

describe('discardBody', () => {
  it('reads a body to its end within the bounds', async () => {
    const body = new PassThrough();
    const done = discardBody(body, { maxBytes: 1000, maxMs: 60_000 });
    body.write(Buffer.alloc(600));
    body.end(Buffer.alloc(400));
    expect(await done).toBe(true);
  });

  it('gives up past maxBytes', async () => {
    const body = new PassThrough();
    const done = discardBody(body, { maxBytes: 1000, maxMs: 60_000 });
    body.write(Buffer.alloc(600));
    body.write(Buffer.alloc(401));
    expect(await done).toBe(false);
    body.end();
  });

  it('gives up after maxMs on a body that never ends', async () => {
    const body = new PassThrough();
    const done = discardBody(body, { maxBytes: 1000, maxMs: 20 });
    body.write(Buffer.alloc(10));
    expect(await done).toBe(false);
  });

  it('gives up when the client goes away', async () => {
    const body = new PassThrough();
    const done = discardBody(body, { maxBytes: 1000, maxMs: 60_000 });
    body.destroy();
    expect(await done).toBe(false);
  });

  it('answers at once for a body already read', async () => {
    const body = new PassThrough();
    body.end();
    body.resume();
    await new Promise((resolve) => body.once('end', resolve));
    expect(await discardBody(body, { maxBytes: 1000, maxMs: 60_000 })).toBe(true);
  });
});

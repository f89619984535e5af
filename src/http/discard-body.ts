import type { Readable } from 'node:stream';

/** How much of a refused body the server reads before it gives up on it. */
export interface DiscardBounds {
  maxBytes: number;
  maxMs: number;
}

/** Up to 64 MiB, within 10 s. */
export const REFUSED_BODY_BOUNDS: DiscardBounds = { maxBytes: 64 * 1024 * 1024, maxMs: 10_000 };

/**
 * Reads and drops what is left of a request body the server refuses (a 413), so that the
 * answer is sent only once the client has written its body: a socket closed while the body
 * still arrives is reset, and the client's write fails (EPIPE) before it reads the answer.
 * Resolves true when the body ended within the bounds, false when it was cut short (too
 * large, too slow, or the client went away): the connection is then not fit for reuse.
 */
export function discardBody(body: Readable, bounds: DiscardBounds): Promise<boolean> {
  if (body.readableEnded) return Promise.resolve(true);
  if (body.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    let bytes = 0;
    const finish = (ended: boolean) => {
      clearTimeout(timer);
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onStop);
      body.off('close', onStop);
      if (!ended) body.pause();
      resolve(ended);
    };
    const onData = (chunk: Buffer | string) => {
      bytes += chunk.length;
      if (bytes > bounds.maxBytes) finish(false);
    };
    const onEnd = () => finish(true);
    const onStop = () => finish(false);
    const timer = setTimeout(onStop, bounds.maxMs);
    body.on('data', onData);
    body.once('end', onEnd);
    body.once('error', onStop);
    body.once('close', onStop);
    body.resume();
  });
}

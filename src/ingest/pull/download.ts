/**
 * A file's bytes read from the source into a file of the pull's state, streamed: the answer's
 * body goes to disk as it arrives, so a large file is never held in memory. Asked again as
 * the rest of the pull asks again: a `429` waited out (`Retry-After`, or the `N초` of its
 * reason), a `5xx`, a failed connection or a body that stalls after a backoff, up to 8 tries.
 * A file larger than this service keeps (`MAX_FILE_BYTES`) is refused as the source's `413`
 * would be: named in the summary, the rest of the pull goes on.
 */
import { createWriteStream, renameSync, rmSync, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { setTimeout as sleep } from 'node:timers/promises';
import { AuthenticationError, errorFromResponse, reasonSeconds } from '../../client/errors.ts';
import { fileNameOf } from '../../client/transport.ts';
import { MAX_FILE_BYTES } from '../../domain/file-types.ts';
import { CrmApiError, PullError, type Source } from './source.ts';

/** What a download brought: the file's media type, name and size as served. */
export interface Downloaded {
  contentType: string;
  name: string | undefined;
  size: number;
}

const TRIES = 8;
const MAX_WAIT_MS = 120_000;
/** How long a body may send nothing before its try is given up (and asked again). */
const STALL_MS = 60_000;

/** The body's chunks, refused past `MAX_FILE_BYTES`; `onChunk` at each. */
async function* heldToLimit(
  body: AsyncIterable<Uint8Array>,
  path: string,
  onChunk: () => void,
): AsyncGenerator<Uint8Array> {
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_FILE_BYTES) {
      throw new CrmApiError({
        status: 413,
        message: `${path}: larger than ${MAX_FILE_BYTES} bytes, the most a file may be here`,
      });
    }
    onChunk();
    yield chunk;
  }
}

/** Downloads `GET path` into `file` (written aside, then renamed over it). */
export async function download(source: Source, path: string, file: string): Promise<Downloaded> {
  const part = `${file}.part`;
  for (let attempt = 0; ; attempt++) {
    let wait: number;
    let answered = false;
    const stalled = new AbortController();
    let timer = setTimeout(() => stalled.abort(new Error('no bytes for 60 s')), STALL_MS);
    const moved = () => {
      clearTimeout(timer);
      timer = setTimeout(() => stalled.abort(new Error('no bytes for 60 s')), STALL_MS);
    };
    try {
      const answer = await source.open(path, stalled.signal);
      answered = true;
      if (answer.status >= 200 && answer.status <= 299 && answer.body) {
        await pipeline(
          Readable.fromWeb(answer.body as WebReadableStream<Uint8Array>),
          (body: AsyncIterable<Uint8Array>) => heldToLimit(body, path, moved),
          createWriteStream(part),
        );
        renameSync(part, file);
        const headers = answer.headers;
        return {
          contentType: headers.get('content-type') ?? 'application/octet-stream',
          name: fileNameOf(headers.get('content-disposition') ?? undefined),
          size: statSync(file).size,
        };
      }
      const text = await answer.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Not JSON: kept as text.
      }
      const headers: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        headers[name.toLowerCase()] = value;
      });
      const error = errorFromResponse(answer.status, headers, body);
      if (error instanceof AuthenticationError)
        throw new PullError(`the source refused the token (401): ${error.message}`);
      if (answer.status !== 429 && answer.status < 500) throw error;
      if (attempt + 1 >= TRIES) throw error;
      const seconds =
        Number(headers['retry-after']) || (answer.status === 429 ? reasonSeconds(body) : undefined);
      wait = seconds !== undefined && seconds > 0 ? seconds * 1000 : backoff(attempt);
      if (wait > MAX_WAIT_MS) throw error;
    } catch (error) {
      rmSync(part, { force: true });
      if (error instanceof PullError || error instanceof CrmApiError) throw error;
      // The connection failed, before or during the body: asked again after a backoff (a
      // failure before any answer the source's fetch has counted already).
      if (answered) source.counts.retried++;
      if (attempt + 1 >= TRIES)
        throw new PullError(`${path}: ${(error as Error).message.split('\n')[0]}`);
      wait = backoff(attempt);
    } finally {
      clearTimeout(timer);
    }
    await sleep(wait);
  }
}

/** Doubling from 0.5 s up to 30 s, half of it random. */
function backoff(attempt: number): number {
  const cap = Math.min(30_000, 500 * 2 ** attempt);
  return cap / 2 + Math.random() * (cap / 2);
}

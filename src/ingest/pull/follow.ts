/**
 * `pull --follow`: keeps a copy in step with a source that has an event feed (a salescrm's
 * `GET /v2/event`). It takes the feed's position, pulls, then polls the feed from that
 * position: once an event has come, it pulls again (the changes that came during a pull
 * are after the position taken before it, so they start the next). Each pull is a whole
 * walk that replaces the copy's records, so the copy is exact after each, whatever the
 * events were; the feed only says when to walk.
 */
import { GoneError, NotFoundError } from '../../client/errors.ts';
import { type PullOptions, type PullResult, pull } from './run-pull.ts';
import { PullError, Source } from './source.ts';

/** How to follow, besides what to pull. */
export interface FollowOptions extends PullOptions {
  /** Stops following (after the pull under way, if any). */
  signal: AbortSignal;
  /** How often the feed is asked when nothing has come (default 10 s: 1% of a 100/10 s limit). */
  pollMs?: number;
  /** Called after each pull. */
  onPulled?: (result: PullResult) => void;
}

/** Pulls, then pulls again whenever the source's feed has events, until `signal` aborts. */
export async function follow(
  store: Parameters<typeof pull>[0],
  options: FollowOptions,
): Promise<void> {
  const source = new Source({
    url: options.from.replace(/\/+$/, ''),
    token: options.token,
    pace: options.pace,
    fetch: options.fetch,
  });
  const pollMs = options.pollMs ?? 10_000;
  let workspaceId = options.workspaceId;
  let position = await feedEnd(source, undefined);
  while (!options.signal.aborted) {
    const result = await pull(store, { ...options, workspaceId });
    workspaceId = result.workspaceId;
    options.onPulled?.(result);
    // Wait for an event after the position taken before the pull.
    for (;;) {
      if (options.signal.aborted) return;
      const page = await feedPage(source, position);
      if (page === 'gone') {
        position = undefined;
        break;
      }
      if (page.events > 0) break;
      await sleep(pollMs, options.signal);
    }
    position = await feedEnd(source, position);
  }
}

/** One page of the feed after `position`: how many events, and where it ends; 'gone' if pruned. */
async function feedPage(
  source: Source,
  position: string | undefined,
): Promise<{ events: number; next: string; more: boolean } | 'gone'> {
  try {
    const data = await source.get<{
      eventList?: unknown[];
      nextCursor?: string;
      hasMore?: boolean;
    }>('/v2/event', { limit: 100, cursor: position });
    return {
      events: data.eventList?.length ?? 0,
      next: data.nextCursor ?? position ?? '',
      more: data.hasMore === true,
    };
  } catch (error) {
    if (error instanceof GoneError) return 'gone';
    if (error instanceof NotFoundError)
      throw new PullError(
        'the source has no event feed (GET /v2/event): --follow needs one; run the pull again to bring the copy up to date',
      );
    throw error;
  }
}

/** The feed's end: where an event committed from now on will be found. */
async function feedEnd(source: Source, from: string | undefined): Promise<string | undefined> {
  let position = from;
  for (;;) {
    const page = await feedPage(source, position);
    if (page === 'gone') {
      position = undefined;
      continue;
    }
    position = page.next;
    if (!page.more) return position;
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

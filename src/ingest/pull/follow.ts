/**
 * `pull --follow`: keeps a copy in step with its source, change by change (docs/pull.md,
 * "Keeping it in step"). It pulls once, then applies each `생성`, `수정`, `삭제` and `병합`
 * as it arrives (`apply-change.ts`: the record read again from the source and written over
 * the copy's, in one write): by the source's webhooks when `listen` is given (a receiver of
 * its own, `webhook-receiver.ts`; on a salescrm source it registers the webhook, and removes
 * it when it stops), else by the source's event feed (`GET /v2/event`). Once the changes have
 * been quiet for `checkMs` (or one could not be applied), a check walk, a whole pull, compares
 * and repairs: what no event says (a note, a quote that is not a deal's main one) comes then.
 */
import { GoneError, NotFoundError } from '../../client/errors.ts';
import type { EventActor } from '../../domain/events.ts';
import { applyChange, type Change, readRecord, SourceCatalog } from './apply-change.ts';
import { ChangeQueue, type QueuedChange } from './change-queue.ts';
import { type PullOptions, type PullResult, pull, pullFailure } from './run-pull.ts';
import { CrmApiError, PullError, Source } from './source.ts';
import { WebhookReceiver } from './webhook-receiver.ts';
import {
  type Registered,
  registerByHand,
  registerWebhook,
  removeWebhook,
} from './webhook-registration.ts';

/** How to follow, besides what to pull. */
export interface FollowOptions extends PullOptions {
  /** Stops following (after the pull or change under way, if any). */
  signal: AbortSignal;
  /** How often the feed is asked when nothing has come (default 10 s: 1% of a 100/10 s limit). */
  pollMs?: number;
  /** Changes by webhook: where the receiver listens (port 0: any free one). */
  listen?: { host: string; port: number };
  /** The URL the source posts to (default `http://host:port/`); `{port}` is the port listened on. */
  publicUrl?: string;
  /** Quiet time after changes were applied before a check walk (default 5 minutes). */
  checkMs?: number;
  /** Called after each pull (the first, and each check walk). */
  onPulled?: (result: PullResult) => void;
  /** Called after each change applied to the copy. */
  onApplied?: (change: AppliedChange) => void;
  /** Called with what the follow says of itself (the receiver's URL, a hand registration). */
  onNotice?: (line: string) => void;
}

/** A change applied to the copy, for the caller's log. */
export interface AppliedChange {
  is: 'written' | 'gone' | 'merged';
  kind: string;
  id: string;
  /** The events it stands for. */
  events: number;
}

/**
 * Pulls, then applies the source's changes as they come until `signal` aborts, with a check
 * walk after each quiet spell.
 */
export async function follow(
  store: Parameters<typeof pull>[0],
  options: FollowOptions,
): Promise<void> {
  const from = options.from.replace(/\/+$/, '');
  const source = new Source({
    url: from,
    token: options.token,
    pace: options.pace,
    fetch: options.fetch,
  });
  const me = await source.me();
  const queue = new ChangeQueue();
  const pollMs = options.pollMs ?? 10_000;
  const checkMs = options.checkMs ?? 300_000;
  let receiver: WebhookReceiver | undefined;
  let registered: Registered | undefined;
  const reach = { from, token: options.token, fetch: options.fetch };
  /** The feed's position, when the changes come from the feed. */
  let position: string | undefined;
  try {
    if (options.listen) {
      receiver = await WebhookReceiver.start(options.listen.host, options.listen.port, (p) =>
        queue.push(p),
      );
      const url = (
        options.publicUrl ?? `http://${hostInUrl(options.listen.host)}:{port}/`
      ).replaceAll('{port}', String(receiver.port));
      const answer = await registerWebhook(reach, url);
      if (answer === 'unsupported') options.onNotice?.(registerByHand(url));
      else {
        registered = answer;
        receiver.secrets = [answer.secret];
        options.onNotice?.(`webhook ${answer.id} registered on the source for ${url}`);
      }
    } else {
      // Changes made during the first pull are after this position: they are applied after it.
      position = await feedEnd(source, undefined);
    }
    let workspaceId = options.workspaceId;
    const walk = async () => {
      const result = await pull(store, { ...options, workspaceId });
      workspaceId = result.workspaceId;
      options.onPulled?.(result);
    };
    await walk();
    const catalog = new SourceCatalog(source);
    /** Whether changes were applied since the last walk, and when the last came. */
    let applied = false;
    let failed = false;
    let lastChange = Date.now();
    const feed =
      position !== undefined
        ? pollFeed(source, queue, position, pollMs, options.signal)
        : undefined;
    while (!options.signal.aborted) {
      const next = queue.take();
      if (next) {
        const ok = await applyQueued(next.change, next.keys.length, workspaceId!, me.userId);
        if (ok) queue.done(next.keys);
        else failed = true;
        applied = true;
        lastChange = Date.now();
        continue;
      }
      if (feed?.failure) throw feed.failure;
      if (feed?.restart) {
        // The feed's cursor is pruned: the events between are gone, so the copy is walked again.
        feed.restart = false;
        failed = true;
      }
      const quiet = Date.now() - lastChange;
      if ((applied || failed) && (failed || quiet >= checkMs)) {
        applied = false;
        failed = false;
        catalog.forget();
        await walk();
        continue;
      }
      await queue.wait(applied ? Math.max(1, checkMs - quiet) : 60_000, options.signal);
    }
    await feed?.stopped;

    /** Reads and applies one change; false when the copy could not take it (a walk will). */
    async function applyQueued(
      change: QueuedChange,
      events: number,
      ws: string,
      actorId: string,
    ): Promise<boolean> {
      const actor: EventActor = { source: '데이터 가져오기', sourceId: change.eventId };
      try {
        let applying: Change;
        if (change.is === 'gone') applying = change;
        else {
          const lines = await readRecord(source, catalog, store, ws, change.kind, change.id);
          if (change.is === 'merged')
            applying = { ...change, ...(lines !== undefined ? { lines } : {}) };
          else if (lines === undefined) applying = { is: 'gone', kind: change.kind, id: change.id };
          else applying = { is: 'written', kind: change.kind, id: change.id, lines };
        }
        const ok = await applyChange(store, ws, applying, actor, actorId);
        if (ok) options.onApplied?.({ is: applying.is, kind: change.kind, id: change.id, events });
        return ok;
      } catch (error) {
        // A source that cannot be reached after the retries, or refuses the token, ends the
        // follow as it ends a pull.
        if (
          pullFailure(error) !== undefined &&
          !(error instanceof CrmApiError && error.status >= 400 && error.status < 500)
        )
          throw error;
        // A record the copy refuses as a change (it names a user or stage made on the source
        // since the last walk, or an e-mail another of its records holds until its own change
        // comes): the check walk brings it.
        options.onNotice?.(
          `could not apply a change of ${change.kind} ${change.id} to the copy (a check walk will): ${(error as Error).message.split('\n')[0]}`,
        );
        return false;
      }
    }
  } finally {
    await receiver?.close();
    if (registered) await removeWebhook(reach, registered.id).catch(() => {});
  }
}

/** A host as it goes in a URL (an IPv6 address in brackets). */
function hostInUrl(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/** The feed's poller: its events go to the queue until `signal` aborts. */
interface FeedPoller {
  /** Set when the feed's cursor was pruned (410): the poller goes on from the feed's end. */
  restart: boolean;
  failure?: unknown;
  stopped: Promise<void>;
}

function pollFeed(
  source: Source,
  queue: ChangeQueue,
  from: string,
  pollMs: number,
  signal: AbortSignal,
): FeedPoller {
  const poller: FeedPoller = { restart: false, stopped: Promise.resolve() };
  poller.stopped = (async () => {
    let position: string | undefined = from;
    try {
      while (!signal.aborted) {
        const page = await feedPage(source, position);
        if (page === 'gone') {
          position = await feedEnd(source, undefined);
          poller.restart = true;
          queue.nudge();
          continue;
        }
        for (const e of page.events) queue.push(e);
        position = page.next;
        if (!page.more) await sleep(pollMs, signal);
      }
    } catch (error) {
      poller.failure = error;
      queue.nudge();
    }
  })();
  return poller;
}

/** One page of the feed after `position`: its events, and where it ends; 'gone' if pruned. */
async function feedPage(
  source: Source,
  position: string | undefined,
): Promise<{ events: Record<string, unknown>[]; next: string; more: boolean } | 'gone'> {
  try {
    const data = await source.get<{
      eventList?: Record<string, unknown>[];
      nextCursor?: string;
      hasMore?: boolean;
    }>('/v2/event', { limit: 100, cursor: position });
    return {
      events: data.eventList ?? [],
      next: data.nextCursor ?? position ?? '',
      more: data.hasMore === true,
    };
  } catch (error) {
    if (error instanceof GoneError) return 'gone';
    if (error instanceof NotFoundError)
      throw new PullError(
        'the source has no event feed (GET /v2/event): follow it by webhooks (--listen), or run the pull again to bring the copy up to date',
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

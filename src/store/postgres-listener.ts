import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { ChangeFeed } from './change-feed.ts';

/**
 * The channel migration 026's triggers notify on PostgreSQL, in the transaction that changes
 * a workspace's row (its data or catalog version: every write bumps one) or a token: the
 * payload is the workspace's id, or '' for a token added; since migration 029, a change of
 * the row that only moved its versions names them too: `id data_version catalog_version`.
 * PostgreSQL sends a notification to every listening connection at commit, before the
 * committing client hears of the commit, and drops the duplicates of one transaction.
 */
export const CHANGES_CHANNEL = 'salescrm_changes';

/**
 * The channel migration 032's trigger notifies when a change brings a workspace's due mark
 * forward to about now: deliveries there wait for a claim. The payload is the workspace's id.
 * Listened to only while a process asks (`onDeliveriesDue`).
 */
export const DELIVERIES_CHANNEL = 'salescrm_deliveries';

/** Payloads that start with this are `sync`'s, not changes (ids never start with it). */
const SYNC_PREFIX = '~';

/** Tells `feed` of a change notification's `payload` (`CHANGES_CHANNEL`). */
export function notified(feed: ChangeFeed, payload: string): void {
  const moved = MOVED.exec(payload);
  if (moved)
    feed.moved(moved[1]!, { dataVersion: Number(moved[2]), catalogVersion: Number(moved[3]) });
  // Anything else (a workspace alone, '' for a token added, or a payload not ours) stales
  // what was read of the key it names.
  else feed.changed(payload.split(' ')[0]!);
}

/**
 * A payload naming a workspace's versions: `id data_version catalog_version`, digits only,
 * 15 at most (so each is a safe integer).
 */
const MOVED = /^(\S+) (\d{1,15}) (\d{1,15})$/;

/** How long a lost listening connection waits before it connects again. */
const RECONNECT_MS = 1_000;

/** A connection that listens to the changes channel, and the feed it keeps. */
export interface ChangeListener {
  readonly feed: ChangeFeed;
  /**
   * Calls `due` with the workspace of each notification of `DELIVERIES_CHANNEL` from now on,
   * until the returned function is called. None are heard while the connection is lost.
   */
  onDeliveriesDue(due: (workspaceId: string) => void): () => void;
  /**
   * Resolves once the feed has every notification of the commits made before the call (a
   * notification of its own, sent after them, came back), or at once while not listening.
   */
  sync(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Listens to `CHANGES_CHANNEL` on a connection of its own (`connect` makes it), keeping
 * `feed`; connects again after a loss, the feed not live meanwhile. `notify` sends a
 * notification on another connection (for `sync`).
 */
export function listenForChanges(
  connect: () => pg.Client,
  notify: (channel: string, payload: string) => Promise<unknown>,
): ChangeListener {
  const feed = new ChangeFeed();
  const waiting = new Map<string, () => void>();
  const dueListeners = new Set<(workspaceId: string) => void>();
  // Once someone asks (a second LISTEN of a channel is no error, and costs nothing more);
  // until the last stops asking, so that PostgreSQL sends no notification for no one. The
  // connection runs its queries in order: a LISTEN after an UNLISTEN wins.
  const hearDue = (c: pg.Client, hear: boolean) => {
    c.query(`${hear ? 'listen' : 'unlisten'} ${DELIVERIES_CHANNEL}`).catch(() => lost(c));
  };
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const lost = (which: pg.Client) => {
    if (client !== which) return;
    client = undefined;
    feed.lost();
    which.removeAllListeners('notification');
    which.end().catch(() => {});
    for (const resolve of waiting.values()) resolve();
    waiting.clear();
    if (!closed) {
      retry = setTimeout(start, RECONNECT_MS);
      retry.unref();
    }
  };

  function start(): void {
    retry = undefined;
    if (closed) return;
    const c = connect();
    client = c;
    c.on('error', () => lost(c));
    c.on('end', () => lost(c));
    c.on('notification', (message) => {
      const payload = message.payload ?? '';
      if (message.channel === DELIVERIES_CHANNEL) {
        // A workspace's id; an empty payload (not the trigger's) names none.
        if (payload) for (const due of dueListeners) due(payload);
      } else if (payload.startsWith(SYNC_PREFIX)) {
        waiting.get(payload)?.();
        waiting.delete(payload);
      } else notified(feed, payload);
    });
    c.connect()
      .then(() => c.query(`listen ${CHANGES_CHANNEL}`))
      .then(
        () => {
          if (client !== c || closed) return;
          feed.started();
          if (dueListeners.size > 0) hearDue(c, true);
        },
        () => lost(c),
      );
  }
  start();

  return {
    feed,
    onDeliveriesDue(due) {
      dueListeners.add(due);
      // While connecting, the connection listens once it is up.
      if (dueListeners.size === 1 && client && feed.live) hearDue(client, true);
      return () => {
        if (dueListeners.delete(due) && dueListeners.size === 0 && client && feed.live)
          hearDue(client, false);
      };
    },
    async sync() {
      if (!feed.live) return;
      const payload = `${SYNC_PREFIX}${randomUUID()}`;
      const echoed = new Promise<void>((resolve) => waiting.set(payload, resolve));
      try {
        await notify(CHANGES_CHANNEL, payload);
      } catch (error) {
        waiting.delete(payload);
        throw error;
      }
      await echoed;
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const c = client;
      client = undefined;
      for (const resolve of waiting.values()) resolve();
      waiting.clear();
      if (c) {
        feed.lost();
        await c.end().catch(() => {});
      }
    },
  };
}

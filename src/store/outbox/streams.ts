import { sql } from 'kysely';
import { newId } from '../../domain/ids.ts';
import { subscriptionOf } from '../catalog.ts';
import type { Executor, Store } from '../database.ts';
import { bookkeeping, byWorkspace, chunks, idList, lockWorkspaceRow } from './bookkeeping.ts';
import type { Delivery } from './deliveries.ts';
import { holdsLease } from './dispatch-lease.ts';
import { markDeliveriesDue } from './due-workspaces.ts';
import { pendingDelivery, wants } from './write-events.ts';

/**
 * Webhook streams (docs/deploy.md, Streamed first attempts): the dispatcher that holds a
 * webhook's stream is handed the first attempts of its own process's writes with no delivery
 * row, the events being rows already. A stream is a lease (`holder`, `leased_until`) and a
 * mark (`seq`): every event of the workspace up to the mark that the webhook wants has a
 * delivery row or a sent row (`webhook_sent`); those past it may be in the holder's memory
 * alone. A holder renews its lease while it holds the stream, and lets it go once what it
 * was handed is recorded (or made delivery rows). A stream whose lease ended with a holder
 * still named is recovered (SQLite: by the next claim in its workspace; PostgreSQL: by the
 * next poll of any dispatcher, `recoverLapsedStreams`): each event past the mark that the
 * webhook wants and that has no row gets a pending delivery row.
 */

/** A webhook's stream. */
export interface StreamKey {
  workspaceId: string;
  webhookId: string;
}

/** A held stream as a claim reads it. */
export interface HeldStream {
  webhook_id: string;
  seq: number | string;
  holder: string;
  leased_until: string;
}

/**
 * Takes the stream of a webhook for `holder` until `leaseUntil`, when nobody holds it (or
 * `holder` does), its mark at least `seq` (the event up to which the webhook's first
 * attempts have rows); true when taken. A stream whose holder's lease ended is not taken: it
 * is recovered first (`recoverStream`). The workspace is due when the lease ends, so that a
 * holder that dies is seen to. SQLite: only while `lease` (the dispatch lease) is held.
 */
export async function acquireStream(
  store: Store,
  key: StreamKey,
  holder: string,
  seq: number,
  leaseUntil: string,
  lease?: { name: string; now: string },
): Promise<boolean> {
  return bookkeeping(store, key.workspaceId, async (trx) => {
    if (lease && !(await holdsLease(trx, lease.name, holder, lease.now))) return false;
    const { rows } = await sql<{ seq: number }>`
      insert into webhook_streams (workspace_id, webhook_id, seq, holder, leased_until)
      values (${key.workspaceId}, ${key.webhookId}, ${seq}, ${holder}, ${leaseUntil})
      on conflict (workspace_id, webhook_id) do update set holder = excluded.holder,
        leased_until = excluded.leased_until,
        seq = case when webhook_streams.seq > excluded.seq then webhook_streams.seq else excluded.seq end
      where webhook_streams.holder is null or webhook_streams.holder = excluded.holder
      returning seq`.execute(trx);
    if (rows.length === 0) return false;
    await markDeliveriesDue(trx, key.workspaceId, leaseUntil);
    return true;
  });
}

/**
 * Extends `holder`'s leases of streams to `until`; returns those it still held (another
 * dispatcher recovered the others).
 */
export async function renewStreams(
  store: Store,
  keys: readonly StreamKey[],
  holder: string,
  until: string,
): Promise<StreamKey[]> {
  const kept: StreamKey[] = [];
  for (const [workspaceId, streams] of byWorkspace(keys)) {
    await bookkeeping(store, workspaceId, async (trx) => {
      for (const part of chunks(streams.map((k) => k.webhookId))) {
        const { rows } = await sql<{ webhook_id: string }>`update webhook_streams
          set leased_until = ${until}
          where workspace_id = ${workspaceId} and webhook_id in ${idList(part)}
            and holder = ${holder}
          returning webhook_id`.execute(trx);
        for (const r of rows) kept.push({ workspaceId, webhookId: r.webhook_id });
      }
    });
  }
  return kept;
}

/** Lets go of `holder`'s streams: what it was handed is recorded, or has delivery rows. */
export async function releaseStreams(
  store: Store,
  keys: readonly StreamKey[],
  holder: string,
): Promise<void> {
  for (const [workspaceId, streams] of byWorkspace(keys)) {
    await bookkeeping(store, workspaceId, async (trx) => {
      for (const part of chunks(streams.map((k) => k.webhookId))) {
        await sql`update webhook_streams set holder = null, leased_until = null
          where workspace_id = ${workspaceId} and webhook_id in ${idList(part)}
            and holder = ${holder}`.execute(trx);
      }
    });
  }
}

/**
 * Gives streamed first attempts that will not be sent by their holder (it stops, their
 * webhook was disabled, their try could not be recorded) delivery rows, pending and due at
 * once, as a write would have: a claim sends them, or they wait for their webhook to be
 * active again.
 */
export async function makeDeliveryRows(
  store: Store,
  deliveries: readonly Pick<
    Delivery,
    'workspaceId' | 'id' | 'webhookId' | 'eventSeq' | 'streamedAt'
  >[],
): Promise<void> {
  for (const [workspaceId, list] of byWorkspace(deliveries)) {
    await bookkeeping(store, workspaceId, async (trx) => {
      await markDeliveriesDue(trx, workspaceId, new Date().toISOString());
      for (const part of chunks(list, 200)) {
        await trx
          .insertInto('webhook_deliveries')
          .values(
            part.map((d) => ({
              workspace_id: workspaceId,
              id: d.id,
              webhook_id: d.webhookId,
              event_seq: d.eventSeq,
              ...pendingDelivery(d.streamedAt ?? new Date().toISOString()),
            })),
          )
          .onConflict((oc) => oc.doNothing())
          .execute();
      }
    });
  }
}

/** The streams of a workspace that a holder holds (its lease may have ended). */
export async function heldStreams(db: Executor, workspaceId: string): Promise<HeldStream[]> {
  const { rows } = await sql<HeldStream>`select webhook_id, seq, holder, leased_until
    from webhook_streams where workspace_id = ${workspaceId} and holder is not null`.execute(db);
  return rows;
}

/** Events a recovery reads at a time. */
const RECOVERY_BATCH = 1_000;

/**
 * Recovers a stream whose holder's lease ended (in the caller's transaction): each event
 * past its mark that the webhook wants (its subscription as it is now) and that has neither
 * a delivery row nor a sent row gets a pending delivery row, due at once; the mark moves to
 * the workspace's last event and the stream is free. Returns how many rows it made. A stream
 * whose webhook is gone goes with it.
 */
export async function recoverStream(
  trx: Executor,
  workspaceId: string,
  webhookId: string,
  now: string,
): Promise<number> {
  const stream = await trx
    .selectFrom('webhook_streams')
    .select('seq')
    .where('workspace_id', '=', workspaceId)
    .where('webhook_id', '=', webhookId)
    .executeTakeFirst();
  const webhook = await trx
    .selectFrom('webhooks')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', webhookId)
    .executeTakeFirst();
  if (!stream || !webhook) {
    await trx
      .deleteFrom('webhook_streams')
      .where('workspace_id', '=', workspaceId)
      .where('webhook_id', '=', webhookId)
      .execute();
    return 0;
  }
  const subscription = subscriptionOf(webhook);
  let mark = Number(stream.seq);
  let made = 0;
  for (;;) {
    const events = await trx
      .selectFrom('events')
      .select(['seq', 'event', 'object_type', 'field_name', 'occurred_at'])
      .where('workspace_id', '=', workspaceId)
      .where('seq', '>', mark)
      .orderBy('seq')
      .limit(RECOVERY_BATCH)
      .execute();
    if (events.length === 0) break;
    const last = Number(events.at(-1)!.seq);
    const wanted = events.filter((e) => wants(subscription, e.event, e.object_type, e.field_name));
    if (wanted.length > 0) {
      const had = new Set<number>();
      for (const table of ['webhook_deliveries', 'webhook_sent'] as const) {
        const rows = await trx
          .selectFrom(table)
          .select('event_seq')
          .where('workspace_id', '=', workspaceId)
          .where('webhook_id', '=', webhookId)
          .where('event_seq', '>', mark)
          .where('event_seq', '<=', last)
          .execute();
        for (const r of rows) had.add(Number(r.event_seq));
      }
      const missing = wanted.filter((e) => !had.has(Number(e.seq)));
      for (const part of chunks(missing, 200)) {
        await trx
          .insertInto('webhook_deliveries')
          .values(
            part.map((e) => ({
              workspace_id: workspaceId,
              id: newId(),
              webhook_id: webhookId,
              event_seq: Number(e.seq),
              ...pendingDelivery(e.occurred_at),
            })),
          )
          .execute();
      }
      made += missing.length;
    }
    mark = last;
    if (events.length < RECOVERY_BATCH) break;
  }
  await trx
    .updateTable('webhook_streams')
    .set({ seq: mark, holder: null, leased_until: null })
    .where('workspace_id', '=', workspaceId)
    .where('webhook_id', '=', webhookId)
    .execute();
  if (made > 0) await markDeliveriesDue(trx, workspaceId, now);
  return made;
}

/** Streams a recovery pass takes at most. */
const LAPSED_AT_ONCE = 100;

/**
 * Recovers the streams whose holder's lease ended by `now`, in every workspace (PostgreSQL,
 * whose dispatchers claim side by side: each looks at each poll); each in a transaction of
 * its own that locks the stream and finds it still lapsed (`recoverStream`). Returns how
 * many it recovered.
 */
export async function recoverLapsedStreams(store: Store, now: string): Promise<number> {
  const lapsed = await store.db
    .selectFrom('webhook_streams')
    .select(['workspace_id', 'webhook_id'])
    .where('holder', 'is not', null)
    .where('leased_until', '<', now)
    .orderBy('leased_until')
    .limit(LAPSED_AT_ONCE)
    .execute();
  let recovered = 0;
  for (const s of lapsed) {
    // The workspace's row first (its due mark may move after the stream's row changes).
    const done = await bookkeeping(
      store,
      s.workspace_id,
      async (trx) => {
        const still = await sql<{ one: number }>`select 1 as one from webhook_streams
          where workspace_id = ${s.workspace_id} and webhook_id = ${s.webhook_id}
            and holder is not null and leased_until < ${now}
          for update skip locked`.execute(trx);
        if (still.rows.length === 0) return false;
        await recoverStream(trx, s.workspace_id, s.webhook_id, now);
        return true;
      },
      lockWorkspaceRow(s.workspace_id),
    );
    if (done) recovered += 1;
  }
  return recovered;
}

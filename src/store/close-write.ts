import { CompiledQuery } from 'kysely';
import type { EventFacts } from '../domain/events.ts';
import type { Subscription } from './catalog.ts';
import type { Executor, RenderedTable } from './database.ts';
import { type AttemptOutcome, carriedParts } from './outbox/attempts.ts';
import { DUE_AT_LEAST_SQL, dueAtLeast } from './outbox/due-workspaces.ts';
import {
  type DeliveryTaker,
  eventsOnly,
  freeWebhooksCte,
  handedDeliveries,
  handoverOffer,
  streamedWebhooks,
} from './outbox/handover.ts';
import {
  deliveriesOf,
  EVENT_COLUMNS,
  eventValues,
  type FannedOut,
  insertDeliveries,
  insertEvents,
  pendingDelivery,
  planDeliveries,
} from './outbox/write-events.ts';
import { compiledText, identifier, joinText, rawText, type SqlText, sqlText } from './sql-text.ts';
import { preparedRows, sqliteStatementOf } from './sqlite-executors.ts';

/** A search index row: record type, record id, field key, value. */
type IndexRow = [type: string, id: string, field: string, value: string];

/** Tables whose rows a write can keep for its last statement: every column is text. */
export type TextTable = 'activities';

/** Bodies and index rows a write keeps for its last statement, at most. */
const KEPT_AT_MOST = 2_000;

/**
 * PostgreSQL: what a write's refresh would write statement by statement (the records'
 * rendered JSON, the search index rows that change with it), kept to be written by the
 * write's last statement with the workspace's data version and the events (`closeWrite`):
 * one round trip instead of one per table. A large refresh writes past `KEPT_AT_MOST` rows
 * as it goes, as it would without this.
 */
export class PendingWrites {
  readonly bodies = new Map<RenderedTable, [id: string, json: string][]>();
  readonly indexGone: IndexRow[] = [];
  readonly indexAdded: IndexRow[] = [];
  /** New rows of tables whose columns are all text, by table. */
  readonly inserts = new Map<TextTable, Record<string, unknown>[]>();
  private kept = 0;

  /** Whether `count` more records can wait for the last statement. */
  room(count: number): boolean {
    return this.kept + count <= KEPT_AT_MOST;
  }

  /** Keeps records' new JSON (the caller checked `room`). */
  keepBodies(table: RenderedTable, entries: readonly [id: string, json: string][]): void {
    const list = this.bodies.get(table);
    if (list) list.push(...entries);
    else this.bodies.set(table, [...entries]);
    this.kept += entries.length;
  }

  /**
   * Keeps new rows of `table` (the caller checked `room`), each value text or null, for rows
   * that nothing in the write reads or changes after their insert.
   */
  keepInserts(table: TextTable, rows: readonly Record<string, unknown>[]): void {
    const list = this.inserts.get(table);
    if (list) list.push(...rows);
    else this.inserts.set(table, [...rows]);
    this.kept += rows.length;
  }

  /** Keeps the index rows of `type` to delete (`gone`) and to add: `[id, field, value]`. */
  keepIndexRows(
    type: string,
    gone: readonly [string, string, string][],
    added: readonly [string, string, string][],
  ): void {
    for (const [id, field, value] of gone) this.indexGone.push([type, id, field, value]);
    for (const [id, field, value] of added) this.indexAdded.push([type, id, field, value]);
  }
}

/** No text. */
const NONE = rawText('');

/** The event columns, as the closing statement's insert names them. */
const EVENT_COLUMN_LIST = joinText(EVENT_COLUMNS.map(identifier));

/** Each event column's value from `unnest` (`v`), its number an offset from the write's `base`. */
const EVENT_VALUES_FROM_V = joinText(
  EVENT_COLUMNS.map((c) => (c === 'seq' ? rawText('w.base + v.seq') : sqlText`v.${identifier(c)}`)),
);

/** A new delivery's columns besides its workspace, id, webhook and event (`pendingDelivery`). */
const DELIVERY_COLUMNS = Object.keys(pendingDelivery('')) as (keyof ReturnType<
  typeof pendingDelivery
>)[];

/** `DELIVERY_COLUMNS`, as the closing statement's insert names them. */
const DELIVERY_COLUMN_LIST = joinText(DELIVERY_COLUMNS.map(identifier));

/** Column `i` of `rows`, as an array to bind (PostgreSQL's `unnest`). */
function column<T>(rows: readonly (readonly unknown[])[], i: number): T[] {
  return rows.map((r) => r[i] as T);
}

/** What closes a write: its events, the webhooks that may want them, what waits (PostgreSQL). */
export interface WriteClose {
  readonly workspaceId: string;
  readonly events: readonly EventFacts[];
  /** The workspace's active webhooks (none needed when the write made no event). */
  readonly subscriptions: readonly Subscription[];
  /** PostgreSQL: what the write kept for its last statement. */
  readonly pending?: PendingWrites;
  /** Whether the write changed the workspace's catalog (its fields, webhooks, names). */
  readonly catalogChanged: boolean;
  /** The write's time. */
  readonly now: string;
  /** This process's dispatcher, which the write leases the deliveries it may take to (`outbox/handover.ts`). */
  readonly taker?: DeliveryTaker;
  /**
   * PostgreSQL: tries of the workspace's deliveries, all answered 2xx, that the write records
   * (`DeliveryTaker.carryRecord`).
   */
  readonly tries?: readonly AttemptOutcome[];
  /** PostgreSQL: the number of the workspace's last event, as the write's lock read it. */
  readonly lastEvent?: number;
}

/**
 * The close of a write, the same on both stores: the workspace's data version bumped (so
 * cached pages of it are not served again), its catalog version when the write changed the
 * catalog, the events numbered after the workspace's last and inserted, a pending delivery
 * for each that an active webhook wants, and the workspace's due mark
 * (`outbox/due-workspaces.ts`) brought forward when it adds deliveries or changes the
 * catalog. On PostgreSQL one statement with what the write kept (`closePostgresWrite`); on
 * SQLite, whose statements cost no round trip, cached statements one after the other.
 */
export async function closeWrite(trx: Executor, close: WriteClose): Promise<FannedOut> {
  const { workspaceId, events } = close;
  if (close.pending) {
    return closePostgresWrite(trx, workspaceId, close.pending, events, close.subscriptions, close);
  }
  // The deliveries are planned first, so that the statement that bumps the versions also
  // brings the due mark forward: to them, and to now when the catalog changed (a change of
  // the webhooks may make deliveries due again).
  // A taker streaming in the workspace (`outbox/streams.ts`) needs the events' numbers first.
  const streaming = events.length > 0 && close.taker?.streamsIn?.(workspaceId) === true;
  const next = streaming ? await nextSqliteEvent(trx, workspaceId) : undefined;
  const plan = await planDeliveries(
    trx,
    workspaceId,
    events,
    close.subscriptions,
    close.taker,
    next,
  );
  const dueAt = earlier(close.catalogChanged ? close.now : undefined, plan?.dueAt);
  const first = await bumpSqliteWorkspace(
    trx,
    workspaceId,
    events.length,
    close.catalogChanged,
    dueAt,
  );
  if (events.length === 0) return { added: 0 };
  const payloads = await insertEvents(trx, workspaceId, events, first);
  if (plan) return insertDeliveries(trx, workspaceId, events, first, plan, payloads);
  if (!streaming) return { added: 0 };
  const last = first + events.length - 1;
  return { added: 0, handed: eventsOnly({ workspaceId, first, last, made: new Set() }) };
}

/** SQLite: the number the workspace's next event takes (the writer alone numbers them). */
async function nextSqliteEvent(trx: Executor, workspaceId: string): Promise<number> {
  const [row] = await preparedRows<{ event_seq: number }>(trx, NEXT_EVENT_SQL, [workspaceId]);
  return Number(row?.event_seq ?? 0) + 1;
}

const NEXT_EVENT_SQL = 'select "event_seq" from "workspaces" where "id" = ?';

/** The earlier of two ISO times, either of which may be missing. */
function earlier(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return b < a ? b : a;
}

/**
 * SQLite: bumps the workspace's data version, its catalog version when the write changed the
 * catalog, brings its due mark forward to `dueAt` when given (`dueAtLeast`), and takes the
 * numbers of its `eventCount` events; returns the first.
 */
async function bumpSqliteWorkspace(
  trx: Executor,
  workspaceId: string,
  eventCount: number,
  catalogChanged: boolean,
  dueAt: string | undefined,
): Promise<number> {
  const [text, params] =
    dueAt === undefined
      ? [BUMP_SQL, [eventCount, catalogChanged ? 1 : 0, workspaceId]]
      : [BUMP_DUE_SQL, [eventCount, catalogChanged ? 1 : 0, dueAt, dueAt, workspaceId]];
  const cached = sqliteStatementOf(trx, text);
  // Elsewhere (the connection of an import's writer thread), the same statement through Kysely.
  const seq = cached
    ? cached.pluck().get(params)
    : (await trx.executeQuery<{ event_seq: number }>(CompiledQuery.raw(text, params))).rows[0]
        ?.event_seq;
  return Number(seq ?? 0) - eventCount + 1;
}

/** `bumpSqliteWorkspace`'s statements, prepared once on the writer: without a due mark, and with. */
const BUMP_SET =
  'update "workspaces" set "data_version" = "data_version" + 1, "event_seq" = "event_seq" + ?, "catalog_version" = "catalog_version" + ?';
const BUMP_WHERE = ' where "id" = ? returning "event_seq"';
const BUMP_SQL = `${BUMP_SET}${BUMP_WHERE}`;
const BUMP_DUE_SQL = `${BUMP_SET}, "deliveries_due_at" = ${DUE_AT_LEAST_SQL}${BUMP_WHERE}`;

/**
 * The last statement of a PostgreSQL write, one round trip: stores what `pending` kept (new
 * rows, records' JSON, index rows), bumps the workspace's data version (so cached pages of
 * it are not served again), its catalog version when the write changed the catalog, and its
 * deliveries' due mark (`outbox/due-workspaces.ts`) when it adds deliveries or changes the
 * catalog; numbers `events` after the workspace's last (the write holds the
 * workspace's row lock since its `begin`, so numbers follow commit order), inserts them, and
 * adds a pending delivery for each that an active webhook of `subscriptions` wants, leased to
 * `taker` for the webhooks it is free to take (`outbox/handover.ts`). The parts are CTEs of
 * one statement: they touch different rows (new rows, each record's body once,
 * index rows either deleted or added, the workspace row once), so they do not see or need
 * each other's effects.
 */
async function closePostgresWrite(
  trx: Executor,
  workspaceId: string,
  pending: PendingWrites,
  events: readonly EventFacts[],
  subscriptions: readonly Subscription[],
  options: {
    catalogChanged: boolean;
    now: string;
    taker?: DeliveryTaker;
    tries?: readonly AttemptOutcome[];
    lastEvent?: number;
  },
): Promise<FannedOut> {
  const count = events.length;
  const taker = options.taker;
  const made = count > 0 ? deliveriesOf(events, subscriptions) : [];
  // A taker streaming in the workspace (`outbox/streams.ts`) takes some webhooks' first
  // attempts with no rows: the write's lock read the number its first event follows.
  const streaming =
    count > 0 && options.lastEvent !== undefined && taker?.streamsIn?.(workspaceId) === true;
  const streamed = streaming
    ? streamedWebhooks(
        taker,
        workspaceId,
        made.map((d) => d.webhookId),
        options.lastEvent! + 1,
      )
    : new Map<string, number>();
  const deliveries = made.filter((d) => !streamed.has(d.webhookId));
  const catalog = options.catalogChanged
    ? rawText(', catalog_version = catalog_version + 1')
    : NONE;
  const offer =
    deliveries.length > 0
      ? handoverOffer(
          taker,
          workspaceId,
          deliveries.map((d) => d.webhookId),
        )
      : undefined;
  // New deliveries are due at once (at their lease's end when all are leased, or streamed);
  // a change of the webhooks may make old ones due again.
  const streamEnds = streamed.size > 0 ? Math.min(...streamed.values()) : Number.POSITIVE_INFINITY;
  const takenUntil = (leaseEndsMs: number) =>
    new Date(Math.min(leaseEndsMs, streamEnds)).toISOString();
  let dueAt: SqlText | string | undefined = options.catalogChanged ? options.now : undefined;
  if (made.length > 0 && !options.catalogChanged) {
    if (deliveries.length === 0) dueAt = takenUntil(Number.POSITIVE_INFINITY);
    else if (offer)
      dueAt = sqlText`case when ${[...new Set(deliveries.map((d) => d.webhookId))]}::text[]
              <@ array(select webhook_id from h where free)
            then ${takenUntil(offer.leaseEndsMs)} else ${events[0]!.occurredAt} end`;
    else dueAt = events[0]!.occurredAt;
  } else if (made.length > 0) dueAt = events[0]!.occurredAt;
  const due = dueAt === undefined ? NONE : sqlText`, deliveries_due_at = ${dueAtLeast(dueAt)}`;
  const parts = offer ? [freeWebhooksCte(workspaceId, offer)] : [];
  // Tries of earlier deliveries recorded here: their rows are not those this statement adds,
  // and `h` reads the pending deliveries as they were before it (these among them, held by
  // the taker until it hears that the write committed).
  if (options.tries && options.tries.length > 0)
    parts.push(...carriedParts(workspaceId, options.tries, options.now));
  parts.push(
    sqlText`w as (update workspaces set data_version = data_version + 1, event_seq = event_seq + ${count}${catalog}${due}
      where id = ${workspaceId} returning event_seq - ${count} as base, data_version, catalog_version)`,
  );
  let n = 0;
  for (const [table, rows] of pending.inserts) {
    const columns = Object.keys(rows[0]!);
    parts.push(sqlText`${rawText(`i${n++}`)} as (insert into ${identifier(table)} (${joinText(columns.map(identifier))})
      select * from unnest(${joinText(columns.map((c) => sqlText`${rows.map((r) => r[c] ?? null)}::text[]`))}))`);
  }
  for (const [table, entries] of pending.bodies) {
    parts.push(sqlText`${rawText(`b${n++}`)} as (update ${identifier(table)} as t set body = v.body
      from unnest(${column<string>(entries, 0)}::text[], ${column<string>(entries, 1)}::text[]) as v(id, body)
      where t.workspace_id = ${workspaceId} and t.id = v.id collate "C")`);
  }
  const gone = pending.indexGone;
  if (gone.length > 0) {
    parts.push(sqlText`ig as (delete from search_values as s
      using unnest(${column<string>(gone, 0)}::text[], ${column<string>(gone, 1)}::text[],
        ${column<string>(gone, 2)}::text[], ${column<string>(gone, 3)}::text[]) as g(type, id, field, value)
      where s.workspace_id = ${workspaceId} and s.record_type = g.type and s.field = g.field
        and s.value = g.value and s.record_id = g.id)`);
  }
  const added = pending.indexAdded;
  if (added.length > 0) {
    // A record's rows are distinct, and written once a write: no conflict to expect, but a
    // row already there (an index repaired by hand) is no error.
    parts.push(sqlText`ia as (insert into search_values (workspace_id, record_type, field, value, record_id)
      select ${workspaceId}, g.type, g.field, g.value, g.id
      from unnest(${column<string>(added, 0)}::text[], ${column<string>(added, 1)}::text[],
        ${column<string>(added, 2)}::text[], ${column<string>(added, 3)}::text[]) as g(type, id, field, value)
      on conflict do nothing)`);
  }
  // Each event's values in `EVENT_COLUMNS` order, its number (`seq`) an offset from `base`.
  const rows = events.map((e, i) => eventValues(workspaceId, i + 1, e));
  if (count > 0) {
    const arrays = EVENT_COLUMNS.map((c, i) =>
      c === 'seq'
        ? sqlText`${column<number>(rows, i)}::int8[]`
        : sqlText`${column<string>(rows, i)}::text[]`,
    );
    parts.push(sqlText`e as (insert into events (${EVENT_COLUMN_LIST})
      select ${EVENT_VALUES_FROM_V}
      from w, unnest(${joinText(arrays)}) as v(${EVENT_COLUMN_LIST}))`);
    if (deliveries.length > 0) {
      const rest = pendingDelivery(events[0]!.occurredAt);
      const values = DELIVERY_COLUMNS.map((c) =>
        c === 'leased_until' && offer
          ? sqlText`case when v.webhook_id in (select webhook_id from h where free) then ${offer.leaseUntil} end`
          : sqlText`${rest[c]}`,
      );
      parts.push(sqlText`d as (insert into webhook_deliveries (workspace_id, id, webhook_id, event_seq,
        ${DELIVERY_COLUMN_LIST})
        select ${workspaceId}, v.id, v.webhook_id, w.base + v.n, ${joinText(values)}
        from w, unnest(${deliveries.map((d) => d.id)}::text[], ${deliveries.map((d) => d.webhookId)}::text[],
          ${deliveries.map((d) => d.eventIndex + 1)}::int8[]) as v(id, webhook_id, n))`);
    }
  }
  const freeIds = offer ? rawText(', array(select webhook_id from h where free) as free') : NONE;
  const result = await trx.executeQuery<{
    base: string | number;
    data_version: string | number;
    catalog_version: string | number;
    free?: string[];
  }>(
    compiledText(
      sqlText`with ${joinText(parts)} select base, data_version, catalog_version${freeIds} from w`,
    ),
  );
  const head = result.rows[0];
  const versions = head && {
    dataVersion: Number(head.data_version),
    catalogVersion: Number(head.catalog_version),
  };
  const base = Number(head?.base ?? 0);
  const written = streaming
    ? {
        workspaceId,
        first: base + 1,
        last: base + count,
        made: new Set(made.map((d) => d.webhookId)),
      }
    : undefined;
  const free = new Set(head?.free ?? []);
  if (free.size === 0 && streamed.size === 0) {
    return {
      added: made.length,
      handed: written && eventsOnly(written),
      versions,
    };
  }
  const payloadAt = EVENT_COLUMNS.indexOf('payload');
  const handed = handedDeliveries(
    workspaceId,
    made.map((d) => ({
      id: d.id,
      webhookId: d.webhookId,
      eventSeq: base + d.eventIndex + 1,
      payload: rows[d.eventIndex]![payloadAt] as string,
    })),
    free,
    subscriptions,
    options.now,
    streamed,
  );
  return {
    added: made.length,
    handed: { deliveries: handed, leaseEndsMs: offer?.leaseEndsMs ?? 0, events: written },
    versions,
  };
}

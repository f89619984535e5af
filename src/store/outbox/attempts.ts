import { type RawBuilder, sql } from 'kysely';
import { workspaceKey } from '../../domain/ids.ts';
import {
  effectOfAttempt,
  FAILED_IN_A_ROW_TO_DISABLE,
  isDelivered,
  LOGGED,
  NO_STREAK_CHANGE,
  RETRY_JITTER,
  replayedSince,
  type StreakChange,
  streakAfter,
} from '../../domain/webhook-retry.ts';
import type { WebhookAttemptTable } from '../../model/tables.ts';
import { bumpCatalogVersion } from '../catalog.ts';
import type { Executor, Store } from '../database.ts';
import { compiledText, joinText, rawText, type SqlText, sqlText } from '../sql-text.ts';
import { preparedRows } from '../sqlite-executors.ts';
import {
  bookkeeping,
  byWorkspace,
  chunks,
  type DeliveryKey,
  idList,
  literal,
  lockWorkspaceRow,
} from './bookkeeping.ts';
import { earliestPending, markDeliveriesDue, settleDueWorkspace } from './due-workspaces.ts';

/**
 * Webhook deliveries' tries as dispatchers record them (docs/webhooks.md, Delivery and signatures):
 * each try is logged, and moves its delivery to delivered, to its next try, or to failed (counting
 * towards disabling its webhook), as `effectOfAttempt` and `streakAfter` of
 * `src/domain/webhook-retry.ts` say.
 */

/** How one try of a delivery went. */
export interface AttemptOutcome extends DeliveryKey {
  webhookId: string;
  /** When the try started (ISO 8601). */
  startedAt: string;
  durationMs: number;
  /** The receiver's HTTP status; null when none came (refused, reset, timed out). */
  statusCode: number | null;
  /** What went wrong, if anything did. */
  error: string | null;
  /**
   * A streamed first attempt's (no delivery row, `streams.ts`): its event and that event's
   * time.
   */
  streamed?: { eventSeq: number; at: string };
}

/** The retry schedule a record applies. */
export interface RetryPolicy {
  /** Seconds to wait before each retry; after the last, a delivery fails. */
  retryDelays: readonly number[];
  /** Share of a delay the wait may move either way (default 10 %). */
  jitter?: number;
}

/** A webhook a record disabled. */
export interface WebhookKey {
  workspaceId: string;
  webhookId: string;
}

/**
 * PostgreSQL: workspaces whose tries are recorded at once, each in its own transaction on
 * its own connection (a few: the pool is shared with the API).
 */
const PARALLEL_WORKSPACES = 8;

/**
 * Records tries, in the order they ended, each workspace's in statements of its own: a
 * `webhook_attempts` row for each; a 2xx makes its delivery `delivered` and clears its
 * webhook's failure streak; anything else schedules the next try after the policy's next
 * delay (with jitter), or when the schedule is spent makes it `failed` and adds one to the
 * streak, which at ten disables the webhook. A delivery no longer pending (another
 * dispatcher finished it) only gets its try logged. Returns the webhooks it disabled.
 *
 * PostgreSQL: a transaction per workspace (a few at once), so none spans workspaces.
 * SQLite (one file, one writer): one transaction for them all, which also puts each
 * workspace's mark back to its earliest pending delivery (`due-workspaces.ts`).
 */
export async function recordAttempts(
  store: Store,
  outcomes: readonly AttemptOutcome[],
  policy: RetryPolicy,
): Promise<WebhookKey[]> {
  const workspaces = [...byWorkspace(outcomes)];
  if (store.dialect === 'sqlite') {
    return bookkeeping(store, undefined, async (trx) => {
      const disabled: WebhookKey[] = [];
      for (const [workspaceId, all] of workspaces) {
        const list = await recordStreamed(trx, store.dialect, workspaceId, all);
        if (list.length > 0)
          disabled.push(...(await recordIn(trx, store.dialect, workspaceId, list, policy)));
        // The mark put back here rather than by the next look finding nothing due: while
        // writes stream in, each look at every due workspace would otherwise read the
        // candidates of all those whose deliveries were all just delivered.
        await settleDueWorkspace(trx, workspaceId);
      }
      return disabled;
    });
  }
  const disabled: WebhookKey[] = [];
  for (let i = 0; i < workspaces.length; i += PARALLEL_WORKSPACES) {
    const done = await Promise.all(
      workspaces.slice(i, i + PARALLEL_WORKSPACES).map(async ([workspaceId, list]) => {
        if (allDelivered(list)) {
          await recordDelivered(store, workspaceId, list);
          return [];
        }
        if (list.length <= AT_ONCE && list.every((o) => o.streamed && isDelivered(o.statusCode))) {
          await recordSent(store, workspaceId, list);
          return [];
        }
        // A failed try may change the workspace's row after its webhook's (a streamed one's
        // retry brings the due mark forward; a webhook disabled bumps the catalog version):
        // that row is locked first, as a write locks it (`lockWorkspaceRow`).
        const workspaceFirst = list.some((o) => !isDelivered(o.statusCode))
          ? lockWorkspaceRow(workspaceId)
          : undefined;
        if (list.some((o) => o.streamed)) {
          return bookkeeping(
            store,
            workspaceId,
            async (trx) => {
              const rest = await recordStreamed(trx, store.dialect, workspaceId, list);
              return rest.length > 0 ? recordIn(trx, store.dialect, workspaceId, rest, policy) : [];
            },
            workspaceFirst,
          );
        }
        const lock =
          workspaceFirst ??
          (list.length <= KEYS_AT_ONCE ? lockDeliveries(workspaceId, list) : undefined);
        return bookkeeping(
          store,
          workspaceId,
          (trx, opened) =>
            recordIn(
              trx,
              store.dialect,
              workspaceId,
              list,
              policy,
              // Opened by the workspace's lock: the deliveries are read (and locked) after it.
              workspaceFirst ? undefined : (opened as Current[] | undefined),
            ),
          lock,
        );
      }),
    );
    for (const list of done) disabled.push(...list);
  }
  return disabled;
}

/**
 * Whether a workspace's tries were all answered 2xx, each of another delivery, and not too
 * many for one statement: what a record is while receivers keep up, which `deliveredParts`
 * writes (in a statement of its own, `recordDelivered`, or in a write's last statement).
 */
export function allDelivered(outcomes: readonly AttemptOutcome[]): boolean {
  if (outcomes.length === 0 || outcomes.length > AT_ONCE) return false;
  if (outcomes.some((o) => o.streamed)) return false;
  if (!outcomes.every((o) => isDelivered(o.statusCode))) return false;
  return new Set(outcomes.map((o) => o.id)).size === outcomes.length;
}

/**
 * Whether a workspace's tries, all answered 2xx, may be recorded in one statement: those with
 * delivery rows as `allDelivered` says, and any streamed ones (`sentParts`). What a write of
 * the workspace records in its last statement (`carriedParts`).
 */
export function carriable(outcomes: readonly AttemptOutcome[]): boolean {
  if (outcomes.length === 0 || outcomes.length > AT_ONCE) return false;
  if (!outcomes.every((o) => isDelivered(o.statusCode))) return false;
  const rows = outcomes.filter((o) => !o.streamed);
  return rows.length === 0 || allDelivered(rows);
}

/**
 * PostgreSQL: what records `carriable` tries, as CTEs of one statement: those with rows as
 * `deliveredParts` does, the streamed ones as `sentParts` does.
 */
export function carriedParts(
  workspaceId: string,
  outcomes: readonly AttemptOutcome[],
  now: string,
): SqlText[] {
  const rows = outcomes.filter((o) => !o.streamed);
  const streamed = outcomes.filter((o) => o.streamed);
  return [
    ...(rows.length > 0 ? deliveredParts(workspaceId, rows, now) : []),
    ...(streamed.length > 0 ? sentParts(workspaceId, streamed, now) : []),
  ];
}

/**
 * PostgreSQL: what records streamed first attempts answered 2xx (`streams.ts`), as CTEs of
 * one statement (`sent_tries`, `sent`, `sent_marks`, `sent_cleared`): a sent row each (while
 * its webhook is there), each webhook's stream mark moved to its last one (they went out one
 * at a time, in event order), the webhooks' failure streaks cleared.
 */
export function sentParts(
  workspaceId: string,
  outcomes: readonly AttemptOutcome[],
  now: string,
): SqlText[] {
  const webhooks = outcomes.map((o) => o.webhookId);
  const seqs = outcomes.map((o) => o.streamed!.eventSeq);
  return [
    sqlText`sent_tries(webhook_id, event_seq, id, status_code) as (
      select * from unnest(${webhooks}::text[], ${seqs}::int8[],
        ${outcomes.map((o) => o.id)}::text[], ${outcomes.map((o) => o.statusCode)}::int[]))`,
    sqlText`sent as (
      insert into webhook_sent (workspace_id, webhook_id, event_seq, id, status_code, delivered_at)
      select ${workspaceId}, t.webhook_id, t.event_seq, t.id, t.status_code, ${now}
      from sent_tries t
      where exists (select 1 from webhooks w where w.workspace_id = ${workspaceId} and w.id = t.webhook_id)
      on conflict do nothing)`,
    sqlText`sent_marks as (
      update webhook_streams s set seq = greatest(s.seq, m.seq)
      from (select webhook_id, max(event_seq) as seq from sent_tries group by webhook_id) m
      where s.workspace_id = ${workspaceId} and s.webhook_id = m.webhook_id)`,
    sqlText`sent_cleared as (
      update webhooks w set failure_streak = 0
      where w.workspace_id = ${workspaceId} and w.failure_streak <> 0
        and w.id in (select webhook_id from sent_tries))`,
  ];
}

/**
 * PostgreSQL: streamed first attempts all answered 2xx, recorded in one statement of their
 * own (`sentParts`), not waiting for the WAL (as `bookkeeping`'s).
 */
async function recordSent(
  store: Store,
  workspaceId: string,
  outcomes: readonly AttemptOutcome[],
): Promise<void> {
  const statement = sqlText`with ${joinText(sentParts(workspaceId, outcomes, new Date().toISOString()))}
    select set_config('synchronous_commit', 'off', true)`;
  await store.db.executeQuery(compiledText(statement));
}

/**
 * PostgreSQL: tries that were all answered 2xx, recorded in one statement, its own
 * transaction (one round trip where `recordIn` takes three), not waiting for the WAL (as
 * `bookkeeping`'s): what `recordIn` does with them (`deliveredParts`). And the workspace's
 * due mark is put back to its earliest pending delivery besides these (as SQLite's record does), unless a write holds
 * the workspace's row or committed since the statement began (its events' or its catalog's
 * number moved: it may have added deliveries this statement does not see), so that the next
 * claim does not look in a workspace whose deliveries were all delivered.
 */
async function recordDelivered(
  store: Store,
  workspaceId: string,
  outcomes: readonly AttemptOutcome[],
): Promise<void> {
  const statement = sqlText`
    with ${joinText(deliveredParts(workspaceId, outcomes, new Date().toISOString()))},
    settled as (
      update workspaces w set deliveries_due_at = ${earliestPending(
        workspaceId,
        rawText('(select id from done where delivered)'),
      )}
      where w.id = ${workspaceId}
        and w.id in (select id from workspaces where id = ${workspaceId} for update skip locked)
        and (w.event_seq, w.catalog_version) = (
          select event_seq, catalog_version from workspaces where id = ${workspaceId})
    )
    select set_config('synchronous_commit', 'off', true)`;
  await store.db.executeQuery(compiledText(statement));
}

/**
 * PostgreSQL: what records tries that were all answered 2xx (`allDelivered`), as CTEs of one
 * statement (`current`, `tries`, `took`, `done`, `logged`, `streaks`, `cleared`): each
 * delivery locked and read as it is now; a pending one made delivered; one no longer pending
 * (another dispatcher finished it), or replayed since its try began (`replayedSince` of
 * `src/domain/webhook-retry.ts`, here in SQL: its lease let go, so that the replay goes out
 * at the next look), only counting the try; each try logged; the failure streaks of the
 * webhooks of those delivered cleared (in key order). `done` returns each delivery's `id`,
 * and `delivered` when this made it so.
 */
export function deliveredParts(
  workspaceId: string,
  outcomes: readonly AttemptOutcome[],
  now: string,
): SqlText[] {
  const ms = (o: AttemptOutcome) => Math.max(0, Math.round(o.durationMs));
  // One try (a workspace's share of a record while writes stream in: the common case) by
  // scalars, so that PostgreSQL plans the statement once a connection; with arrays it
  // chose a custom plan at every record, whose planning cost as much as its run.
  const [one] = outcomes.length === 1 ? outcomes : [];
  const ids = one
    ? sqlText`id = ${one.id}`
    : sqlText`id = any(${outcomes.map((o) => o.id)}::text[])`;
  const tries = one
    ? sqlText`select ${one.id}::text, ${one.startedAt}::text, ${ms(one)}::int, ${one.statusCode}::int`
    : sqlText`select * from unnest(${outcomes.map((o) => o.id)}::text[],
        ${outcomes.map((o) => o.startedAt)}::text[], ${outcomes.map(ms)}::int[],
        ${outcomes.map((o) => o.statusCode)}::int[])`;
  return [
    sqlText`current as (
      select id, status, next_attempt_at from webhook_deliveries
      where workspace_id = ${workspaceId} and ${ids}
      for update
    )`,
    sqlText`tries(id, started_at, duration_ms, status_code) as (${tries})`,
    sqlText`took as (
      select c.id, t.started_at, t.duration_ms, t.status_code,
        c.status = 'pending' and not (c.next_attempt_at > t.started_at) as delivers
      from current c join tries t on t.id = c.id
    )`,
    sqlText`done as (
      update webhook_deliveries d set
        attempt_count = d.attempt_count + 1,
        status = case when k.delivers then 'delivered' else d.status end,
        last_status_code = case when k.delivers then k.status_code else d.last_status_code end,
        last_error = case when k.delivers then null else d.last_error end,
        next_attempt_at = case when k.delivers then null else d.next_attempt_at end,
        leased_until = null,
        delivered_at = case when k.delivers then ${now} else d.delivered_at end
      from took k
      where d.workspace_id = ${workspaceId} and d.id = k.id
      returning d.id, d.webhook_id, d.attempt_count, k.delivers as delivered
    )`,
    sqlText`logged as (
      insert into webhook_attempts
        (workspace_id, delivery_id, attempt, started_at, duration_ms, status_code, error)
      select ${workspaceId}, d.id, d.attempt_count, t.started_at, t.duration_ms, t.status_code, null
      from done d join tries t on t.id = d.id
      on conflict do nothing
    )`,
    sqlText`streaks as (
      select id from webhooks
      where workspace_id = ${workspaceId} and failure_streak <> 0
        and id in (select webhook_id from done where delivered)
      order by id
      for no key update
    )`,
    sqlText`cleared as (
      update webhooks w set failure_streak = 0 from streaks s
      where w.workspace_id = ${workspaceId} and w.id = s.id
    )`,
  ];
}

/**
 * Records a workspace's streamed first attempts (`streams.ts`), which have no delivery row:
 * one answered 2xx becomes a sent row and clears its webhook's failure streak; any other gets
 * a pending delivery row, its try then recorded as any other's. Each webhook's stream mark
 * moves to its last event here (its first attempts go out one at a time, in event order, and
 * are recorded in the order they ended). Returns the tries left to record (`recordIn`).
 */
async function recordStreamed(
  trx: Executor,
  dialect: Store['dialect'],
  workspaceId: string,
  outcomes: readonly AttemptOutcome[],
): Promise<AttemptOutcome[]> {
  if (!outcomes.some((o) => o.streamed)) return [...outcomes];
  const rest: AttemptOutcome[] = [];
  const marks = new Map<string, number>();
  const now = new Date().toISOString();
  const run = (text: string, params: unknown[]) =>
    dialect === 'sqlite'
      ? preparedRows(trx, text, params)
      : trx.executeQuery(compiledText(placeholders(text, params))).then(() => []);
  for (const o of outcomes) {
    if (!o.streamed) {
      rest.push(o);
      continue;
    }
    const { eventSeq, at } = o.streamed;
    marks.set(o.webhookId, Math.max(marks.get(o.webhookId) ?? 0, eventSeq));
    if (isDelivered(o.statusCode)) {
      await run(SENT_SQL, [eventSeq, o.id, o.statusCode, now, workspaceId, o.webhookId]);
      await run(STREAK_CLEARED_SQL, [workspaceId, o.webhookId]);
      continue;
    }
    await run(STREAMED_ROW_SQL, [o.id, eventSeq, at, at, workspaceId, o.webhookId]);
    rest.push(o);
  }
  for (const [webhookId, seq] of marks) await run(MARK_SQL, [seq, seq, workspaceId, webhookId]);
  // The new rows' retries are due later; until a look puts the mark back to them, now (the
  // write had set it to the stream's lease end).
  if (rest.some((o) => o.streamed)) await markDeliveriesDue(trx, workspaceId, now);
  return rest;
}

/** A statement's `?`s as PostgreSQL's numbered parameters, bound to `params`. */
function placeholders(text: string, params: readonly unknown[]): SqlText {
  const parts = text.split('?');
  let out = sqlText`${rawText(parts[0]!)}`;
  for (let i = 1; i < parts.length; i++) out = sqlText`${out}${params[i - 1]}${rawText(parts[i]!)}`;
  return out;
}

// `recordStreamed`'s statements.
// A sent row only while its webhook is there (one deleted meanwhile took its log along).
const SENT_SQL = `insert into webhook_sent
  (workspace_id, webhook_id, event_seq, id, status_code, delivered_at)
  select w.workspace_id, w.id, ?, ?, ?, ? from webhooks w where w.workspace_id = ? and w.id = ?
  on conflict do nothing`;
const STREAMED_ROW_SQL = `insert into webhook_deliveries
  (workspace_id, id, webhook_id, event_seq, status, attempt_count, next_attempt_at, created_at)
  select w.workspace_id, ?, w.id, ?, 'pending', 0, ?, ? from webhooks w
  where w.workspace_id = ? and w.id = ?
  on conflict do nothing`;
const MARK_SQL = `update webhook_streams set seq = case when seq > ? then seq else ? end
  where workspace_id = ? and webhook_id = ?`;

/** Deliveries' ids a record locks in its `begin`'s round trip at most (PostgreSQL). */
const KEYS_AT_ONCE = 1000;

/** A delivery as a record reads it before its tries are written. */
interface Current {
  workspace_id: string;
  id: string;
  status: string;
  attempt_count: number;
  next_attempt_at: string | null;
}

/**
 * PostgreSQL: the statement that locks and reads the deliveries whose tries are recorded,
 * its values written in its text, so that it goes with the record's `begin` in one round trip.
 */
function lockDeliveries(workspaceId: string, outcomes: readonly AttemptOutcome[]): string {
  const ids = [...new Set(outcomes.map((o) => literal(o.id)))].join(', ');
  return `select workspace_id, id, status, attempt_count, next_attempt_at from webhook_deliveries
    where workspace_id = ${literal(workspaceId)} and id in (${ids}) for update`;
}

/** What a record writes in one workspace: each delivery's change, each try, each streak's. */
interface RecordWrites {
  delivered: Map<number, DeliveryKey[]>;
  retried: { key: DeliveryKey; outcome: AttemptOutcome; next: string | null }[];
  logOnly: DeliveryKey[];
  /** Each try, as `webhook_attempts` logs it. */
  attempts: WebhookAttemptTable[];
  changes: (WebhookKey & StreakChange)[];
}

/**
 * `recordAttempts` in one workspace, in the caller's transaction; `opened`, the deliveries
 * read and locked already (`lockDeliveries`), if they were.
 */
async function recordIn(
  trx: Executor,
  dialect: Store['dialect'],
  workspaceId: string,
  outcomes: readonly AttemptOutcome[],
  policy: RetryPolicy,
  opened?: Current[],
): Promise<WebhookKey[]> {
  const nowMs = Date.now();
  const now = new Date(nowMs).toISOString();
  const read = opened ?? (await readDeliveries(trx, dialect, workspaceId, outcomes));
  const writes = recordWrites(read, outcomes, policy, nowMs);
  if (dialect === 'sqlite') return writeEachRow(trx, workspaceId, now, writes);
  if (writesAtOnce(outcomes, writes)) {
    await writeAtOnce(trx, workspaceId, now, writes);
    return [];
  }
  for (const [statusCode, keys] of writes.delivered) {
    for (const part of chunks(keys)) {
      await sql`update webhook_deliveries set status = 'delivered',
          attempt_count = attempt_count + 1, last_status_code = ${statusCode},
          last_error = null, next_attempt_at = null, leased_until = null, delivered_at = ${now}
        where workspace_id = ${workspaceId} and id in ${idList(part.map((k) => k.id))}`.execute(
        trx,
      );
    }
  }
  for (const { key, outcome, next } of writes.retried) {
    await trx
      .updateTable('webhook_deliveries')
      .set((eb) => ({
        status: next === null ? 'failed' : 'pending',
        attempt_count: eb('attempt_count', '+', 1),
        last_status_code: outcome.statusCode,
        last_error: outcome.error,
        next_attempt_at: next,
        leased_until: null,
      }))
      .where('workspace_id', '=', key.workspaceId)
      .where('id', '=', key.id)
      .execute();
  }
  for (const part of chunks(writes.logOnly)) {
    await sql`update webhook_deliveries set attempt_count = attempt_count + 1, leased_until = null
      where workspace_id = ${workspaceId} and id in ${idList(part.map((k) => k.id))}`.execute(trx);
  }
  for (const part of chunks(writes.attempts, 500)) {
    await trx
      .insertInto('webhook_attempts')
      .values(part)
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  return updateStreaks(trx, writes.changes, now);
}

/**
 * The deliveries whose tries are recorded, as they are now (PostgreSQL: locked). SQLite
 * reads each by key on a statement prepared once, the one writer's cheapest read.
 */
async function readDeliveries(
  trx: Executor,
  dialect: Store['dialect'],
  workspaceId: string,
  outcomes: readonly AttemptOutcome[],
): Promise<Current[]> {
  const read: Current[] = [];
  if (dialect === 'sqlite') {
    for (const id of new Set(outcomes.map((o) => o.id)))
      read.push(...(await preparedRows<Current>(trx, READ_SQL, [workspaceId, id])));
    return read;
  }
  for (const part of chunks(outcomes)) {
    const result =
      await sql<Current>`select workspace_id, id, status, attempt_count, next_attempt_at
      from webhook_deliveries
      where workspace_id = ${workspaceId} and id in ${idList(part.map((o) => o.id))} for update`.execute(
        trx,
      );
    read.push(...result.rows);
  }
  return read;
}

/**
 * What the tries do, in the order they ended, to the deliveries as `read` (`effectOfAttempt`),
 * and to their webhooks' failure streaks (`streakAfter`).
 */
function recordWrites(
  read: readonly Current[],
  outcomes: readonly AttemptOutcome[],
  policy: RetryPolicy,
  nowMs: number,
): RecordWrites {
  const current = new Map<string, Pick<Current, 'status' | 'attempt_count' | 'next_attempt_at'>>();
  for (const r of read) {
    current.set(workspaceKey(r.workspace_id, r.id), {
      status: r.status,
      attempt_count: Number(r.attempt_count),
      next_attempt_at: r.next_attempt_at,
    });
  }
  const writes: RecordWrites = {
    delivered: new Map(),
    retried: [],
    logOnly: [],
    attempts: [],
    changes: [],
  };
  // Per webhook: what the batch does to its failure streak.
  const streaks = new Map<string, WebhookKey & StreakChange>();

  for (const o of outcomes) {
    const row = current.get(workspaceKey(o.workspaceId, o.id));
    if (!row) continue; // deleted with its webhook meanwhile
    row.attempt_count += 1;
    writes.attempts.push({
      workspace_id: o.workspaceId,
      delivery_id: o.id,
      attempt: row.attempt_count,
      started_at: o.startedAt,
      duration_ms: Math.max(0, Math.round(o.durationMs)),
      status_code: o.statusCode,
      error: o.error,
    });
    const key = { workspaceId: o.workspaceId, id: o.id };
    const effect = replayedSince(row.next_attempt_at, o.startedAt)
      ? LOGGED
      : effectOfAttempt(
          row.status,
          row.attempt_count,
          o.statusCode,
          policy.retryDelays,
          nowMs,
          policy.jitter ?? RETRY_JITTER,
        );
    if (effect.kind === 'logged') {
      writes.logOnly.push(key);
      continue;
    }
    const webhook = workspaceKey(o.workspaceId, o.webhookId);
    const before = streaks.get(webhook) ?? NO_STREAK_CHANGE;
    const after = streakAfter(before, effect);
    if (after !== before)
      streaks.set(webhook, { workspaceId: o.workspaceId, webhookId: o.webhookId, ...after });
    if (effect.kind === 'delivered') {
      row.status = 'delivered';
      const list = writes.delivered.get(o.statusCode!);
      if (list) list.push(key);
      else writes.delivered.set(o.statusCode!, [key]);
      continue;
    }
    if (effect.kind === 'failed') row.status = 'failed';
    writes.retried.push({
      key,
      outcome: o,
      next: effect.kind === 'retry' ? new Date(effect.nextMs).toISOString() : null,
    });
  }
  writes.changes = [...streaks.values()];
  return writes;
}

/**
 * A record's writes in one workspace on SQLite: a statement a row, each prepared once on the
 * writer (`preparedRows`): SQLite's cheapest writes, where Kysely would build, compile and
 * prepare a statement for each. A streak that grows goes through `updateStreaks`, which may
 * disable its webhook.
 */
async function writeEachRow(
  trx: Executor,
  workspaceId: string,
  now: string,
  writes: RecordWrites,
): Promise<WebhookKey[]> {
  for (const [statusCode, keys] of writes.delivered)
    for (const k of keys)
      await preparedRows(trx, DELIVERED_SQL, [statusCode, now, workspaceId, k.id]);
  for (const { key, outcome, next } of writes.retried) {
    await preparedRows(trx, RETRIED_SQL, [
      next === null ? 'failed' : 'pending',
      outcome.statusCode,
      outcome.error,
      next,
      workspaceId,
      key.id,
    ]);
  }
  for (const k of writes.logOnly) await preparedRows(trx, LOGGED_SQL, [workspaceId, k.id]);
  for (const a of writes.attempts) {
    await preparedRows(trx, ATTEMPT_SQL, [
      a.workspace_id,
      a.delivery_id,
      a.attempt,
      a.started_at,
      a.duration_ms,
      a.status_code,
      a.error,
    ]);
  }
  const growing: (WebhookKey & StreakChange)[] = [];
  for (const c of writes.changes) {
    if (c.reset && c.failed === 0)
      await preparedRows(trx, STREAK_CLEARED_SQL, [c.workspaceId, c.webhookId]);
    else growing.push(c);
  }
  return updateStreaks(trx, growing, now);
}

// `writeEachRow`'s statements (SQLite), the same writes as `recordIn`'s for PostgreSQL.
const READ_SQL = `select workspace_id, id, status, attempt_count, next_attempt_at
  from webhook_deliveries
  where workspace_id = ? and id = ?`;
const DELIVERED_SQL = `update webhook_deliveries set status = 'delivered',
  attempt_count = attempt_count + 1, last_status_code = ?, last_error = null,
  next_attempt_at = null, leased_until = null, delivered_at = ?
  where workspace_id = ? and id = ?`;
const RETRIED_SQL = `update webhook_deliveries set status = ?, attempt_count = attempt_count + 1,
  last_status_code = ?, last_error = ?, next_attempt_at = ?, leased_until = null
  where workspace_id = ? and id = ?`;
const LOGGED_SQL = `update webhook_deliveries set attempt_count = attempt_count + 1, leased_until = null
  where workspace_id = ? and id = ?`;
const ATTEMPT_SQL = `insert into webhook_attempts
  (workspace_id, delivery_id, attempt, started_at, duration_ms, status_code, error)
  values (?, ?, ?, ?, ?, ?, ?) on conflict do nothing`;
const STREAK_CLEARED_SQL = `update webhooks set failure_streak = 0
  where workspace_id = ? and id = ? and failure_streak <> 0`;

/** Tries whose writes go in one statement at most (below both statements' limits of keys). */
const AT_ONCE = 500;

/**
 * Whether a record's writes may go in one statement (PostgreSQL): a try of each delivery at
 * most (a statement changes a row once), not too many, and no webhook's streak growing (a
 * webhook that may be disabled is updated apart, in key order, by `updateStreaks`).
 */
function writesAtOnce(outcomes: readonly AttemptOutcome[], writes: RecordWrites): boolean {
  if (writes.attempts.length === 0 || writes.attempts.length > AT_ONCE) return false;
  if (writes.changes.some((c) => !c.reset || c.failed !== 0)) return false;
  return new Set(outcomes.map((o) => o.id)).size === outcomes.length;
}

/**
 * A record's writes in one workspace in one statement (PostgreSQL; one round trip where
 * they take one per kind of write and one per webhook): each update a data-modifying `with`
 * of the `insert` of the tries, on distinct rows. The streaks are only cleared, of the
 * webhooks in key order.
 */
async function writeAtOnce(
  trx: Executor,
  workspaceId: string,
  now: string,
  writes: RecordWrites,
): Promise<void> {
  const ids = (keys: readonly DeliveryKey[]) => idList(keys.map((k) => k.id));
  const updates: RawBuilder<unknown>[] = [];
  for (const [statusCode, keys] of writes.delivered) {
    updates.push(sql`update webhook_deliveries set status = 'delivered',
        attempt_count = attempt_count + 1, last_status_code = ${statusCode},
        last_error = null, next_attempt_at = null, leased_until = null, delivered_at = ${now}
      where workspace_id = ${workspaceId} and id in ${ids(keys)}`);
  }
  for (const { key, outcome, next } of writes.retried) {
    updates.push(sql`update webhook_deliveries set status = ${next === null ? 'failed' : 'pending'},
        attempt_count = attempt_count + 1, last_status_code = ${outcome.statusCode},
        last_error = ${outcome.error}, next_attempt_at = ${next}, leased_until = null
      where workspace_id = ${workspaceId} and id = ${key.id}`);
  }
  if (writes.logOnly.length > 0) {
    updates.push(sql`update webhook_deliveries set attempt_count = attempt_count + 1, leased_until = null
      where workspace_id = ${workspaceId} and id in ${ids(writes.logOnly)}`);
  }
  const webhooks = writes.changes.map((c) => c.webhookId).sort();
  if (webhooks.length > 0) {
    updates.push(sql`update webhooks set failure_streak = 0
      where workspace_id = ${workspaceId} and id in ${idList(webhooks)} and failure_streak <> 0`);
  }
  const rows = writes.attempts.map(
    (a) =>
      sql`(${a.workspace_id}, ${a.delivery_id}, ${a.attempt}, ${a.started_at}, ${a.duration_ms}, ${a.status_code}, ${a.error})`,
  );
  const withs = updates.map((u, i) => sql`${sql.raw(`w${i}`)} as (${u})`);
  await sql`${updates.length > 0 ? sql`with ${sql.join(withs)} ` : sql``}insert into webhook_attempts
      (workspace_id, delivery_id, attempt, started_at, duration_ms, status_code, error)
    values ${sql.join(rows)} on conflict do nothing`.execute(trx);
}

/**
 * Applies the batch's effect on each webhook's failure streak (in key order, so concurrent
 * records lock webhooks in one order) and disables those that reach ten.
 */
async function updateStreaks(
  trx: Executor,
  streaks: (WebhookKey & StreakChange)[],
  now: string,
): Promise<WebhookKey[]> {
  streaks.sort((a, b) =>
    a.workspaceId !== b.workspaceId
      ? a.workspaceId < b.workspaceId
        ? -1
        : 1
      : a.webhookId < b.webhookId
        ? -1
        : a.webhookId > b.webhookId
          ? 1
          : 0,
  );
  const disabled: WebhookKey[] = [];
  for (const s of streaks) {
    const webhook = trx
      .updateTable('webhooks')
      .where('workspace_id', '=', s.workspaceId)
      .where('id', '=', s.webhookId);
    if (s.reset && s.failed === 0) {
      await webhook.set({ failure_streak: 0 }).where('failure_streak', '<>', 0).execute();
      continue;
    }
    await webhook
      .set((eb) => ({
        failure_streak: s.reset ? s.failed : eb('failure_streak', '+', s.failed),
      }))
      .execute();
    const off = await trx
      .updateTable('webhooks')
      .set({ status: 'disabled', updated_at: now })
      .where('workspace_id', '=', s.workspaceId)
      .where('id', '=', s.webhookId)
      .where('status', '=', 'active')
      .where('failure_streak', '>=', FAILED_IN_A_ROW_TO_DISABLE)
      .returning('id')
      .executeTakeFirst();
    if (off) {
      // The workspace's active webhooks are part of its catalog.
      await bumpCatalogVersion(trx, s.workspaceId);
      disabled.push({ workspaceId: s.workspaceId, webhookId: s.webhookId });
    }
  }
  return disabled;
}

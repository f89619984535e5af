import { sql } from 'kysely';
import { workspaceKey } from '../../domain/ids.ts';
import { signingSecrets } from '../../domain/webhook-signature.ts';
import type { Executor, Store } from '../database.ts';
import { bookkeeping, chunks, type DeliveryKey, idList, idsByWorkspace } from './bookkeeping.ts';
import { holdsLease } from './dispatch-lease.ts';
import {
  listDueWorkspaces,
  markDeliveriesDue,
  settleDueWorkspace,
  settleDueWorkspaceAlone,
} from './due-workspaces.ts';
import { heldStreams, recoverStream } from './streams.ts';

/**
 * Webhook deliveries as dispatchers claim them (docs/webhooks.md, Delivery and signatures): a claim
 * leases due deliveries (`leased_until`) so that no other dispatcher sends them meanwhile, and
 * reads what sending them takes; a dispatcher renews the leases it holds, and lets go those it will
 * not send. Recording the tries is `attempts.ts`.
 */

/** A claimed delivery and what sending it takes. */
export interface Delivery extends DeliveryKey {
  webhookId: string;
  eventSeq: number;
  /** Tries before this one: 0 for a first attempt. */
  attemptCount: number;
  url: string;
  /** The event's payload, sent byte for byte. */
  payload: string;
  /** The event's time (its write's, ISO 8601): what the delivery's lag is counted from. */
  occurredAt: string;
  /** The secrets that sign it: the webhook's, then during a rotation the previous one. */
  secrets: string[];
  /**
   * A first attempt streamed with no delivery row (`streams.ts`): its event's time, which the
   * row made for it has when it is not delivered at once.
   */
  streamedAt?: string;
}

/** What a dispatcher asks a claim for. */
export interface ClaimRequest {
  /** The time of the claim (ISO 8601). */
  now: string;
  /** The claimed deliveries are leased until then. */
  leaseUntil: string;
  /** The most deliveries to claim. */
  limit: number;
  /** The most deliveries of one webhook the dispatcher may hold at a time. */
  perWebhook: number;
  /** The deliveries the dispatcher holds already (claimed and not yet recorded), by id. */
  held: { has(id: string): boolean; readonly size: number };
  /** How many of a webhook's deliveries the dispatcher holds already. */
  heldOf(workspaceId: string, webhookId: string): number;
  /** The deliveries the dispatcher holds in a workspace, and their webhooks. */
  heldIn(workspaceId: string): readonly { id: string; webhookId: string }[];
  /** The most deliveries the dispatcher holds of any one webhook. */
  mostHeldOfOne: number;
  /** Deliveries are likely due (a write just committed, the last claim left some): no lock-free look first. */
  likely?: boolean;
  /**
   * The workspaces to look in (at most `WORKSPACES_PER_CLAIM`), say those a write of this
   * process just gave deliveries, instead of those whose mark is due.
   */
  workspaces?: readonly string[];
  /** SQLite: the dispatch lease, checked in the claim's transaction (no claim without it). */
  lease?: { name: string; holder: string };
  /**
   * The dispatcher's id: webhooks whose stream another holds (`streams.ts`) are left to that
   * holder, whose first attempts may be in its memory alone.
   */
  holder?: string;
  /**
   * When the dispatcher last looked in a workspace (a number that grows with each claim; -1
   * never): of the due workspaces, those looked in longest ago go first, so that while writes
   * keep more workspaces due than a claim looks in, each is looked in in turn (a workspace's
   * mark is only put back when a look finds nothing due, so the order of the marks alone
   * would look in the same ones every time).
   */
  lookedIn?(workspaceId: string): number;
  /**
   * Due workspaces to pass over: those the dispatcher claimed in a moment ago, after a write
   * there (it saw what was due then, and their marks are put back when their tries are
   * recorded): a claim over every due workspace would otherwise look again in each workspace
   * whose deliveries are on their way while writes stream in.
   */
  passOver?(workspaceId: string): boolean;
  /**
   * Called with the deliveries of each transaction of the claim once it committed (on
   * PostgreSQL a workspace's, on SQLite all of them), so that they may go out before the
   * claim's other workspaces are claimed; the claim also returns them all.
   */
  claimed?(deliveries: Delivery[]): void;
}

/** What a claim got. */
export interface Claim {
  deliveries: Delivery[];
  /**
   * More deliveries were due than the limits let this claim take: in the workspaces `left`
   * names, or in workspaces it did not look in for want of room or of looks.
   */
  more: boolean;
  /** The workspaces looked in where more deliveries were due than the claim took. */
  left: string[];
  /** False when the dispatch lease was another's: nothing was claimed. */
  leaseHeld: boolean;
  /** The workspaces the claim looked in. */
  looked: string[];
  /**
   * Workspaces where due deliveries were left to another dispatcher's claim or lease, which
   * may end without it taking them: a first attempt it holds leased (or, on PostgreSQL, has
   * locked) kept back its webhook's later ones, or its claim had the webhook locked. A dispatcher looks there again soon,
   * since no write may wake it (not webhooks another streams: their holder sends them).
   */
  blocked: string[];
}

/** A pending due delivery, as a claim considers it. */
interface Candidate {
  workspace_id: string;
  id: string;
  webhook_id: string;
  event_seq: number;
  attempt_count: number;
  next_attempt_at: string;
  leased_until: string | null;
}

const CANDIDATE_COLUMNS = [
  'workspace_id',
  'id',
  'webhook_id',
  'event_seq',
  'attempt_count',
  'next_attempt_at',
  'leased_until',
] as const;

/** Workspaces a claim looks in at most; past them, it says there is more. */
export const WORKSPACES_PER_CLAIM = 64;

/** Due workspaces a claim chooses its `WORKSPACES_PER_CLAIM` among (see `lookedIn`). */
const WORKSPACES_LISTED = 16 * WORKSPACES_PER_CLAIM;

/**
 * PostgreSQL: workspaces claimed in at once, each in its own transaction on its own
 * connection, so that a claim over many workspaces takes a few round trips' time rather
 * than the sum of theirs (the pool is shared with the API: a few, not all).
 */
const PARALLEL_WORKSPACES = 8;

/**
 * Claims due deliveries: pending, due by `now`, not leased, of active webhooks; per webhook
 * in the order they are due (then event order), at most `perWebhook` held per webhook and
 * `limit` in all, oldest first across webhooks, so a webhook with a backlog does not starve
 * the others. A first attempt is not claimed while an earlier first attempt of its webhook is
 * leased by another dispatcher (first attempts go out in commit order per webhook). Leases
 * them until `leaseUntil` and reads, in the same transaction, what sending them takes;
 * deliveries whose webhook is no longer active are let go (left pending), those whose
 * webhook or event is gone end `failed`.
 *
 * The workspaces with due deliveries, the earliest due first (`due-workspaces.ts`), each in
 * statements of its own, so no statement locks or writes rows of two workspaces. A
 * workspace where nothing is due gets its mark put back.
 *
 * PostgreSQL: each workspace in one statement of its own, its own transaction (a few
 * workspaces at once), so no transaction spans workspaces either (`claimStatement`). A claim
 * first looks without locking anything (an idle look writes nothing), unless deliveries are
 * `likely`; when there is something to take, the statement locks the workspace's webhooks
 * that have due deliveries (`skip locked`: those another claim holds are left to it), locks
 * and reads their deliveries as they are now, chooses, leases and reads what sending them
 * takes, so concurrent dispatchers never claim the same delivery and each sees the leases of
 * the claims before it. SQLite (one file, one
 * writer): one dispatcher at a time holds the dispatch lease, checked in the claim's one
 * transaction, which leases in every workspace of the claim.
 */
export async function claimDeliveries(store: Store, request: ClaimRequest): Promise<Claim> {
  if (request.limit <= 0)
    return { deliveries: [], more: true, leaseHeld: true, looked: [], blocked: [], left: [] };
  let due = request.workspaces?.slice(0, WORKSPACES_PER_CLAIM);
  let left = false;
  if (!due) {
    const passOver = request.passOver;
    let listed = await listDueWorkspaces(store.db, request.now, WORKSPACES_LISTED);
    if (passOver) listed = listed.filter((id) => !passOver(id));
    const lookedIn = request.lookedIn;
    // Stable: among those looked in alike, the earliest mark first.
    if (lookedIn) listed.sort((a, b) => lookedIn(a) - lookedIn(b));
    due = listed.slice(0, WORKSPACES_PER_CLAIM);
    left = listed.length > due.length;
  }
  const claim =
    store.dialect === 'postgres'
      ? await claimOnPostgres(store, due, request)
      : await claimOnSqlite(store, due, request);
  if (left) claim.more = true;
  return claim;
}

/** PostgreSQL: a claim in each workspace, a few at once, the claim's limit shared among them. */
async function claimOnPostgres(
  store: Store,
  due: readonly string[],
  request: ClaimRequest,
): Promise<Claim> {
  const deliveries: Delivery[] = [];
  const blocked: string[] = [];
  const left: string[] = [];
  let more = false;
  let next = 0;
  while (next < due.length) {
    const room = request.limit - deliveries.length;
    if (room <= 0) {
      more = true;
      break;
    }
    const group = due.slice(next, next + Math.min(PARALLEL_WORKSPACES, room));
    next += group.length;
    // Each its share of the room; the first ones the rest of it.
    const share = Math.floor(room / group.length);
    const extra = room - share * group.length;
    const claims = await Promise.all(
      group.map((workspaceId, i) =>
        claimInPostgres(store, workspaceId, { ...request, limit: share + (i < extra ? 1 : 0) }),
      ),
    );
    for (const claim of claims) {
      deliveries.push(...claim.deliveries);
      blocked.push(...claim.blocked);
      left.push(...claim.left);
      if (claim.more) more = true;
    }
  }
  return { deliveries, more, leaseHeld: true, looked: due.slice(0, next), blocked, left };
}

/**
 * A claim in one workspace (PostgreSQL): one statement (`claimStatement`), its own
 * transaction, in one round trip. Unless deliveries are `likely`, a look that locks nothing
 * comes first, so that an idle look writes nothing.
 */
async function claimInPostgres(
  store: Store,
  workspaceId: string,
  request: ClaimRequest,
): Promise<Claim> {
  const none = (more: boolean, blocked = false): Claim => ({
    deliveries: [],
    more,
    leaseHeld: true,
    looked: [],
    blocked: blocked ? [workspaceId] : [],
    left: more ? [workspaceId] : [],
  });
  if (!request.likely) {
    const found = await postgresCandidates(store.db, workspaceId, request);
    if (found.length === 0) {
      await settleDueWorkspaceAlone(store, workspaceId);
      return none(false);
    }
    const look = choose(found, request);
    if (look.chosen.length === 0) return none(look.more, look.blocked);
  }
  const { rows } = await claimStatement(workspaceId, request).execute(store.db);
  const head = rows[0];
  if (!head || Number(head.locked) === 0) {
    // Nothing due (or all of it another claim's): the mark put back, else a stale mark
    // would keep the workspace first in every claim's list while writes keep them likely.
    await settleDueWorkspaceAlone(store, workspaceId);
    return none(false, head?.blocked === true);
  }
  const leased = rows.filter((r): r is ClaimRow & SendRow => r.id !== null);
  const deliveries = await sendsOf(store.db, leased, request.now);
  if (deliveries.length > 0) request.claimed?.(deliveries);
  return { ...none(head.more === true, head.blocked === true), deliveries };
}

/** A row of `claimStatement`: the claim's facts, and a leased delivery when `id` is not null. */
type ClaimRow = { locked: number | string; more: boolean; blocked: boolean } & {
  [K in keyof SendRow]: SendRow[K] | null;
};

/**
 * The claim in one workspace as one statement (PostgreSQL), a transaction of its own whose
 * commit does not wait for the WAL (`synchronous_commit` off for it, as `bookkeeping`'s):
 * what `choose` does, in SQL, prepared once a connection.
 *
 * It locks the workspace's active webhooks that have due pending deliveries (`skip locked`:
 * those another claim holds are left to it), then locks their first due deliveries (`for
 * update skip locked`), whose rows it reads as they are now rather than as the statement's
 * snapshot had them, so each claim sees the leases of the claims before it. A row another
 * transaction has locked is skipped (a record of a try that ended, or another dispatcher
 * renewing or letting go of its lease, unsent): when a first attempt this dispatcher does not
 * hold, it holds back the webhook's later first attempts as a lease would, since whether it
 * was sent is not known yet (`skipped`: the webhook's first such row, read again without
 * locking, only for webhooks with a first attempt among the candidates). Per webhook, in due
 * order: those this dispatcher holds are passed over; one leased by another is passed over
 * too, and when a first attempt, holds back the webhook's later first attempts; up to the
 * webhook's room.
 * Across webhooks, the earliest due first, up to the limit; those chosen are leased, and what
 * sending them takes is read. It answers one row at least: `locked`, the webhooks locked;
 * `more`, whether more were due than it took; `blocked`, whether another's claim had a
 * webhook locked, or another's lease or locked row held first attempts back (`Claim.blocked`);
 * then each leased delivery's columns.
 */
function claimStatement(workspaceId: string, request: ClaimRequest) {
  const workspace = workspaceId;
  const now = request.now;
  const held = request.heldIn(workspaceId);
  const limit = Math.max(0, Math.floor(request.limit));
  return sql<ClaimRow>`
    with held(id, webhook_id) as (
      select * from unnest(${held.map((h) => h.id)}::text[], ${held.map((h) => h.webhookId)}::text[])
    ), due_webhooks as (
      select w.id from webhooks w
      cross join lateral (
        select 1 from webhook_deliveries d
        where d.workspace_id = ${workspace} and d.webhook_id = w.id and d.status = 'pending'
          and d.next_attempt_at <= ${now}
        limit 1
      ) due
      where w.workspace_id = ${workspace} and w.status = 'active'
        and ${notStreamedByAnother(workspace, request)}
    ), locked as (
      select w.id from webhooks w
      where w.workspace_id = ${workspace} and w.id in (select id from due_webhooks)
      for no key update of w skip locked
    ), candidates as (
      select d.id, d.webhook_id, d.event_seq, d.attempt_count, d.next_attempt_at,
        d.id in (select id from held) as held,
        d.leased_until is not null and d.leased_until >= ${now} as leased
      from locked w
      cross join lateral (${firstDue(workspace, request, sql`for update skip locked`)}) d
    ), skipped as materialized (
      select distinct on (v.webhook_id) v.webhook_id, v.next_attempt_at, v.event_seq
      from (select distinct webhook_id as id from candidates where attempt_count = 0) w
      cross join lateral (${firstDue(workspace, request)}) v
      where v.attempt_count = 0 and v.id not in (select id from candidates)
        and v.id not in (select id from held)
      order by v.webhook_id, v.next_attempt_at, v.event_seq
    ), ordered as (
      select c.*, coalesce(bool_or(c.attempt_count = 0 and c.leased and not c.held) over (
          partition by c.webhook_id order by c.next_attempt_at, c.event_seq
          rows between unbounded preceding and 1 preceding), false)
        or coalesce((s.next_attempt_at, s.event_seq) < (c.next_attempt_at, c.event_seq), false)
        as after_leased_first
      from candidates c
      left join skipped s on s.webhook_id = c.webhook_id
    ), eligible as (
      select o.id, o.next_attempt_at, o.event_seq,
        row_number() over (partition by o.webhook_id order by o.next_attempt_at, o.event_seq) as n,
        ${Math.floor(request.perWebhook)}::int
          - (select count(*) from held h where h.webhook_id = o.webhook_id) as room
      from ordered o
      where not o.held and not o.leased and not (o.attempt_count = 0 and o.after_leased_first)
    ), chosen as (
      select e.id from eligible e where e.n <= e.room
      order by e.next_attempt_at, e.event_seq
      limit ${limit}::int
    ), leased as (
      update webhook_deliveries d set leased_until = ${request.leaseUntil}
      from chosen c
      where d.workspace_id = ${workspace} and d.id = c.id
      returning d.workspace_id, d.id, d.webhook_id, d.event_seq, d.attempt_count,
        d.next_attempt_at
    )
    select (select count(*) from locked) as locked,
      exists (select 1 from eligible where n > room)
        or (select count(*) from eligible where n <= room) > ${limit}::int as more,
      (select count(*) from locked) < (select count(*) from due_webhooks)
        or exists (select 1 from ordered o where not o.held and not o.leased
          and o.attempt_count = 0 and o.after_leased_first) as blocked,
      l.workspace_id, l.id, l.webhook_id, l.event_seq, l.attempt_count, l.next_attempt_at,
      e.payload, e.occurred_at, w.url, w.status as webhook_status, w.secret,
      w.previous_secret, w.previous_secret_until
    from (select 1) one
    left join leased l on true
    left join events e on e.workspace_id = ${workspace} and e.seq = l.event_seq
    left join webhooks w on w.workspace_id = ${workspace} and w.id = l.webhook_id
    cross join (select set_config('synchronous_commit', 'off', true)) as bookkeeping`;
}

/** SQLite: the claim found the dispatch lease another's, and took nothing. */
function leaseLost(): Claim {
  return { deliveries: [], more: false, leaseHeld: false, looked: [], blocked: [], left: [] };
}

/**
 * SQLite: the lease holder alone claims, so the candidates are read outside the write
 * transaction; then one transaction leases those chosen in every workspace, and puts back
 * the marks of the workspaces where nothing was due.
 */
async function claimOnSqlite(
  store: Store,
  due: readonly string[],
  request: ClaimRequest,
): Promise<Claim> {
  const chosenIn: { workspaceId: string; chosen: Candidate[] }[] = [];
  const idle: string[] = [];
  let chosenCount = 0;
  let more = false;
  const looked: string[] = [];
  const blocked: string[] = [];
  const left: string[] = [];
  for (const workspaceId of due) {
    const limit = request.limit - chosenCount;
    if (limit <= 0) {
      more = true;
      break;
    }
    looked.push(workspaceId);
    const streamed = await streamsIn(store, workspaceId, request);
    if (!streamed) return leaseLost();
    const found = await sqliteCandidates(store.db, workspaceId, { ...request, limit });
    if (found.length === 0) {
      idle.push(workspaceId);
      continue;
    }
    const look = choose(found, { ...request, limit }, streamed);
    if (look.more) {
      more = true;
      left.push(workspaceId);
    }
    if (look.blocked) blocked.push(workspaceId);
    if (look.chosen.length === 0) continue;
    chosenIn.push({ workspaceId, chosen: look.chosen });
    chosenCount += look.chosen.length;
  }
  if (chosenIn.length === 0 && idle.length === 0)
    return { deliveries: [], more, leaseHeld: true, looked, blocked, left };
  const claim = await bookkeeping(store, undefined, async (trx): Promise<Claim> => {
    const lease = request.lease;
    if (lease && !(await holdsLease(trx, lease.name, lease.holder, request.now)))
      return leaseLost();
    for (const workspaceId of idle) await settleDueWorkspace(trx, workspaceId);
    const deliveries: Delivery[] = [];
    for (const { workspaceId, chosen } of chosenIn) {
      const leased = await leaseRows(trx, workspaceId, chosen, request);
      deliveries.push(...(await readSends(trx, workspaceId, leased, request.now)));
    }
    return { deliveries, more, leaseHeld: true, looked, blocked, left };
  });
  if (claim.deliveries.length > 0) request.claimed?.(claim.deliveries);
  return claim;
}

/**
 * SQLite: the workspace's webhooks streamed by another dispatcher (`streams.ts`), whose first
 * attempts a claim leaves to it; a stream whose holder's lease ended is recovered first
 * (its first attempts get rows), in a transaction that holds the dispatch lease. Undefined
 * when the lease is another's.
 */
async function streamsIn(
  store: Store,
  workspaceId: string,
  request: ClaimRequest,
): Promise<Set<string> | undefined> {
  const held = await heldStreams(store.db, workspaceId);
  const streamed = new Set<string>();
  if (held.length === 0) return streamed;
  const holder = request.lease?.holder;
  const lapsed = held.filter((s) => s.holder !== holder && s.leased_until < request.now);
  for (const s of held)
    if (s.holder !== holder && s.leased_until >= request.now) streamed.add(s.webhook_id);
  if (lapsed.length === 0) return streamed;
  const recovered = await bookkeeping(store, workspaceId, async (trx) => {
    const lease = request.lease;
    if (lease && !(await holdsLease(trx, lease.name, lease.holder, request.now))) return false;
    for (const s of lapsed) await recoverStream(trx, workspaceId, s.webhook_id, request.now);
    return true;
  });
  return recovered ? streamed : undefined;
}

/** The workspace's active webhooks' first due pending deliveries (PostgreSQL), in one statement. */
async function postgresCandidates(
  db: Executor,
  workspaceId: string,
  request: ClaimRequest,
): Promise<Candidate[]> {
  const result = await sql<Candidate>`
    select d.workspace_id, d.id, d.webhook_id, d.event_seq, d.attempt_count,
      d.next_attempt_at, d.leased_until
    from webhooks w
    cross join lateral (${firstDue(workspaceId, request)}) d
    where w.workspace_id = ${workspaceId} and w.status = 'active'
      and ${notStreamedByAnother(workspaceId, request)}`.execute(db);
  return result.rows;
}

/**
 * PostgreSQL: that the webhook `w` is not streamed by another dispatcher (`streams.ts`): its
 * holder claims the webhook's deliveries itself, and one whose lease ended is recovered by a
 * poll (`recoverLapsedStreams`).
 */
function notStreamedByAnother(workspaceId: string, request: ClaimRequest) {
  return sql<boolean>`not exists (select 1 from webhook_streams s
    where s.workspace_id = ${workspaceId} and s.webhook_id = w.id and s.holder is not null
      and s.holder <> ${request.holder ?? ''})`;
}

/** The workspace's active webhooks' first due pending deliveries (SQLite), one webhook at a time. */
async function sqliteCandidates(
  db: Executor,
  workspaceId: string,
  request: ClaimRequest,
): Promise<Candidate[]> {
  const webhooks = await db
    .selectFrom('webhooks as w')
    .select(['w.workspace_id', 'w.id'])
    .where('w.workspace_id', '=', workspaceId)
    .where('w.status', '=', 'active')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('webhook_deliveries as d')
          .select(sql.lit(1).as('one'))
          .where('d.workspace_id', '=', workspaceId)
          .whereRef('d.webhook_id', '=', 'w.id')
          .where(sql<boolean>`d.status = 'pending'`)
          .where('d.next_attempt_at', '<=', request.now),
      ),
    )
    .execute();
  const window = candidateWindow(request);
  const candidates: Candidate[] = [];
  for (const w of webhooks) {
    const rows = await db
      .selectFrom('webhook_deliveries')
      .select(CANDIDATE_COLUMNS)
      .where('workspace_id', '=', workspaceId)
      .where('webhook_id', '=', w.id)
      .where(sql<boolean>`status = 'pending'`)
      .where('next_attempt_at', '<=', request.now)
      .orderBy('next_attempt_at')
      .orderBy('event_seq')
      .limit(window)
      .execute();
    candidates.push(...(rows as Candidate[]));
  }
  return candidates;
}

/**
 * PostgreSQL: the first due pending deliveries of the webhook `w` (the enclosing query's), in
 * due order, up to the claim's window: what a claim considers of each webhook. `lock`: how
 * the rows are locked, if they are.
 */
function firstDue(workspaceId: string, request: ClaimRequest, lock = sql``) {
  return sql`select workspace_id, id, webhook_id, event_seq, attempt_count, next_attempt_at,
      leased_until
    from webhook_deliveries
    where workspace_id = ${workspaceId} and webhook_id = w.id and status = 'pending'
      and next_attempt_at <= ${request.now}
    order by next_attempt_at, event_seq
    limit ${candidateWindow(request)}::int
    ${lock}`;
}

/**
 * Deliveries read per webhook: enough to see past the ones the dispatcher holds to as many
 * as it may take (no more than its room, nor than the claim's limit), and some that another
 * dispatcher is sending. With many webhooks and a small claim, far fewer than the most.
 */
function candidateWindow(request: ClaimRequest): number {
  return request.mostHeldOfOne + Math.min(request.perWebhook, request.limit) + 16;
}

/**
 * The candidates a claim takes, and whether more were due: per webhook in due order, up to
 * its room, skipping those held by this dispatcher and those leased by another; a first
 * attempt leased by another dispatcher holds back the webhook's later first attempts
 * (`blocked`), as does a stream another holds (`streamed`).
 * Across webhooks, the earliest due first, up to the limit.
 */
function choose(
  candidates: readonly Candidate[],
  request: ClaimRequest,
  streamed?: ReadonlySet<string>,
): { chosen: Candidate[]; more: boolean; blocked: boolean } {
  const byWebhook = new Map<string, Candidate[]>();
  for (const c of candidates) {
    const key = workspaceKey(c.workspace_id, c.webhook_id);
    const list = byWebhook.get(key);
    if (list) list.push(c);
    else byWebhook.set(key, [c]);
  }
  const picked: Candidate[] = [];
  let more = false;
  let blocked = false;
  for (const list of byWebhook.values()) {
    list.sort(dueOrder);
    const first = list[0]!;
    let room = request.perWebhook - request.heldOf(first.workspace_id, first.webhook_id);
    // Another dispatcher streams the webhook: its first attempts may be in its memory alone,
    // and it sends them.
    const streamedByAnother = streamed?.has(first.webhook_id) === true;
    let leasedFirstAttempt = false;
    for (const c of list) {
      if (request.held.has(c.id)) continue;
      const attempt = Number(c.attempt_count);
      if (c.leased_until !== null && c.leased_until >= request.now) {
        if (attempt === 0) leasedFirstAttempt = true;
        continue;
      }
      if (attempt === 0 && streamedByAnother) continue;
      if (attempt === 0 && leasedFirstAttempt) {
        blocked = true;
        continue;
      }
      if (room <= 0) {
        more = true;
        break;
      }
      picked.push(c);
      room -= 1;
    }
  }
  picked.sort(dueOrder);
  if (picked.length > request.limit) more = true;
  return { chosen: picked.slice(0, request.limit), more, blocked };
}

function dueOrder(a: Candidate, b: Candidate): number {
  if (a.next_attempt_at !== b.next_attempt_at)
    return a.next_attempt_at < b.next_attempt_at ? -1 : 1;
  return Number(a.event_seq) - Number(b.event_seq);
}

/**
 * SQLite: leases the chosen deliveries that are still pending and free (PostgreSQL:
 * `claimStatement`). Returns the keys it leased.
 *
 * Rows are found by key alone, and whether they are pending is checked here: a `status`
 * condition lets PostgreSQL's planner, whose statistics of a queue table are always stale,
 * combine the key lookup with a scan of every pending row.
 */
async function leaseRows(
  trx: Executor,
  workspaceId: string,
  chosen: readonly Candidate[],
  request: ClaimRequest,
): Promise<DeliveryKey[]> {
  const leased: DeliveryKey[] = [];
  for (const part of chunks(chosen.map((c) => c.id))) {
    const rows = await sql<{
      id: string;
      status: string;
      leased_until: string | null;
    }>`select id, status, leased_until from webhook_deliveries
      where workspace_id = ${workspaceId} and id in ${idList(part)}`.execute(trx);
    const free = rows.rows
      .filter(
        (r) => r.status === 'pending' && (r.leased_until === null || r.leased_until < request.now),
      )
      .map((r) => r.id);
    if (free.length === 0) continue;
    await sql`update webhook_deliveries set leased_until = ${request.leaseUntil}
      where workspace_id = ${workspaceId} and id in ${idList(free)}`.execute(trx);
    leased.push(...free.map((id) => ({ workspaceId, id })));
  }
  return leased;
}

/** SQLite: what sending the leased deliveries takes, in due order; lets go those that cannot go. */
async function readSends(
  trx: Executor,
  workspaceId: string,
  keys: readonly DeliveryKey[],
  now: string,
) {
  if (keys.length === 0) return [];
  const rows: SendRow[] = [];
  for (const part of chunks(keys.map((k) => k.id))) {
    const result = await sql<SendRow>`
      select d.workspace_id, d.id, d.webhook_id, d.event_seq, d.attempt_count, d.next_attempt_at,
        e.payload, e.occurred_at, w.url, w.status as webhook_status, w.secret,
        w.previous_secret, w.previous_secret_until
      from webhook_deliveries d
      left join events e on e.workspace_id = ${workspaceId} and e.seq = d.event_seq
      left join webhooks w on w.workspace_id = ${workspaceId} and w.id = d.webhook_id
      where d.workspace_id = ${workspaceId} and d.id in ${idList(part)}`.execute(trx);
    rows.push(...result.rows);
  }
  return sendsOf(trx, rows, now);
}

/** What sending to a webhook takes, as its row has it (all null when it is gone). */
interface WebhookSendRow {
  url: string | null;
  webhook_status: string | null;
  secret: string | null;
  previous_secret: string | null;
  previous_secret_until: string | null;
}

/** A leased delivery with what sending it takes, as the claim reads it. */
interface SendRow extends WebhookSendRow {
  workspace_id: string;
  id: string;
  webhook_id: string;
  event_seq: number;
  attempt_count: number;
  next_attempt_at: string;
  payload: string | null;
  occurred_at: string | null;
}

/**
 * A delivery ready to send, signed by the webhook's secret and, during a rotation (until
 * `previous_secret_until`, after `now`), the previous one too; undefined when its webhook
 * or its event is gone.
 */
export function deliveryToSend(
  r: Omit<SendRow, 'next_attempt_at'>,
  now: string,
): Delivery | undefined {
  if (r.url === null || r.secret === null || r.payload === null || r.occurred_at === null)
    return undefined;
  return {
    workspaceId: r.workspace_id,
    id: r.id,
    webhookId: r.webhook_id,
    eventSeq: Number(r.event_seq),
    attemptCount: Number(r.attempt_count),
    url: r.url,
    payload: r.payload,
    occurredAt: r.occurred_at,
    secrets: signingSecrets(r.secret, r.previous_secret, r.previous_secret_until, now),
  };
}

/** The deliveries to send of the rows read, in due order; lets go those that cannot go. */
async function sendsOf(trx: Executor, rows: SendRow[], now: string): Promise<Delivery[]> {
  rows.sort((a, b) =>
    a.next_attempt_at !== b.next_attempt_at
      ? a.next_attempt_at < b.next_attempt_at
        ? -1
        : 1
      : Number(a.event_seq) - Number(b.event_seq),
  );
  const sends: Delivery[] = [];
  const inactive: DeliveryKey[] = [];
  const gone: { key: DeliveryKey; reason: string }[] = [];
  for (const r of rows) {
    const key = { workspaceId: r.workspace_id, id: r.id };
    if (r.url === null || r.secret === null) {
      gone.push({ key, reason: 'the webhook no longer exists' });
    } else if (r.webhook_status !== 'active') {
      inactive.push(key);
    } else if (r.payload === null) {
      gone.push({ key, reason: 'the event is no longer stored' });
    } else {
      sends.push(deliveryToSend(r, now)!);
    }
  }
  if (inactive.length > 0) await releaseWith(trx, inactive);
  for (const { key, reason } of gone) {
    await trx
      .updateTable('webhook_deliveries')
      .set({ status: 'failed', last_error: reason, next_attempt_at: null, leased_until: null })
      .where('workspace_id', '=', key.workspaceId)
      .where('id', '=', key.id)
      .execute();
  }
  return sends;
}

/**
 * Lets deliveries go that were claimed but not sent: free to claim at once, their workspace's
 * mark due now (a write that leased them all set it to their lease's end, `handover.ts`). By
 * key alone (see `leaseRows`); a finished delivery's lease is null already, and stays so.
 * The mark first: the workspace's row, then its deliveries, as a write locks them, so that a
 * write carrying a record of the same deliveries is waited for rather than deadlocked with
 * (a dispatcher lets go only when it stops or a webhook is disabled, never on its hot path).
 */
export async function releaseDeliveries(store: Store, keys: readonly DeliveryKey[]): Promise<void> {
  for (const [workspaceId, ids] of idsByWorkspace(keys)) {
    await bookkeeping(store, workspaceId, async (trx) => {
      await markDeliveriesDue(trx, workspaceId, new Date().toISOString());
      await releaseWith(
        trx,
        ids.map((id) => ({ workspaceId, id })),
      );
    });
  }
}

async function releaseWith(db: Executor, keys: readonly DeliveryKey[]): Promise<void> {
  for (const [workspaceId, ids] of idsByWorkspace(keys)) {
    for (const part of chunks(ids)) {
      await sql`update webhook_deliveries set leased_until = null
        where workspace_id = ${workspaceId} and id in ${idList(part)}`.execute(db);
    }
  }
}

/**
 * Extends the leases of deliveries a dispatcher still holds (queued or being sent) to
 * `until`, one workspace at a time. By key alone (see `leaseRows`): one that another
 * dispatcher finished meanwhile gets a lease it no longer needs, which nothing reads.
 */
export async function renewDeliveryLeases(
  store: Store,
  keys: readonly DeliveryKey[],
  until: string,
): Promise<void> {
  for (const [workspaceId, ids] of idsByWorkspace(keys)) {
    await bookkeeping(store, workspaceId, async (trx) => {
      for (const part of chunks(ids)) {
        await sql`update webhook_deliveries set leased_until = ${until}
          where workspace_id = ${workspaceId} and id in ${idList(part)}`.execute(trx);
      }
    });
  }
}

/**
 * Deliveries pending and due at `now` (ISO 8601), in every workspace: the webhook backlog,
 * counted in each workspace with due work.
 */
export async function countDueDeliveries(db: Executor, now: string): Promise<number> {
  let due = 0;
  for (const workspaceId of await listDueWorkspaces(db, now, Number.MAX_SAFE_INTEGER)) {
    const row = await db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<number | string>().as('due'))
      .where('workspace_id', '=', workspaceId)
      .where(sql<boolean>`status = 'pending'`)
      .where('next_attempt_at', '<=', now)
      .executeTakeFirst();
    due += Number(row?.due ?? 0);
  }
  return due;
}

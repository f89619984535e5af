import { DomainError } from '../../domain/errors.ts';
import type { EventObjectType } from '../../domain/events.ts';
import type { Store } from '../../store/database.ts';
import { firstKeptEvent } from '../../store/outbox/prune.ts';

/** A page of the event feed: events after a number, and where the feed stands. */
export interface EventPage {
  /** `{"seq":N,…payload}` of each event, oldest first. */
  events: string[];
  /** The number of the last event returned, or the position asked from when none was. */
  last: number;
  /** Whether more events are waiting after `last` now. */
  more: boolean;
}

/**
 * The workspace's events after number `after` (0: from the first kept), of one object type
 * or all, at most `limit`. An `after` whose next events were pruned (older than the
 * retention) is a `cursor_expired` error: the client must sync again from its records.
 */
export async function eventsAfter(
  store: Store,
  workspaceId: string,
  after: number,
  objectType: EventObjectType | undefined,
  limit: number,
): Promise<EventPage> {
  let query = store.reader
    .selectFrom('events')
    .select(['seq', 'payload'])
    .where('workspace_id', '=', workspaceId)
    .where('seq', '>', after);
  if (objectType) query = query.where('object_type', '=', objectType);
  const rows = await query
    .orderBy('seq')
    .limit(limit + 1)
    .execute();
  if (after > 0) await checkKept(store, workspaceId, after);
  const page = rows.slice(0, limit);
  return {
    events: page.map((r) => `{"seq":${Number(r.seq)},${r.payload.slice(1)}`),
    last: page.length > 0 ? Number(page[page.length - 1]!.seq) : after,
    more: rows.length > limit,
  };
}

/** Fails when events right after `after` were already pruned. */
async function checkKept(store: Store, workspaceId: string, after: number): Promise<void> {
  const first = await firstKeptEvent(store, workspaceId);
  let firstKept: number;
  if (first) firstKept = Number(first.seq);
  else {
    const ws = await store.reader
      .selectFrom('workspaces')
      .select('event_seq')
      .where('id', '=', workspaceId)
      .executeTakeFirst();
    firstKept = Number(ws?.event_seq ?? 0) + 1;
  }
  if (after + 1 < firstKept) {
    throw new DomainError(
      'cursor_expired',
      `커서 이후의 이벤트가 보관 기간이 지나 삭제되었습니다. 레코드를 다시 동기화한 뒤 커서 없이 시작해 주세요.`,
    );
  }
}

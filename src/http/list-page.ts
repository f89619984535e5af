import { DomainError } from '../domain/errors.ts';
import type { Page } from '../store/keyset.ts';
import { decodeCursor, encodeCursor, type Position } from './cursor.ts';

/**
 * `data.nextCursor` alone, or `nextCurosr` then `nextCursor` for deals and leads
 * (docs/decisions.md, Cursors).
 */
export const NEXT_CURSOR = ['nextCursor'] as const;
export const NEXT_CUROSR_AND_CURSOR = ['nextCurosr', 'nextCursor'] as const;

/** How one list endpoint reads its pages. */
export interface ListPage {
  /** The list's key under `data`, e.g. `peopleList`. */
  listKey: string;
  cursorKeys: readonly string[];
  /** Endpoint and filters the cursor is bound to. */
  scope: string;
  /** Reads up to `limit` records after `after`. */
  fetch(after: Position | undefined, limit: number): Promise<Page>;
}

function toBuffer(body: unknown): Buffer {
  if (Buffer.isBuffer(body)) return body;
  return Buffer.from(body as string);
}

/** One list page as response bytes, and where the next page starts when one follows. */
export interface RenderedPage {
  bytes: Buffer;
  /** The next page's cursor and position, when more records follow. */
  next: { cursor: string; after: Position } | undefined;
}

/** The position `cursor` names on this list, or a 400 when it is not one of its cursors. */
export function positionOf(page: ListPage, secret: string, cursor: string): Position {
  const after = decodeCursor(secret, page.scope, cursor);
  if (!after) {
    throw new DomainError(
      'invalid_cursor',
      `'cursor' 값이 올바르지 않습니다. 이전 페이지가 돌려준 커서를 그대로 보내 주세요.`,
    );
  }
  return after;
}

/**
 * One list page as response bytes: the rows' stored JSON spliced into the envelope,
 * with no parse or stringify of the records.
 */
export async function renderListPage(
  page: ListPage,
  secret: string,
  after: Position | undefined,
  limit: number,
): Promise<RenderedPage> {
  const result = await page.fetch(after, limit);
  let next: RenderedPage['next'];
  if (result.more && result.last)
    next = { cursor: encodeCursor(secret, page.scope, result.last), after: result.last };
  const head = Buffer.from(`{"success":true,"data":{"${page.listKey}":[`);
  const cursorJson = next ? JSON.stringify(next.cursor) : 'null';
  const tail = Buffer.from(`]${page.cursorKeys.map((k) => `,"${k}":${cursorJson}`).join('')}}}`);
  const parts = result.bodies === null ? [head, tail] : [head, toBuffer(result.bodies), tail];
  return { bytes: Buffer.concat(parts), next };
}

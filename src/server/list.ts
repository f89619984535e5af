import type { Page } from '../store/keyset.ts';
import { decodeCursor, encodeCursor, type Position } from './cursor.ts';
import { ApiError } from './errors.ts';

/** `data.nextCursor` alone, or `nextCurosr` then `nextCursor` for deals and leads (DECISIONS 2). */
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

/**
 * One list page as response bytes: the rows' stored JSON spliced into the envelope,
 * with no parse or stringify of the records.
 */
export async function renderListPage(
  page: ListPage,
  secret: string,
  cursor: string | undefined,
  limit: number,
): Promise<Buffer> {
  let after: Position | undefined;
  if (cursor !== undefined) {
    after = decodeCursor(secret, page.scope, cursor);
    if (!after) {
      throw new ApiError(
        'invalid_cursor',
        `'cursor' 값이 올바르지 않습니다. 이전 페이지가 돌려준 커서를 그대로 보내 주세요.`,
      );
    }
  }
  const result = await page.fetch(after, limit);
  let next = 'null';
  if (result.more && result.last)
    next = JSON.stringify(encodeCursor(secret, page.scope, result.last));
  const head = Buffer.from(`{"success":true,"data":{"${page.listKey}":[`);
  const tail = Buffer.from(`]${page.cursorKeys.map((k) => `,"${k}":${next}`).join('')}}}`);
  const parts = result.bodies === null ? [head, tail] : [head, toBuffer(result.bodies), tail];
  return Buffer.concat(parts);
}

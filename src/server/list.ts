import type { Body } from '../store/schema.ts';
import { type Position, decodeCursor, encodeCursor } from './cursor.ts';
import { ApiError } from './errors.ts';

/** `data.nextCursor` alone, or `nextCurosr` then `nextCursor` for deals and leads (DECISIONS 2). */
export const NEXT_CURSOR = ['nextCursor'] as const;
export const NEXT_CUROSR_AND_CURSOR = ['nextCurosr', 'nextCursor'] as const;

/** A page of rows: `[body, sortKey, id]` each, up to `limit + 1` of them. */
export type PageRows = unknown[][];

/** How one list endpoint reads its pages. */
export interface ListPage {
  /** The list's key under `data`, e.g. `peopleList`. */
  listKey: string;
  cursorKeys: readonly string[];
  /** Endpoint and filters the cursor is bound to. */
  scope: string;
  /** Reads up to `limit + 1` rows after `after`. */
  fetch(after: Position | undefined, limit: number): PageRows | Promise<PageRows>;
}

function toBuffer(body: unknown): Buffer {
  if (Buffer.isBuffer(body)) return body;
  return Buffer.from(body as string);
}

const COMMA = Buffer.from(',');

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
      throw new ApiError('invalid_cursor', `'cursor' 값이 올바르지 않습니다. 이전 페이지가 돌려준 커서를 그대로 보내 주세요.`);
    }
  }
  const rows = await page.fetch(after, limit);
  const more = rows.length > limit;
  const count = more ? limit : rows.length;
  const parts: Buffer[] = [Buffer.from(`{"success":true,"data":{"${page.listKey}":[`)];
  for (let i = 0; i < count; i++) {
    if (i > 0) parts.push(COMMA);
    parts.push(toBuffer(rows[i]![0] as Body));
  }
  let next = 'null';
  if (more) {
    const last = rows[count - 1]!;
    next = JSON.stringify(encodeCursor(secret, page.scope, { sortKey: String(last[1]), id: String(last[2]) }));
  }
  parts.push(Buffer.from(`]${page.cursorKeys.map((k) => `,"${k}":${next}`).join('')}}}`));
  return Buffer.concat(parts);
}

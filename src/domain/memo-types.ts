/** One type of note (`GET /v2/memo/type-list`); `color` is a color name, as the live API's. */
export interface MemoType {
  _id: string;
  value: string;
  color: string;
}

/**
 * The note types of every workspace (docs/decisions.md, Other resources): a fixed default set, with
 * stable ids, since notes are written without a type and no write defines types.
 */
export const DEFAULT_MEMO_TYPES: readonly MemoType[] = [
  { _id: 'memo-type-general', value: '일반', color: 'blue' },
  { _id: 'memo-type-call', value: '통화', color: 'orange' },
  { _id: 'memo-type-meeting', value: '미팅', color: 'lime' },
  { _id: 'memo-type-email', value: '이메일', color: 'pink' },
];

/** The ids of the note types, the values `typeId` may take. */
export const MEMO_TYPE_IDS: readonly string[] = DEFAULT_MEMO_TYPES.map((t) => t._id);

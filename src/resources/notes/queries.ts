import { SUBJECT_ID_KEYS } from '../../domain/subjects.ts';
import type { NoteRow } from '../../render/notes.ts';
import type { Store } from '../../store/database.ts';
import type { ListFilter } from '../../store/keyset.ts';
import { keysetRows, type RowPageReader } from '../../store/keyset-rows.ts';
import { prepareQuery } from '../../store/prepared.ts';

/** The filters of `GET /v2/memo`, in the order they bind a cursor. */
export const MEMO_FILTERS = [
  'ownerId',
  'dealId',
  'leadId',
  'peopleId',
  'organizationId',
  'startDate',
  'endDate',
  'typeId',
  'customObjectId',
] as const;
export type MemoFilter = (typeof MEMO_FILTERS)[number];

/** The columns a note is rendered from. */
export const NOTE_COLUMNS = [
  'id',
  'subject_type',
  'subject_id',
  'text',
  'type_id',
  'html_body',
  'parent_id',
  'todo_id',
  'author_id',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof NoteRow)[];

/**
 * Keyset pages of a workspace's notes under the given filters (values: `ownerId` and the
 * subject ids as given, `startDate`/`endDate` as timestamp bounds, start inclusive, end
 * exclusive, `typeId` a note type's id, `customObjectId` a custom object's). Each set of
 * filters compiles once; each keeps a page
 * one index range scan (the list, subject, author or type index of notes).
 */
export function memoPages(store: Store) {
  const readers = new Map<string, RowPageReader<NoteRow, MemoFilter>>();
  return (present: readonly MemoFilter[]): RowPageReader<NoteRow, MemoFilter> => {
    const key = present.join(',');
    let reader = readers.get(key);
    if (!reader) {
      reader = keysetRows<NoteRow, MemoFilter>(store, 'notes', NOTE_COLUMNS, memoFilter(present));
      readers.set(key, reader);
    }
    return reader;
  };
}

function memoFilter(present: readonly MemoFilter[]): ListFilter<MemoFilter> {
  return (qb, param) => {
    let q = qb;
    if (present.includes('ownerId')) q = q.where('author_id', '=', param('ownerId'));
    for (const [type, key] of Object.entries(SUBJECT_ID_KEYS)) {
      if (present.includes(key))
        q = q.where('subject_type', '=', type).where('subject_id', '=', param(key));
    }
    if (present.includes('startDate')) q = q.where('created_at', '>=', param('startDate'));
    if (present.includes('endDate')) q = q.where('created_at', '<', param('endDate'));
    if (present.includes('typeId')) q = q.where('type_id', '=', param('typeId'));
    // A custom object has no id key of its own on a note (the live note's keys): the filter
    // alone names it.
    if (present.includes('customObjectId'))
      q = q
        .where('subject_type', '=', 'customObject')
        .where('subject_id', '=', param('customObjectId'));
    return q;
  };
}

/** One note of a workspace by id, or undefined. */
export function memoById(store: Store) {
  const query = prepareQuery<'ws' | 'id'>((p) =>
    store.reader
      .selectFrom('notes')
      .select(NOTE_COLUMNS)
      .where('workspace_id', '=', p('ws'))
      .where('id', '=', p('id')),
  );
  return async (workspaceId: string, id: string): Promise<NoteRow | undefined> => {
    const [values] = await store.rows(query({ ws: workspaceId, id }));
    if (!values) return undefined;
    return Object.fromEntries(NOTE_COLUMNS.map((c, i) => [c, values[i]])) as NoteRow;
  };
}

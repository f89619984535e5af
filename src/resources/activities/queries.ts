import { sql } from 'kysely';
import type { ActivitySubject } from '../../render/activities.ts';
import type { Store } from '../../store/database.ts';
import { keysetList, type PageReader } from '../../store/keyset.ts';
import type { ActivityFilter } from './filters.ts';

/** Which activities a list shows, and which rendering of them. */
export interface ActivityListSource {
  subjectTypes: readonly (ActivitySubject | 'customObject')[];
  bodyColumn: 'body' | 'lead_body';
}

/**
 * Keyset pages of an activity list under its filters, oldest first by `date` then `id`;
 * `continuing` when reading after a cursor. Each combination of filters present compiles
 * once; `filterValues` gives its parameters. The activity indexes hold `subject_type` and
 * `type` after the sort key, so every page is one range scan whose filters are checked in
 * the index.
 */
export function activityPages(store: Store, source: ActivityListSource) {
  const readers = new Map<string, PageReader<string>>();
  const { subjectTypes, bodyColumn } = source;
  return (filter: ActivityFilter, continuing: boolean): PageReader<string> => {
    const hasId = filter.subjectId !== undefined;
    const typeCount = filter.types?.length ?? 0;
    // After a cursor the start bound is implied (the cursor is signed over the filters, so
    // its position is at or after it), and left out: the database then seeks to the cursor,
    // where two lower bounds on `date` would make SQLite seek to the start and scan on.
    const hasStart = filter.start !== undefined && !continuing;
    const hasEnd = filter.end !== undefined;
    const key = `${hasId}:${typeCount}:${hasStart}:${hasEnd}`;
    let reader = readers.get(key);
    if (!reader) {
      reader = keysetList<string>(
        store,
        'activities',
        'date',
        (qb, param) => {
          let q =
            subjectTypes.length === 1
              ? qb.where('subject_type', '=', subjectTypes[0])
              : qb.where('subject_type', 'in', subjectTypes);
          if (hasId) q = q.where('subject_id', '=', param('subjectId'));
          if (typeCount > 0) {
            const names = Array.from({ length: typeCount }, (_, i) => param(`type${i}`));
            q = q.where('type', 'in', names);
          }
          if (hasStart) q = q.where('date', '>=', param('start'));
          if (hasEnd) {
            // With a record id, a date range on both sides would lead SQLite (which has no
            // statistics) to scan the whole range in the date index rather than the record's
            // entries: the end bound is then checked on the entries, not used to seek.
            const date = hasId ? sql<string>`(${sql.ref('date')} || '')` : sql.ref('date');
            q = q.where(date, '<', param('end'));
          }
          return q;
        },
        bodyColumn,
      );
      readers.set(key, reader);
    }
    return reader;
  };
}

/** The parameter values of a filter, named as `activityPages` names them. */
export function filterValues(filter: ActivityFilter): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  if (filter.subjectId !== undefined) values.subjectId = filter.subjectId;
  filter.types?.forEach((t, i) => {
    values[`type${i}`] = t;
  });
  if (filter.start !== undefined) values.start = filter.start;
  if (filter.end !== undefined) values.end = filter.end;
  return values;
}

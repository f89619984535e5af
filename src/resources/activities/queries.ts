import type { Store } from '../../store/database.ts';
import { keysetList, type PageReader } from '../../store/keyset.ts';
import type { ActivityFilter } from './filters.ts';
import type { ActivitySubject } from './render.ts';

/** Which activities a list shows, and which rendering of them. */
export interface ActivityListSource {
  subjectTypes: readonly ActivitySubject[];
  bodyColumn: 'body' | 'lead_body';
}

/**
 * Keyset pages of an activity list under its filters, oldest first by `date` then `id`.
 * Each combination of filters present compiles once; `filterValues` gives its parameters.
 * The activity indexes hold `subject_type` and `type` after the sort key, so every page is
 * one range scan whose filters are checked in the index.
 */
export function activityPages(store: Store, source: ActivityListSource) {
  const readers = new Map<string, PageReader<string>>();
  const { subjectTypes, bodyColumn } = source;
  return (filter: ActivityFilter): PageReader<string> => {
    const hasId = filter.subjectId !== undefined;
    const typeCount = filter.types?.length ?? 0;
    const hasStart = filter.start !== undefined;
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
          if (hasEnd) q = q.where('date', '<', param('end'));
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

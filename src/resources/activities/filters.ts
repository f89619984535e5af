import { ACTIVITY_TYPES, type ActivityType } from '../../domain/activities.ts';
import { DomainError } from '../../domain/errors.ts';
import { parseDateBound } from '../../domain/time.ts';
import { checkedId } from '../../http/record-route.ts';

/** The filters of an activity list, read and checked. */
export interface ActivityFilter {
  /** Only the activities of this record (`peopleId`, `dealId`, ...). */
  subjectId: string | undefined;
  /** Only these types, each once, in `ACTIVITY_TYPES` order; undefined for every type. */
  types: ActivityType[] | undefined;
  /** Inclusive lower bound of `date`, as a wire timestamp. */
  start: string | undefined;
  /** Exclusive upper bound of `date`, as a wire timestamp. */
  end: string | undefined;
}

/** The query parameters of every activity list but its id parameter. */
export const ACTIVITY_FILTER_PARAMS = ['types', 'startDate', 'endDate'] as const;

/**
 * Reads an activity list's filters from its query values: the record id under `idParam`,
 * `types` (a comma list of activity types: docs/decisions.md, Activities and history), `startDate`
 * and `endDate` (see `parseDateBound`). Each malformed value is a 400 naming its parameter, and so
 * is a `startDate` after the `endDate`.
 */
export function readActivityFilter(
  values: Record<string, string | undefined>,
  idParam: string,
): ActivityFilter {
  const raw = values[idParam];
  const id = raw === undefined ? undefined : checkedId(idParam, raw);
  const start = dateBound(values.startDate, 'startDate', 'start');
  const end = dateBound(values.endDate, 'endDate', 'end');
  if (start !== undefined && end !== undefined && start >= end) {
    throw new DomainError(
      'invalid_parameter',
      `'startDate'가 'endDate'보다 늦습니다: '${values.startDate}' > '${values.endDate}'`,
    );
  }
  return { subjectId: id, types: activityTypes(values.types), start, end };
}

/** The cursor scope of a list under a filter: the path alone when nothing is filtered. */
export function activityScope(path: string, filter: ActivityFilter): string {
  const { subjectId, types, start, end } = filter;
  if (subjectId === undefined && !types && start === undefined && end === undefined) return path;
  return [path, subjectId ?? '', types?.join(',') ?? '', start ?? '', end ?? ''].join('\u0000');
}

function activityTypes(raw: string | undefined): ActivityType[] | undefined {
  if (raw === undefined) return undefined;
  const given = raw.split(',').map((t) => t.trim());
  const unknown = given.filter((t) => !(ACTIVITY_TYPES as readonly string[]).includes(t));
  if (unknown.length > 0) {
    const names = unknown.map((t) => `'${t.slice(0, 50)}'`).join(', ');
    throw new DomainError(
      'invalid_parameter',
      `'types' 파라미터에 알 수 없는 활동 유형이 있습니다: ${names} (가능한 값: ${ACTIVITY_TYPES.join(', ')})`,
    );
  }
  return ACTIVITY_TYPES.filter((t) => given.includes(t));
}

function dateBound(
  raw: string | undefined,
  name: string,
  edge: 'start' | 'end',
): string | undefined {
  if (raw === undefined) return undefined;
  const bound = parseDateBound(raw, edge);
  if (bound === undefined) {
    throw new DomainError(
      'invalid_parameter',
      `'${name}' 파라미터는 YYYY-MM-DD(한국 시간의 하루) 또는 오프셋이 있는 ISO 8601 시각(예: 2024-04-08T09:00:00+09:00)이어야 합니다: '${raw.slice(0, 100)}'`,
    );
  }
  return bound;
}

/**
 * An import's line as its table's row: the values in column order with the unique key, the
 * columns, an activity's row, and the strings as the store gives them back.
 */
import type { ActivityType } from '../domain/activities.ts';
import { uniqueKey } from '../domain/field-values.ts';
import { activityRow } from '../resources/deal-activities/writes.ts';
import type { Store } from '../store/database.ts';
import type { RowContext } from '../store/write.ts';
import type { LineType } from './transfer-columns.ts';
import type { LineFormat } from './transfer-format.ts';

/**
 * The unique key the rows of a line type carry (its column, and the value it is made of):
 * the API's writes look duplicates up by it, so imported records are found as any other.
 */
const UNIQUE_KEY: Partial<Record<LineType, { column: 'email_key' | 'name_key'; of: string }>> = {
  person: { column: 'email_key', of: 'email' },
  organization: { column: 'name_key', of: 'name' },
};

/**
 * The row of a line as the table stores it: workspace, the columns in format order, then
 * its unique key if its type has one (`UNIQUE_KEY`); `sourceDefault`: the `source` of a
 * line without one.
 */
export function rowValues(
  f: LineFormat,
  r: Record<string, unknown>,
  workspaceId: string,
  sourceDefault: string,
): unknown[] {
  const columns = f.columns;
  const key = UNIQUE_KEY[f.type];
  const values: unknown[] = new Array(columns.length + (key ? 2 : 1));
  values[0] = workspaceId;
  for (let i = 0; i < columns.length; i++) {
    const c = columns[i]!;
    const v = r[c.key] === undefined && c.absent ? c.absent.value : r[c.key];
    values[i + 1] =
      v === null
        ? null
        : c.type.kind === 'bool'
          ? v
            ? 1
            : 0
          : c.type.kind === 'json'
            ? JSON.stringify(v)
            : c.type.kind === 'bytes'
              ? Buffer.from(v as string, 'base64')
              : v === undefined && c.name === 'source'
                ? sourceDefault
                : v;
  }
  if (key) {
    const of = r[key.of];
    values[columns.length + 1] = typeof of === 'string' ? uniqueKey(of) : null;
  }
  return values;
}

/** The columns of a line type's rows, in `rowValues` order, then `body` if it has one. */
export function rowColumns(f: LineFormat, body: boolean): string[] {
  const key = UNIQUE_KEY[f.type];
  return [
    'workspace_id',
    ...f.columns.map((c) => c.name),
    ...(key ? [key.column] : []),
    ...(body ? ['body'] : []),
  ];
}

/** The row of an activity line, built as the API's writes build it. */
export function activityRowOf(rows: RowContext, r: Record<string, unknown>) {
  return activityRow(
    rows,
    {
      id: r.id as string,
      subjectType: r.subject_type as 'deal',
      subjectId: r.subject_id as string,
      type: r.kind as ActivityType,
      date: r.date as string,
      dealStatus: r.deal_status as string | null,
      webFormId: r.web_form_id as string | null,
      smsId: r.sms_id as string | null,
      todoId: r.todo_id as string | null,
      memoId: r.memo_id as string | null,
      emailMessageId: r.email_message_id as string | null,
      recordingId: (r.recording_id ?? null) as string | null,
    },
    undefined,
  );
}

/** A `\u` escape of a UTF-16 surrogate, which JSON may leave unpaired. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
/** A UTF-16 surrogate without its other half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Puts in the text columns of `r` what the store gives back for an unpaired UTF-16 surrogate
 * (SQLite: three U+FFFD, from the bytes it was written as; PostgreSQL: one), so that records
 * rendered from the line show what a rendering from the database shows. JSON columns keep
 * theirs: they are stored as JSON text, which escapes it. True if any changed.
 */
function readBackStrings(r: Record<string, unknown>, dialect: Store['dialect']): boolean {
  let changed = false;
  for (const key in r) {
    const v = r[key];
    if (typeof v === 'string' && LONE_SURROGATE.test(v)) {
      r[key] = v.replace(
        new RegExp(LONE_SURROGATE.source, 'g'),
        dialect === 'sqlite' ? '\uFFFD\uFFFD\uFFFD' : '\uFFFD',
      );
      changed = true;
    }
  }
  return changed;
}

/**
 * The line `text` of `r` with its strings as the store gives them back (`readBackStrings`):
 * `r` changed and written again as JSON when it holds an unpaired surrogate, else `text`.
 */
export function withStoredStrings(
  text: string,
  r: Record<string, unknown>,
  dialect: Store['dialect'],
): string {
  let line = text;
  if (line.indexOf('\\u') >= 0 && SURROGATE_ESCAPE.test(line)) {
    if (readBackStrings(r, dialect)) line = JSON.stringify(r);
  }
  return line;
}

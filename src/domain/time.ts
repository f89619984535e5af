/**
 * Milliseconds in a day, for the derived fields' whole-day counts (docs/decisions.md, Derived
 * fields).
 */
export const DAY_MS = 86_400_000;

/** The wire form of a time: ISO 8601 UTC with milliseconds (`2024-04-08T05:25:26.020Z`). */
export function toTimestamp(date: Date | number): string {
  return (typeof date === 'number' ? new Date(date) : date).toISOString();
}

/** Current time on the wire. */
export function now(): string {
  return new Date().toISOString();
}

/** Whole days from `from` to `to` (floor of ms / 86,400,000), never negative. */
export function wholeDays(from: string, to: string): number {
  const ms = Date.parse(to) - Date.parse(from);
  return ms > 0 ? Math.floor(ms / DAY_MS) : 0;
}

/**
 * `start` plus `count` months (or years), clamped to the last day of the target month:
 * Jan 31 + 1 month = Feb 28 (29 in leap years). Time of day is kept.
 */
export function addCalendarMonths(start: string, months: number): string {
  const d = new Date(start);
  const year = d.getUTCFullYear();
  const month = d.getUTCMonth() + months;
  const targetYear = year + Math.floor(month / 12);
  const targetMonth = ((month % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(targetYear, targetMonth + 1, 0)).getUTCDate();
  const day = Math.min(d.getUTCDate(), lastDay);
  const out = new Date(
    Date.UTC(
      targetYear,
      targetMonth,
      day,
      d.getUTCHours(),
      d.getUTCMinutes(),
      d.getUTCSeconds(),
      d.getUTCMilliseconds(),
    ),
  );
  return out.toISOString();
}

const TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** True when `value` is a timestamp in the exact wire form. */
export function isTimestamp(value: unknown): value is string {
  return (
    typeof value === 'string' && TIMESTAMP_PATTERN.test(value) && !Number.isNaN(Date.parse(value))
  );
}

/** Korea's offset from UTC (no daylight saving): a whole-day date filter is a day there. */
const KOREA_OFFSET_MS = 9 * 60 * 60 * 1000;

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
// An offset sign `+` sent unencoded in a query string arrives as a space: read it as `+`.
const INSTANT_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+\- ])(\d{2}):?(\d{2}))$/;

// Bounds stay inside the years whose wire form sorts as text (`0999-…` < `1000-…` < `9999-…`).
const EARLIEST_BOUND = Date.UTC(1000, 0, 1);
const LATEST_BOUND = Date.UTC(9999, 0, 1);

/**
 * The time a `startDate` or `endDate` filter value stands for, as a wire timestamp, or
 * undefined when the value is malformed. A date `YYYY-MM-DD` is a whole day in Korea time
 * (UTC+9): as a start, the day's first instant; as an end, the next day's first instant.
 * An ISO 8601 time with an offset (`Z` or `±HH:MM`) is that instant; as an end, the
 * millisecond after it. So a start bound is inclusive and an end bound exclusive:
 * `startDate=2024-04-08` is `2024-04-07T15:00:00.000Z`, `endDate=2024-04-08` is
 * `2024-04-08T15:00:00.000Z`.
 */
export function parseDateBound(value: string, edge: 'start' | 'end'): string | undefined {
  let ms: number | undefined;
  const day = DAY_PATTERN.exec(value);
  if (day) {
    const start = calendarUtc(day, 0, 0, 0, 0);
    if (start === undefined) return undefined;
    ms = start - KOREA_OFFSET_MS + (edge === 'end' ? DAY_MS : 0);
  } else {
    const t = INSTANT_PATTERN.exec(value);
    if (!t) return undefined;
    const [hour, minute, second] = [Number(t[4]), Number(t[5]), Number(t[6] ?? 0)];
    if (hour > 23 || minute > 59 || second > 59) return undefined;
    // Digits past the millisecond are dropped: stored times have none.
    const millis = Number((t[7] ?? '0').slice(0, 3).padEnd(3, '0'));
    const local = calendarUtc(t, hour, minute, second, millis);
    if (local === undefined) return undefined;
    let offset = 0;
    if (!t[8]) {
      const [oh, om] = [Number(t[10]), Number(t[11])];
      if (oh > 14 || om > 59) return undefined;
      offset = (t[9] === '-' ? -1 : 1) * (oh * 60 + om) * 60_000;
    }
    ms = local - offset + (edge === 'end' ? 1 : 0);
  }
  if (ms < EARLIEST_BOUND || ms >= LATEST_BOUND) return undefined;
  return new Date(ms).toISOString();
}

/** UTC milliseconds of a calendar date and time, or undefined when the date does not exist. */
function calendarUtc(
  ymd: RegExpExecArray,
  hour: number,
  minute: number,
  second: number,
  millis: number,
): number | undefined {
  const [year, month, date] = [Number(ymd[1]), Number(ymd[2]), Number(ymd[3])];
  if (month < 1 || month > 12 || date < 1) return undefined;
  const ms = Date.UTC(year, month - 1, date, hour, minute, second, millis);
  // Date.UTC rolls Feb 30 over to March: a date that does not exist changes its month.
  return new Date(ms).getUTCMonth() === month - 1 ? ms : undefined;
}

/** Milliseconds in a day, for the whole-day counts of DECISIONS 5. */
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

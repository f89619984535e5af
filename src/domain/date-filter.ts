/** Korea's offset from UTC: a `YYYY-MM-DD` filter names a whole day in Korea time. */
const KOREA_OFFSET_MS = 9 * 3_600_000;
const DAY_MS = 86_400_000;

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
// A space where the offset's sign should be: an unencoded `+` in a query string reads as one.
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+\- ])(\d{2}):?(\d{2}))$/;

const MIN_MS = Date.UTC(1000, 0, 1);
const MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * A `startDate`/`endDate` filter value as a bound on wire timestamps, or undefined when it is
 * malformed. `YYYY-MM-DD` is a whole day in Korea time (UTC+9); an ISO 8601 time needs an
 * offset (`Z` or `±HH:MM`). The start bound is inclusive; the end bound is exclusive, so
 * `created_at >= start and created_at < end` keeps the day of a date, and the instant of a
 * time too (its end bound is one millisecond later: times have millisecond precision).
 */
export function parseDateBound(raw: string, side: 'start' | 'end'): string | undefined {
  const date = DATE_ONLY.exec(raw);
  if (date) {
    const dayStart = utcMs(Number(date[1]), Number(date[2]), Number(date[3]));
    if (dayStart === undefined) return undefined;
    const ms = dayStart - KOREA_OFFSET_MS + (side === 'end' ? DAY_MS : 0);
    return inRange(ms);
  }
  const time = DATE_TIME.exec(raw);
  if (!time) return undefined;
  const [, y, mo, d, h, mi, s, fraction, zulu, sign, oh, om] = time;
  const day = utcMs(Number(y), Number(mo), Number(d));
  const hours = Number(h);
  const minutes = Number(mi);
  const seconds = s === undefined ? 0 : Number(s);
  if (day === undefined || hours > 23 || minutes > 59 || seconds > 59) return undefined;
  let offsetMs = 0;
  if (!zulu) {
    const offsetHours = Number(oh);
    const offsetMinutes = Number(om);
    if (offsetHours > 23 || offsetMinutes > 59) return undefined;
    offsetMs = (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  }
  // Digits past the millisecond are dropped: stored times have none.
  const millis = fraction === undefined ? 0 : Number(fraction.slice(0, 3).padEnd(3, '0'));
  const ms = day + ((hours * 60 + minutes) * 60 + seconds) * 1000 + millis - offsetMs;
  return inRange(side === 'end' ? ms + 1 : ms);
}

/** Midnight UTC of a calendar date, or undefined when there is no such date. */
function utcMs(year: number, month: number, day: number): number | undefined {
  if (month < 1 || month > 12 || day < 1) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCMonth() !== month - 1) return undefined;
  return date.getTime();
}

function inRange(ms: number): string | undefined {
  return ms >= MIN_MS && ms <= MAX_MS + 1 ? new Date(ms).toISOString() : undefined;
}

/** Longest text a string field takes. */
export const MAX_TEXT_LENGTH = 10_000;
/** Most values a list-valued field takes. */
export const MAX_LIST_LENGTH = 1_000;

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
// A time needs its offset (`Z` or `±hh:mm`): without one it would be read in the server's zone.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * A date value as a client writes it, on the wire form (`2024-04-08T05:25:26.020Z`):
 * `YYYY-MM-DD` is that day at 00:00 UTC, an ISO 8601 time with offset is that instant.
 * Undefined when it is neither, or not a real day (2024-02-30).
 */
export function parseDateValue(raw: string): string | undefined {
  const day = DATE_ONLY.exec(raw);
  if (day) {
    const [y, m, d] = [Number(day[1]), Number(day[2]), Number(day[3])];
    const date = new Date(Date.UTC(y, m - 1, d));
    if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) {
      return undefined;
    }
    return date.toISOString();
  }
  if (!DATE_TIME.test(raw)) return undefined;
  // Date.parse rolls impossible dates over (2024-02-30 → March 1): refuse them instead.
  if (parseDateValue(raw.slice(0, 10)) === undefined) return undefined;
  const [hours, minutes, seconds] = raw.slice(11, 19).split(':').map(Number);
  if (hours! > 23 || minutes! > 59 || (seconds ?? 0) > 59) return undefined;
  const ms = Date.parse(raw);
  if (Number.isNaN(ms)) return undefined;
  return new Date(ms).toISOString();
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** True when `value` looks like an e-mail address (`name@domain.tld`, no spaces). */
export function isEmailAddress(value: string): boolean {
  return value.length <= 320 && EMAIL.test(value);
}

/** A field's value as history text: strings as they are, others as JSON; null when cleared. */
export function valueAsText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * The form in which a value must be unique in its workspace (a person's e-mail, an
 * organization's name): Unicode-normalized, case folded, spacing collapsed, so
 * `ÖZIL@Example.de` and `özil@example.de ` collide.
 */
export function uniqueKey(value: string): string {
  return value.normalize('NFKC').trim().replace(/\s+/gu, ' ').toLowerCase();
}

import { FormatRegistry } from '@sinclair/typebox';

/** The wire form of a Timestamp (docs/decisions.md, Wire format): UTC with milliseconds. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * Teaches TypeBox's checker the string formats the record schemas use (`date-time`, in the
 * API's own strict form), so `Value.Check` can validate real responses against them.
 */
export function registerFormats(): void {
  if (!FormatRegistry.Has('date-time'))
    FormatRegistry.Set(
      'date-time',
      (value) => TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value)),
    );
}

/**
 * `text` parsed, when it is a JSON object; else undefined (not JSON, or another JSON value):
 * for stored JSON that a hand may have damaged, read where a failure must not fail a write.
 */
export function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

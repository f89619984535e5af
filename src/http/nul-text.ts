/**
 * Text with U+0000 in it: SQLite keeps it, PostgreSQL refuses it in every text column, so a
 * body or query that carries it anywhere is refused before it reaches either store, the same
 * on both.
 */

/** The path (`inputList[3].data.포지션`) of the first key or string holding U+0000, if any. */
export function nulTextPath(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = nulTextPath(item, `${path}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    const inner = path === '' ? key : `${path}.${key}`;
    if (key.includes('\u0000')) return inner;
    const found = nulTextPath(item, inner);
    if (found !== undefined) return found;
  }
  return undefined;
}

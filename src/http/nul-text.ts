/**
 * Text with U+0000 in it: SQLite keeps it, PostgreSQL refuses it in every text column, so a
 * body or query that carries it anywhere is refused before it reaches either store, the same
 * on both.
 */

/**
 * The path (`inputList[3].data.포지션`) of the first key or string holding U+0000, if any, in
 * document order. Walked with a stack of its own, not by recursion: a body of 20 KB can nest
 * arrays 10,000 deep, which overflowed the call stack (a 500) where it was recursive.
 */
export function nulTextPath(value: unknown): string | undefined {
  const pending: { value: unknown; path: string }[] = [{ value, path: '' }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value: v, path } = next;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return path;
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    // Children pushed last first, so the first is looked at first.
    const children: { value: unknown; path: string }[] = [];
    if (Array.isArray(v)) {
      for (const [i, item] of v.entries()) children.push({ value: item, path: `${path}[${i}]` });
    } else {
      for (const [key, item] of Object.entries(v)) {
        const inner = path === '' ? key : `${path}.${key}`;
        // A key with U+0000 is found before what it holds, and before the keys after it.
        children.push({ value: key.includes('\u0000') ? '\u0000' : item, path: inner });
      }
    }
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]!);
  }
  return undefined;
}

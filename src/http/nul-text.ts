/**
 * Text no store keeps as it was sent, refused before it reaches either, the same on both:
 * U+0000 (SQLite keeps it, PostgreSQL refuses it in every text column), and a UTF-16
 * surrogate without its pair (`"x\ud800y"` in JSON text, which no UTF-8 encodes: SQLite
 * and PostgreSQL each stored something else, and the answer echoed it as sent).
 */

/** `String.prototype.isWellFormed` (ES2024; this project's lib is ES2023). */
type WellFormed = string & { isWellFormed(): boolean };

/** A code unit of a JS string alone: a high surrogate not followed by a low one, or a low one not after a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The first character of `text` no store keeps, as `U+0000` or `U+D800`; undefined for
 * text both keep alike.
 */
export function unstorableChar(text: string): string | undefined {
  const nul = text.indexOf('\u0000');
  // Every string of every body passes here: the regular expression runs only for text that
  // is not well formed (`isWellFormed`, ES2024, in Node since 20), the rare case.
  if (nul < 0 && (text as WellFormed).isWellFormed()) return undefined;
  const lone = LONE_SURROGATE.exec(text);
  if (nul < 0 && lone === null) return undefined;
  const at = lone === null || (nul >= 0 && nul < lone.index) ? nul : lone.index;
  return `U+${text.charCodeAt(at).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The Korean message refusing `name`'s value for holding `char` (from `unstorableChar`). */
export function unstorableMessage(name: string, char: string): string {
  return char === 'U+0000'
    ? `'${name}' 값에 U+0000 문자를 쓸 수 없습니다.`
    : `'${name}' 값에 짝이 없는 서로게이트 문자(${char})를 쓸 수 없습니다.`;
}

/** Where a value holds text no store keeps, and the character (`U+0000`, `U+D800`). */
export interface UnstorableText {
  /** The path of the key or string: `inputList[3].data.포지션`; `''` for the value itself. */
  path: string;
  char: string;
}

/**
 * The first key or string holding text no store keeps, if any, in document order. Walked
 * with a stack of its own, not by recursion: a body of 20 KB can nest arrays 10,000 deep,
 * which overflowed the call stack (a 500) where it was recursive.
 */
export function unstorableText(value: unknown): UnstorableText | undefined {
  const pending: { value: unknown; path: string }[] = [{ value, path: '' }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value: v, path } = next;
    if (typeof v === 'string') {
      const char = unstorableChar(v);
      if (char !== undefined) return { path, char };
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
        // A key that is refused is found before what it holds, and before the keys after it.
        children.push({ value: unstorableChar(key) === undefined ? item : key, path: inner });
      }
    }
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]!);
  }
  return undefined;
}

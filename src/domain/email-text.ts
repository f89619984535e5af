/** An e-mail's HTML body as plain text: what `text` and `snippet` show, and the text part sent. */
export function htmlToText(html: string): string {
  const lines = withoutElements(html)
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|tr|h[1-6]|blockquote)\s*>/gi, '\n');
  const text = withoutTags(lines).replace(
    /&(#x[0-9a-f]+|#[0-9]+|nbsp|amp|lt|gt|quot|apos|#39);/gi,
    (_m, entity: string) => decodeEntity(entity),
  );
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/*
 * The two below do what `/<(script|style|head)\b[\s\S]*?<\/\1\s*>/gi` and `/<[^>]*>/g` do,
 * in time linear in the body: those regular expressions, on a body of unclosed `<` or
 * `<script` (512 KB are taken), search to its end from each one, and held the process for
 * minutes.
 */

/** `html` without its script, style and head elements (an unclosed one is kept). */
function withoutElements(html: string): string {
  const open = /<(script|style|head)\b/gi;
  const unclosed = new Set<string>();
  let out = '';
  let from = 0;
  for (let m = open.exec(html); m; m = open.exec(html)) {
    const name = m[1]!.toLowerCase();
    // No closing tag after this one: none after a later one either.
    if (unclosed.has(name)) continue;
    const close = new RegExp(`</${name}\\s*>`, 'gi');
    close.lastIndex = open.lastIndex;
    if (!close.exec(html)) {
      unclosed.add(name);
      continue;
    }
    out += html.slice(from, m.index);
    from = close.lastIndex;
    open.lastIndex = from;
  }
  return out + html.slice(from);
}

/** `text` without its tags: each `<` up to the next `>` (a `<` with no `>` after it stays). */
function withoutTags(text: string): string {
  let out = '';
  let from = 0;
  for (;;) {
    const open = text.indexOf('<', from);
    if (open < 0) break;
    const close = text.indexOf('>', open + 1);
    if (close < 0) break;
    out += text.slice(from, open);
    from = close + 1;
  }
  return out + text.slice(from);
}

const NAMED: Record<string, string> = {
  nbsp: '\u00a0',
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
};

function decodeEntity(entity: string): string {
  const lower = entity.toLowerCase();
  if (NAMED[lower] !== undefined) return NAMED[lower];
  const code = lower.startsWith('#x')
    ? Number.parseInt(lower.slice(2), 16)
    : Number(lower.slice(1));
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)
    ? String.fromCodePoint(code)
    : '';
}

/** The start of an e-mail's text, up to 200 characters, on one line. */
export function snippetOf(text: string): string {
  return [...text.replace(/\s+/g, ' ').trim()].slice(0, 200).join('');
}

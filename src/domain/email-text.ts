/** An e-mail's HTML body as plain text: what `text` and `snippet` show, and the text part sent. */
export function htmlToText(html: string): string {
  const text = html
    .replace(/<(script|style|head)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|tr|h[1-6]|blockquote)\s*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#[0-9]+|nbsp|amp|lt|gt|quot|apos|#39);/gi, (_m, entity: string) =>
      decodeEntity(entity),
    );
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
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

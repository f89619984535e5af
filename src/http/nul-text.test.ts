import { describe, expect, it } from 'vitest';
import { unstorableChar, unstorableText } from './nul-text.ts';

const nulTextPath = (value: unknown) => unstorableText(value)?.path;

describe('unstorableText', () => {
  it('names the first key or string holding U+0000, in document order', () => {
    expect(nulTextPath({ a: 'x', b: [1, { c: 'y\u0000' }], d: '\u0000' })).toBe('b[1].c');
    expect(nulTextPath({ 'k\u0000': { z: '\u0000' }, later: '\u0000' })).toBe('k\u0000');
    expect(nulTextPath([['x'], ['a', '\u0000']])).toBe('[1][1]');
    expect(nulTextPath('a\u0000')).toBe('');
    expect(nulTextPath({ a: 1, b: null, c: [true, 'ok'] })).toBeUndefined();
  });

  it('walks a value nested 100,000 arrays deep (a body of 200 KB) without overflowing', () => {
    const n = 100_000;
    const deep = JSON.parse(`${'['.repeat(n)}"\\u0000"${']'.repeat(n)}`);
    expect(nulTextPath(deep)).toBe('[0]'.repeat(n));
    expect(nulTextPath(JSON.parse(`${'['.repeat(n)}${']'.repeat(n)}`))).toBeUndefined();
  });
});

describe('unstorableChar', () => {
  it('names U+0000 or a surrogate without its pair, whichever comes first', () => {
    expect(unstorableChar('plain 텍스트 😀')).toBeUndefined();
    expect(unstorableChar('x\ud800y')).toBe('U+D800');
    expect(unstorableChar('\udc00')).toBe('U+DC00');
    expect(unstorableChar('😀\ude00')).toBe('U+DE00');
    expect(unstorableChar('end\ud83d')).toBe('U+D83D');
    expect(unstorableChar('a\u0000\ud800')).toBe('U+0000');
    expect(unstorableChar('\ud800\u0000')).toBe('U+D800');
  });

  it('finds a lone surrogate in a key before what it holds', () => {
    expect(unstorableText({ a: 'ok', 'k\udbff': '\u0000' })).toEqual({
      path: 'k\udbff',
      char: 'U+DBFF',
    });
  });
});

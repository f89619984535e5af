import { describe, expect, it } from 'vitest';
import { nulTextPath } from './nul-text.ts';

describe('nulTextPath', () => {
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

import { describe, expect, it } from 'vitest';
import { isEmailAddress, parseDateValue, uniqueKey, valueAsText } from './field-values.ts';

describe('parseDateValue', () => {
  it.each([
    ['2024-04-08', '2024-04-08T00:00:00.000Z'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z'],
    ['2024-04-08T05:25:26.020Z', '2024-04-08T05:25:26.020Z'],
    ['2024-04-08T14:25:26+09:00', '2024-04-08T05:25:26.000Z'],
    ['2024-04-08T14:25+0900', '2024-04-08T05:25:00.000Z'],
  ])('reads %s as %s', (raw, wire) => {
    expect(parseDateValue(raw)).toBe(wire);
  });

  it.each([
    '2023-02-29',
    '2024-13-01',
    '2024-04-08T05:25:26',
    '2024-4-8',
    'tomorrow',
    '',
    '2024-04-08T25:00:00Z',
    '2024-02-30T10:00Z',
    '2024-04-31T09:00:00+09:00',
    '2024-04-08T10:60:00Z',
  ])('refuses %j', (raw) => {
    expect(parseDateValue(raw)).toBeUndefined();
  });
});

describe('isEmailAddress', () => {
  it('takes addresses and refuses the rest', () => {
    expect(isEmailAddress('kim@example.co.kr')).toBe(true);
    expect(isEmailAddress('kim@example')).toBe(false);
    expect(isEmailAddress('kim example@x.com')).toBe(false);
    expect(isEmailAddress('@x.com')).toBe(false);
  });
});

describe('uniqueKey', () => {
  it('folds case (Unicode too), width and spacing', () => {
    expect(uniqueKey('ÖZIL@Example.DE ')).toBe(uniqueKey('özil@example.de'));
    expect(uniqueKey('  Acme   Corp')).toBe('acme corp');
    expect(uniqueKey('ＡＣＭＥ')).toBe('acme');
    expect(uniqueKey('가나 상사')).not.toBe(uniqueKey('가나상사'));
  });
});

describe('valueAsText', () => {
  it('keeps strings, writes others as JSON, null when cleared', () => {
    expect(valueAsText('a')).toBe('a');
    expect(valueAsText(12.5)).toBe('12.5');
    expect(valueAsText(true)).toBe('true');
    expect(valueAsText(['x', 'y'])).toBe('["x","y"]');
    expect(valueAsText(null)).toBeNull();
    expect(valueAsText(undefined)).toBeNull();
  });
});

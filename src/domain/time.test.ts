import { describe, expect, it } from 'vitest';
import { parseDateBound } from './time.ts';

describe('parseDateBound', () => {
  it('reads a date as a whole day in Korea time: start inclusive, end exclusive', () => {
    expect(parseDateBound('2024-04-08', 'start')).toBe('2024-04-07T15:00:00.000Z');
    expect(parseDateBound('2024-04-08', 'end')).toBe('2024-04-08T15:00:00.000Z');
    expect(parseDateBound('2024-12-31', 'end')).toBe('2024-12-31T15:00:00.000Z');
    expect(parseDateBound('2024-01-01', 'start')).toBe('2023-12-31T15:00:00.000Z');
    expect(parseDateBound('2024-02-29', 'start')).toBe('2024-02-28T15:00:00.000Z');
  });

  it('reads an ISO 8601 time with an offset as that instant; the end bound keeps it', () => {
    expect(parseDateBound('2024-04-08T10:00:00+09:00', 'start')).toBe('2024-04-08T01:00:00.000Z');
    expect(parseDateBound('2024-04-08T10:00:00+09:00', 'end')).toBe('2024-04-08T01:00:00.001Z');
    expect(parseDateBound('2024-04-08T05:25:26.020Z', 'start')).toBe('2024-04-08T05:25:26.020Z');
    expect(parseDateBound('2024-04-08T05:25:26.020Z', 'end')).toBe('2024-04-08T05:25:26.021Z');
    expect(parseDateBound('2024-04-08T05:25Z', 'start')).toBe('2024-04-08T05:25:00.000Z');
    expect(parseDateBound('2024-04-08T05:25:26.5-05:30', 'start')).toBe('2024-04-08T10:55:26.500Z');
    expect(parseDateBound('2024-04-08T05:25:26.123456789Z', 'start')).toBe(
      '2024-04-08T05:25:26.123Z',
    );
    expect(parseDateBound('2024-04-08T00:00:00+0900', 'start')).toBe('2024-04-07T15:00:00.000Z');
    expect(parseDateBound('2024-04-08T09:00+09:00', 'start')).toBe('2024-04-08T00:00:00.000Z');
    expect(parseDateBound('2024-04-07T20:00:00-04:00', 'start')).toBe('2024-04-08T00:00:00.000Z');
    expect(parseDateBound('2024-04-08T00:00:00.05Z', 'start')).toBe('2024-04-08T00:00:00.050Z');
    expect(parseDateBound('2024-12-31T23:59:59.999Z', 'end')).toBe('2025-01-01T00:00:00.000Z');
  });

  it('takes a space for the `+` of an offset, as an unencoded `+` arrives in a query', () => {
    expect(parseDateBound('2024-04-08T10:00:00 09:00', 'start')).toBe('2024-04-08T01:00:00.000Z');
  });

  it.each([
    '',
    '2024',
    '2024-04',
    '2024-4-8',
    '20240408',
    '2024-13-01',
    '2024-00-10',
    '2023-02-29',
    '2024-04-31',
    '2024-04-00',
    '2024-04-08T10:00:00',
    '2024-04-08 10:00:00Z',
    '2024-04-08T24:00:00Z',
    '2024-04-08T10:60:00Z',
    '2024-04-08T10:00:60Z',
    '2024-04-08T10:00:00+24:00',
    '2024-04-08T10:00:00+09:60',
    '2024-04-08T10:00:00.Z',
    '2024-04-08T10Z',
    ' 2024-04-08',
    '2024-04-08 ',
    '0999-12-31',
    'yesterday',
    '1712553926020',
    '2024/04/08',
    '2024-02-30',
    '2024-04-08T05:25:26.020',
    '2024-04-08T12:00:00+15:00',
    '2024-04-08t12:00:00z',
    '9999-06-01',
    '1712553926',
    'today',
  ])('refuses %j', (raw) => {
    expect(parseDateBound(raw, 'start')).toBeUndefined();
    expect(parseDateBound(raw, 'end')).toBeUndefined();
  });
});

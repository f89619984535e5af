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

  it('reads an ISO 8601 time with an offset as that instant; an end takes the next millisecond', () => {
    expect(parseDateBound('2024-04-08T05:25:26.020Z', 'start')).toBe('2024-04-08T05:25:26.020Z');
    expect(parseDateBound('2024-04-08T05:25:26.020Z', 'end')).toBe('2024-04-08T05:25:26.021Z');
    expect(parseDateBound('2024-04-08T09:00:00+09:00', 'start')).toBe('2024-04-08T00:00:00.000Z');
    expect(parseDateBound('2024-04-08T09:00+09:00', 'start')).toBe('2024-04-08T00:00:00.000Z');
    expect(parseDateBound('2024-04-07T20:00:00-04:00', 'start')).toBe('2024-04-08T00:00:00.000Z');
    expect(parseDateBound('2024-04-08T00:00:00.5Z', 'start')).toBe('2024-04-08T00:00:00.500Z');
    expect(parseDateBound('2024-04-08T00:00:00.05Z', 'start')).toBe('2024-04-08T00:00:00.050Z');
    expect(parseDateBound('2024-12-31T23:59:59.999Z', 'end')).toBe('2025-01-01T00:00:00.000Z');
  });

  it('reads an offset whose `+` arrived as a space (sent unencoded in a URL)', () => {
    expect(parseDateBound('2024-04-08T09:00:00 09:00', 'start')).toBe('2024-04-08T00:00:00.000Z');
  });

  it('refuses anything else', () => {
    for (const bad of [
      '',
      '2024-4-8',
      '20240408',
      '2024/04/08',
      '2024-02-30',
      '2023-02-29',
      '2024-13-01',
      '2024-00-10',
      '2024-04-00',
      '2024-04-08T05:25:26',
      '2024-04-08T05:25:26.020',
      '2024-04-08T24:00:00Z',
      '2024-04-08T12:60:00Z',
      '2024-04-08T12:00:60Z',
      '2024-04-08T12:00:00+15:00',
      '2024-04-08T12:00:00+09:60',
      '2024-04-08 12:00:00Z',
      '2024-04-08t12:00:00z',
      ' 2024-04-08',
      '2024-04-08 ',
      'today',
      '0999-12-31',
      '9999-06-01',
      '1712553926',
    ]) {
      expect(parseDateBound(bad, 'start'), bad).toBeUndefined();
      expect(parseDateBound(bad, 'end'), bad).toBeUndefined();
    }
  });
});

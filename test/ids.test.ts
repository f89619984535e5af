import { describe, expect, it } from 'vitest';
import { isValidId, newId } from '../src/domain/ids.ts';

/** The milliseconds an id carries in its first 48 bits. */
const timeOf = (id: string) => Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16);

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newId', () => {
  it('makes UUIDv7s that sort in the order they were made, none twice', () => {
    const ids = Array.from({ length: 20_000 }, () => newId());
    for (const id of ids) expect(id).toMatch(UUID_V7);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every(isValidId)).toBe(true);
  });

  it('carries the time it was made in its first 48 bits', () => {
    const at = Date.now() + 3_600_000; // ahead of every id made so far
    const id = newId(at);
    expect(timeOf(id)).toBe(at);
    // The next millisecond's id takes its time too, and still sorts after.
    const next = newId(at + 1);
    expect(timeOf(next)).toBe(at + 1);
    expect(next > id).toBe(true);
    // A time with a fraction (performance.timeOrigin + now()) takes its whole milliseconds.
    expect(newId(at + 2.75)).toMatch(UUID_V7);
    expect(timeOf(newId(at + 3.5))).toBe(at + 3);
  });

  it('spends random bits where the time and counter leave them', () => {
    const tails = new Set(Array.from({ length: 1_000 }, () => newId().slice(19)));
    expect(tails.size).toBe(1_000);
  });
});

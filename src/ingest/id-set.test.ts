import { describe, expect, it } from 'vitest';
import { newId } from '../domain/ids.ts';
import { IdSet } from './id-set.ts';

describe('IdSet', () => {
  it('holds UUIDs and other ids exactly, as a Set does', () => {
    const ids = new IdSet();
    const reference = new Set<string>();
    const made: string[] = [];
    // UUIDv7 ids made in one millisecond share their leading bits: the table must still
    // tell them apart and grow past its first size many times.
    for (let i = 0; i < 50_000; i++) made.push(newId(1_700_000_000_000 + (i >> 8)));
    const others = [
      'abc',
      'A0000000-0000-0000-0000-000000000000', // upper case: not packed, another id
      'a0000000-0000-0000-0000-000000000000',
      '00000000-0000-0000-0000-000000000000', // all zeros: a packed key like any other
      'a0000000_0000-0000-0000-000000000000',
      'g0000000-0000-0000-0000-000000000000',
      `${'x'.repeat(36)}`,
    ];
    for (const id of [...made, ...others]) {
      expect(ids.has(id)).toBe(false);
      ids.add(id);
      reference.add(id);
      expect(ids.has(id)).toBe(true);
    }
    ids.add(made[0]!);
    expect(ids.size).toBe(reference.size);
    for (const id of made) expect(ids.has(id)).toBe(true);
    for (const id of others) expect(ids.has(id)).toBe(true);
    // Ids one digit away from those held are not held.
    for (const id of made.slice(0, 2_000)) {
      const last = id.at(-1) === '0' ? '1' : '0';
      const near = `${id.slice(0, -1)}${last}`;
      expect(ids.has(near)).toBe(reference.has(near));
    }
    expect(ids.has('A0000000-0000-0000-0000-000000000001')).toBe(false);
    expect(ids.has('')).toBe(false);
  });

  it('tells apart ids that land on the same slot', () => {
    // One id in a table of 1,024 slots, and thousands of ids differing from it in their last
    // eight digits only: some of them start probing at its slot and must not match it.
    const ids = new IdSet();
    const held = '0190f2a1-7c3e-7d21-9a4b-5e6f708192a3';
    ids.add(held);
    let probes = 0;
    for (let i = 0; i < 20_000; i++) {
      const tail = ((i * 2_654_435_761) >>> 0).toString(16).padStart(8, '0');
      const other = `${held.slice(0, 28)}${tail}`;
      if (other === held) continue;
      probes++;
      expect(ids.has(other), other).toBe(false);
    }
    expect(probes).toBeGreaterThan(19_000);
    expect(ids.has(held)).toBe(true);
  });
});

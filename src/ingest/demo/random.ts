/**
 * Seeded randomness for the demo workspace: a small PRNG (mulberry32), UUIDv7-shaped ids
 * drawn from it, and timestamps in working hours. The same seed gives the same sequence,
 * so the same demo data, ids included.
 */

/** Scrambles a seed so that neighbouring seeds start far apart (murmur3's finalizer). */
export function mix32(x: number): number {
  let h = x >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A seeded pseudo-random sequence (mulberry32) with the draws the demo needs. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = mix32(seed);
  }

  /** A 32-bit unsigned integer. */
  uint32(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.uint32() / 4_294_967_296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One item, uniformly. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** One item by weight; `weightOf` reads an item's weight. */
  weighted<T>(items: readonly T[], weightOf: (item: T) => number): T {
    let total = 0;
    for (const item of items) total += weightOf(item);
    let r = this.next() * total;
    for (const item of items) {
      r -= weightOf(item);
      if (r < 0) return item;
    }
    return items[items.length - 1]!;
  }

  /** `k` distinct items (fewer if there are not that many), in draw order. */
  sample<T>(items: readonly T[], k: number): T[] {
    const pool = [...items];
    const out: T[] = [];
    for (let i = 0; i < k && pool.length > 0; i++) {
      const j = Math.floor(this.next() * pool.length);
      out.push(pool[j]!);
      pool[j] = pool[pool.length - 1]!;
      pool.pop();
    }
    return out;
  }

  /** A roughly log-normal integer around `median` (most values within ×/÷ `spread`). */
  around(median: number, spread: number, min: number, max: number): number {
    const gaussian = (this.next() + this.next() + this.next() - 1.5) * 2;
    const value = Math.round(median * spread ** gaussian);
    return Math.min(max, Math.max(min, value));
  }
}

/**
 * Ids and timestamps are written character by character into a scratch array and turned
 * into a string at once: a flat string takes about a sixth of the memory of one built by
 * concatenation (a rope of cons strings), which matters with millions of them.
 */
const idChars: number[] = new Array(36).fill(0);
const isoChars: number[] = new Array(24).fill(0);
const HEX_CODES = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));

function putHex(into: number[], at: number, value: number, digits: number): void {
  for (let i = digits - 1; i >= 0; i--) {
    into[at + i] = HEX_CODES[value & 0xf]!;
    value = Math.floor(value / 16);
  }
}

function putDigits(into: number[], at: number, value: number, digits: number): void {
  for (let i = digits - 1; i >= 0; i--) {
    into[at + i] = 0x30 + (value % 10);
    value = Math.floor(value / 10);
  }
}

function charsToString(chars: number[]): string {
  return String.fromCharCode.apply(null, chars);
}

/**
 * UUIDv7-shaped ids (RFC 9562 layout: 48 bits of the record's creation time in ms, then
 * random bits), drawn from their own seeded sequence. The last 32 bits are a bijective
 * scramble of a counter, so no two ids of one demo can collide.
 */
export class DemoIds {
  private readonly random: Random;
  private readonly mask: number;
  private counter = 0;

  constructor(seed: number) {
    this.random = new Random(seed ^ 0x5bd1e995);
    this.mask = this.random.uint32();
  }

  /** A new id for a record created at `ms`. */
  next(ms: number): string {
    const t = Math.max(0, Math.floor(ms));
    const a = this.random.uint32();
    const b = this.random.uint32();
    const unique = mix32((this.counter++ ^ this.mask) >>> 0);
    const c = idChars;
    putHex(c, 0, Math.floor(t / 65_536), 8);
    c[8] = 0x2d;
    putHex(c, 9, t & 0xffff, 4);
    c[13] = 0x2d;
    putHex(c, 14, 0x7000 | (a & 0xfff), 4);
    c[18] = 0x2d;
    putHex(c, 19, 0x8000 | ((a >>> 12) & 0x3fff), 4);
    c[23] = 0x2d;
    putHex(c, 24, b & 0xffff, 4);
    putHex(c, 28, unique, 8);
    return charsToString(c);
  }
}

/** Milliseconds in a day. */
export const DAY = 86_400_000;
/** Milliseconds in an hour. */
export const HOUR = 3_600_000;

/** Korea is UTC+9 all year. */
const KST = 9 * HOUR;

const datePrefixes = new Map<number, number[]>();

/**
 * The wire form of a time: ISO 8601 UTC with milliseconds, as `Date.toISOString` writes it
 * (for years 0 to 9999). Written by hand because the demo formats millions of them.
 */
export function iso(ms: number): string {
  const day = Math.floor(ms / DAY);
  let prefix = datePrefixes.get(day);
  if (prefix === undefined) {
    prefix = Array.from(new Date(day * DAY).toISOString().slice(0, 11), (ch) => ch.charCodeAt(0));
    datePrefixes.set(day, prefix);
  }
  const c = isoChars;
  for (let i = 0; i < 11; i++) c[i] = prefix[i]!;
  let rest = ms - day * DAY;
  putDigits(c, 20, rest % 1000, 3);
  rest = Math.floor(rest / 1000);
  putDigits(c, 17, rest % 60, 2);
  rest = Math.floor(rest / 60);
  putDigits(c, 14, rest % 60, 2);
  putDigits(c, 11, Math.floor(rest / 60), 2);
  c[13] = 0x3a;
  c[16] = 0x3a;
  c[19] = 0x2e;
  c[23] = 0x5a;
  return charsToString(c);
}

/**
 * A time in [lo, hi], preferably on a weekday between 09:00 and 19:00 Korean time. Falls back
 * to any time in the range when the range holds no working hours.
 */
export function workTime(random: Random, lo: number, hi: number): number {
  if (hi <= lo) return Math.floor(lo);
  let t = lo + random.next() * (hi - lo);
  for (let attempt = 0; attempt < 3; attempt++) {
    const local = t + KST;
    const dayStart = local - (local % DAY);
    // 1970-01-01 was a Thursday (4); 0 is Sunday, as `getUTCDay` counts.
    const weekday = (Math.floor(dayStart / DAY) + 4) % 7;
    if (weekday !== 0 && weekday !== 6) {
      const candidate = dayStart - KST + 9 * HOUR + random.next() * 10 * HOUR;
      if (candidate >= lo && candidate <= hi) return Math.floor(candidate);
      return Math.floor(t);
    }
    t = lo + random.next() * (hi - lo);
  }
  return Math.floor(t);
}

/** Slots of a new table (a power of two). */
const INITIAL_SLOTS = 1024;
/** Fill past which the table doubles. */
const MAX_LOAD = 0.7;
/** 32-bit words of a packed id. */
const WORDS = 4;

/**
 * A set of record ids, exact, for an import that remembers every id of a file (millions at
 * a million people). Ids shaped as the service makes them (UUIDs: 8-4-4-4-12 lowercase hex)
 * are packed into 16 bytes each in an open-addressing table outside the JavaScript heap, so
 * they cost the collector nothing and about a third of a string in a `Set`; any other id is kept in
 * a `Set` as it is. An id is in the table or in the set by its shape alone, so membership
 * is exact either way.
 */
export class IdSet {
  private words = new Int32Array(INITIAL_SLOTS * WORDS);
  private used = new Uint8Array(INITIAL_SLOTS);
  private mask = INITIAL_SLOTS - 1;
  private packed = 0;
  private readonly others = new Set<string>();
  /** The last id packed by `pack`. */
  private readonly key = new Int32Array(WORDS);

  get size(): number {
    return this.packed + this.others.size;
  }

  has(id: string): boolean {
    if (!this.pack(id)) return this.others.has(id);
    return this.slotOfKey() >= 0;
  }

  add(id: string): void {
    if (!this.pack(id)) {
      this.others.add(id);
      return;
    }
    const slot = this.slotOfKey();
    if (slot >= 0) return;
    if (this.packed + 1 > (this.mask + 1) * MAX_LOAD) this.grow();
    this.insert(this.key, 0);
    this.packed++;
  }

  /** Packs a UUID-shaped id into `key`; false for any other id. */
  private pack(id: string): boolean {
    if (id.length !== 36) return false;
    const key = this.key;
    let word = 0;
    let digits = 0;
    let n = 0;
    for (let i = 0; i < 36; i++) {
      const c = id.charCodeAt(i);
      if (i === 8 || i === 13 || i === 18 || i === 23) {
        if (c !== 45) return false;
        continue;
      }
      let v: number;
      if (c >= 48 && c <= 57) v = c - 48;
      else if (c >= 97 && c <= 102) v = c - 87;
      else return false;
      word = (word << 4) | v;
      if (++digits === 8) {
        key[n++] = word;
        word = 0;
        digits = 0;
      }
    }
    return true;
  }

  /** The slot holding `key`, or -1. */
  private slotOfKey(): number {
    const key = this.key;
    const words = this.words;
    const used = this.used;
    const mask = this.mask;
    for (let slot = hash(key, 0) & mask; ; slot = (slot + 1) & mask) {
      if (used[slot] === 0) return -1;
      const at = slot * WORDS;
      if (
        words[at] === key[0] &&
        words[at + 1] === key[1] &&
        words[at + 2] === key[2] &&
        words[at + 3] === key[3]
      ) {
        return slot;
      }
    }
  }

  /** Puts the key at `from[at..]` in its first free slot (the key is not in the table). */
  private insert(from: Int32Array, at: number): void {
    const mask = this.mask;
    let slot = hash(from, at) & mask;
    while (this.used[slot] !== 0) slot = (slot + 1) & mask;
    this.used[slot] = 1;
    this.words.set(from.subarray(at, at + WORDS), slot * WORDS);
  }

  private grow(): void {
    const words = this.words;
    const used = this.used;
    const slots = (this.mask + 1) * 2;
    this.words = new Int32Array(slots * WORDS);
    this.used = new Uint8Array(slots);
    this.mask = slots - 1;
    for (let slot = 0; slot < used.length; slot++) {
      if (used[slot] !== 0) this.insert(words, slot * WORDS);
    }
  }
}

/** Mixes the four words at `words[at..]` (UUIDv7 ids share their leading time bits). */
function hash(words: Int32Array, at: number): number {
  let h = Math.imul(words[at]! ^ words[at + 3]!, 0x9e3779b1);
  h ^= Math.imul(words[at + 1]!, 0x85ebca6b);
  h ^= Math.imul(words[at + 2]!, 0xc2b2ae35);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 13;
  return h >>> 0;
}

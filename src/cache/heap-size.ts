/**
 * About how many bytes of V8's heap `value` takes, counted by walking it: strings by their
 * characters (one byte each when all are Latin-1, else two) and a header, arrays, maps, sets
 * and plain objects by their slots and a header, numbers, booleans and null by a slot. Meant
 * for budgets, not accounting: within about a fifth of what the heap grows by for a
 * workspace's catalog (`src/cache/heap-size.test.ts` measures it). A value reached twice is
 * counted twice, so it is for trees such as the catalogs: a value that holds itself would
 * never be done counting.
 */
export function heapBytes(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return stringBytes(value);
    case 'object': {
      if (value === null) return 8;
      if (value instanceof Map) {
        let bytes = 64 + value.size * 40;
        for (const [k, v] of value) bytes += heapBytes(k) + heapBytes(v);
        return bytes;
      }
      if (value instanceof Set) {
        let bytes = 64 + value.size * 24;
        for (const v of value) bytes += heapBytes(v);
        return bytes;
      }
      if (Array.isArray(value)) {
        let bytes = 32 + value.length * 8;
        for (const v of value) bytes += heapBytes(v);
        return bytes;
      }
      let bytes = 24;
      for (const v of Object.values(value)) bytes += 8 + heapBytes(v);
      return bytes;
    }
    default:
      return 8;
  }
}

/** A character past Latin-1 (a surrogate half too): V8 keeps such a string two bytes a character. */
const PAST_LATIN_1 = /[\u0100-\uffff]/;

function stringBytes(text: string): number {
  return 16 + (PAST_LATIN_1.test(text) ? text.length * 2 : text.length);
}

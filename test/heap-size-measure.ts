/**
 * Measures what `heapBytes` is checked against (`src/cache/heap-size.test.ts` runs it): for
 * catalog-shaped values of each size given, the heap they take, in a process of its own, so
 * that no other work's garbage or freed code is counted, and prints `[estimate, measured]`
 * a value for each as JSON. Run with `node --expose-gc --import tsx`.
 */
import { heapBytes } from '../src/cache/heap-size.ts';

const exposed = (globalThis as { gc?: () => void }).gc;
if (!exposed) throw new Error('run with --expose-gc');
const gc: () => void = exposed;

/** The heap used once collections stop freeing more (up to ten in a row). */
function settledHeap(): number {
  let used = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 10; i++) {
    gc();
    const now = process.memoryUsage().heapUsed;
    if (Math.abs(used - now) < 256 * 1024) return now;
    used = now;
  }
  return used;
}

/**
 * What the heap holds more, a value, with `count` values made by `make` kept than once they
 * are dropped, each side measured once collections stop freeing more: a collection may also
 * free what the process no longer needs (old functions' bytecode, other tests' garbage), so
 * the heap is compared with itself after the values go, not with what it was before them.
 */
function measured(make: (i: number) => unknown, count = 2_000): number {
  const kept: unknown[] = [];
  for (let i = 0; i < count; i++) kept.push(make(i));
  const withValues = settledHeap();
  // Read after the measure, so that the values are surely kept until then.
  if (kept.length !== count) throw new Error('values lost');
  kept.length = 0;
  return (withValues - settledHeap()) / count;
}

/**
 * A string laid out flat, as a database driver's are: one built by concatenation is a chain
 * of its parts until it is read whole, which takes more of the heap.
 */
const flat = (text: string) => Buffer.from(text).toString();

const id = (i: number, j: number) =>
  flat(`0187cc3d-9280-7a36-${String(i).padStart(4, '0')}-${String(j).padStart(12, '0')}`);

/** Shaped as a workspace's catalog: maps of ids to Korean names, field definitions, sets. */
function catalogLike(i: number, names: number) {
  return {
    version: i,
    names: new Map([
      [
        'product',
        new Map(Array.from({ length: names }, (_, j) => [id(i, j), flat(`상품 ${i}-${j}`)])),
      ],
      [
        'user',
        new Map(Array.from({ length: 7 }, (_, j) => [id(i, j + names), flat(`사용자 ${j}`)])),
      ],
    ]),
    fields: new Map([
      [
        'deal',
        Array.from({ length: 10 }, (_, j) => ({
          id: id(i, j + 5_000),
          recordType: 'deal',
          name: flat(`필드 ${i}-${j}`),
          type: 'singleSelect',
          required: false,
          options: [{ id: id(i, j + 6_000), value: flat(`선택 ${j}`) }],
        })),
      ],
    ]),
    subscriptions: [
      { id: id(i, 9_000), events: new Set(['생성', '수정']), url: flat(`https://x/${i}`) },
    ],
  };
}

const sizes = process.argv.slice(2).map(Number);
console.log(
  JSON.stringify(
    sizes.map((names) => [
      heapBytes(catalogLike(7, names)),
      measured((i) => catalogLike(i, names), names > 100 ? 200 : 2_000),
    ]),
  ),
);

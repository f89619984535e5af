/**
 * Sorts `list` by the timestamp `key` of each item, oldest first, equal times in list order.
 * A stable bucket sort: linear in the list's length, which at a million activities is
 * several times faster than a comparison sort.
 */
export function sortByTime<T>(list: T[], key: (item: T) => string): void {
  const n = list.length;
  if (n < 2) return;
  const times = new Float64Array(n);
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const t = Date.parse(key(list[i]!));
    times[i] = t;
    if (t < min) min = t;
    if (t > max) max = t;
  }
  const width = (max - min + 1) / n;
  const bucketOf = (t: number) => Math.min(n - 1, Math.floor((t - min) / width));
  const starts = new Uint32Array(n + 1);
  for (let i = 0; i < n; i++) starts[bucketOf(times[i]!) + 1]!++;
  for (let b = 0; b < n; b++) starts[b + 1]! += starts[b]!;
  const order = new Uint32Array(n);
  const next = starts.slice(0, n);
  for (let i = 0; i < n; i++) order[next[bucketOf(times[i]!)]!++] = i;
  // Buckets hold a few items each: insertion sort keeps equal times in list order.
  for (let b = 0; b < n; b++) {
    for (let j = starts[b]! + 1; j < starts[b + 1]!; j++) {
      const item = order[j]!;
      let k = j - 1;
      while (k >= starts[b]! && times[order[k]!]! > times[item]!) {
        order[k + 1] = order[k]!;
        k--;
      }
      order[k + 1] = item;
    }
  }
  const sorted = Array.from(order, (i) => list[i]!);
  for (let i = 0; i < n; i++) list[i] = sorted[i]!;
}

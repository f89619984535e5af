// `npm run bench:fields [-- --people N] [--db FILE] [--database postgres [--existing]]`:
// builds a demo workspace of N people (or takes FILE, or with `--existing` the demo already
// in the PostgreSQL database of BENCH_DATABASE_URL), then times, through the API in process, what a
// custom field costs at that size: `POST /v2/field/people` (every person re-rendered with the
// new key, in the one write transaction), its rename, and a field of a record type the
// demo has few of (`product`), as the baseline of the same run.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openStore } from '../src/store/database.ts';
import { buildDemo, countArg, countPeople, inProcessApp, tokenOfExistingDemo } from './lib.ts';

const { values } = parseArgs({
  options: {
    people: { type: 'string', default: '100000' },
    db: { type: 'string' },
    database: { type: 'string', default: 'sqlite' },
    existing: { type: 'boolean', default: false },
  },
});
const dir = mkdtempSync(join(tmpdir(), 'salescrm-bench-fields-'));
const databaseUrl =
  values.database === 'postgres'
    ? (process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/salescrm_bench_fields')
    : `sqlite:${values.db ?? join(dir, 'fields.db')}`;

let demo: { token: string; seconds?: number };
if (values.database === 'postgres' ? values.existing : values.db)
  demo = await tokenOfExistingDemo(databaseUrl);
else demo = buildDemo(databaseUrl, countArg('people', values.people));
if ('seconds' in demo)
  console.log(`demo of ${values.people} people built in ${demo.seconds?.toFixed(1)} s`);

const store = openStore(databaseUrl);
const people = await countPeople(databaseUrl);
const app = await inProcessApp(store);
const headers = { authorization: `Bearer ${demo.token}`, 'content-type': 'application/json' };

/** POSTs and returns the seconds it took; a non-2xx stops the bench. */
async function timed(
  url: string,
  body: unknown,
): Promise<{ seconds: number; data: { field: { id: string } } }> {
  const started = performance.now();
  const res = await app.inject({ method: 'POST', url, headers, payload: JSON.stringify(body) });
  const seconds = (performance.now() - started) / 1000;
  if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  return { seconds, data: JSON.parse(res.body).data };
}

const suffix = Date.now().toString(36);
const product = await timed('/v2/field/product', {
  name: `벤치 상품 필드 ${suffix}`,
  type: 'string',
});
const created = await timed('/v2/field/people', { name: `벤치 필드 ${suffix}`, type: 'number' });
const renamed = await timed(`/v2/field/people/${created.data.field.id}`, {
  name: `벤치 필드 ${suffix} (새 이름)`,
});
const perRecord = (s: number) => ((s / people) * 1e6).toFixed(1);
console.log(`${store.dialect}, ${people} people`);
console.log(`create a product field (baseline):  ${product.seconds.toFixed(3)} s`);
console.log(
  `create a people field:             ${created.seconds.toFixed(2)} s (${perRecord(created.seconds)} µs per person)`,
);
console.log(
  `rename the people field:           ${renamed.seconds.toFixed(2)} s (${perRecord(renamed.seconds)} µs per person)`,
);
await app.close();
await store.close();

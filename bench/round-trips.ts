// `npx tsx bench/round-trips.ts [N]`: the statements one `POST /v2/people` sends to
// PostgreSQL, through the app as `serve` builds it (in process, `inject`), each one a round
// trip to the server: every query of every `pg` client is logged while the Nth create runs
// (default 6, after the first ones have loaded the token and the workspace's catalog).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { createDemoWorkspace } from '../src/ingest/demo/create-workspace.ts';
import { buildApp } from '../src/server/app.ts';
import { openStore } from '../src/store/database.ts';

const log: string[] = [];
let on = false;
const orig = pg.Client.prototype.query;
// biome-ignore lint/suspicious/noExplicitAny: pg's overloads
(pg.Client.prototype as any).query = function (this: unknown, ...args: any[]) {
  if (on) {
    const t = args[0];
    log.push(typeof t === 'string' ? t : (t?.text ?? String(t)));
  }
  // biome-ignore lint/suspicious/noExplicitAny: pg's overloads
  return (orig as any).apply(this, args);
};
const server = 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `salescrm_trips_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: server });
await admin.connect();
await admin.query(`create database "${name}"`);
const url = new URL(server);
url.pathname = `/${name}`;
try {
  const store = openStore(url.toString());
  await store.migrate();
  const { token } = await createDemoWorkspace(store, { seed: 1, people: 50 });
  const config = {
    ...loadConfig({ ...process.env, RATE_LIMIT_MAX: '0', OVERLOAD_DELAY_MS: '0' }),
    databaseUrl: url.toString(),
  };
  const app = await buildApp({ store, config });
  const post = (n: number) =>
    app.inject({
      method: 'POST',
      url: '/v2/people',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: `p${n}` }),
    });
  const warm = Number(process.argv[2] ?? 6) - 1;
  for (let i = 0; i < warm; i++) await post(i);
  on = true;
  const r = await post(99);
  on = false;
  console.log(r.statusCode, r.body.slice(0, 200));
  console.log(`${log.length} round trips to PostgreSQL for one person create:`);
  for (const q of log) console.log(' -', q.replace(/\s+/g, ' ').slice(0, 300));
  await app.close();
  await store.close();
} finally {
  await admin.query(`drop database "${name}" with (force)`);
  await admin.end();
}

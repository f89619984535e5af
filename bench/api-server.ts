// The API server for the benchmarks, in its own process: the same app `salescrm serve`
// runs, without request logging or rate limit.
import { loadConfig } from '../src/config.ts';
import { buildApp } from '../src/server/app.ts';
import { LISTEN_BACKLOG } from '../src/server/overload.ts';
import { openStore } from '../src/store/database.ts';

const [databaseUrl, port] = process.argv.slice(2);
const config = {
  ...loadConfig({ ...process.env, RATE_LIMIT_MAX: '0' }),
  databaseUrl: databaseUrl!,
};
const store = openStore(config.databaseUrl);
await store.migrate();
const app = await buildApp({ store, config });
await app.listen({ port: Number(port), host: '127.0.0.1', backlog: LISTEN_BACKLOG });
process.send?.('ready');
process.once('SIGTERM', async () => {
  await app.close();
  await store.close();
  process.exit(0);
});

import type { Config } from '../config.ts';
import { createDemoWorkspace } from '../ingest/demo.ts';
import { buildApp } from '../server/app.ts';
import { openStore } from '../store/database.ts';
import { intFlag, parseFlags } from './main.ts';

const SHUTDOWN_GRACE_MS = 10_000;

/**
 * `salescrm serve` (and `start`, which on an empty database first creates a demo
 * workspace and prints its token). Runs until SIGTERM or SIGINT, then finishes in-flight
 * requests and closes the store.
 */
export async function runServe(
  config: Config,
  args: string[],
  opts: { demoWhenEmpty: boolean },
): Promise<number> {
  const { values } = parseFlags(args, { port: { type: 'string' }, host: { type: 'string' } });
  const port = intFlag('port', values.port, config.port, 0, 65535);
  const host = values.host ?? config.host;
  const store = openStore(config.databaseUrl);
  await store.migrate();

  let demoToken: string | undefined;
  const workspaces = await store.db
    .selectFrom('workspaces')
    .select('id')
    .orderBy('created_at')
    .execute();
  if (opts.demoWhenEmpty && workspaces.length === 0) {
    console.log('empty database: creating a demo workspace…');
    const demo = await createDemoWorkspace(store, {});
    demoToken = demo.token;
    workspaces.push({ id: demo.workspaceId });
  }

  const app = await buildApp({ store, config, logger: true });
  const address = await app.listen({ port, host });
  const url = `${address}${config.basePath}`;
  console.log(`salescrm is listening on ${url}`);
  if (demoToken) {
    console.log(`demo workspace: ${workspaces[0]!.id}`);
    console.log(`token: ${demoToken}`);
    console.log(`try:   curl -H 'Authorization: Bearer ${demoToken}' '${url}/v2/people?limit=2'`);
  } else if (workspaces.length > 0) {
    console.log(`workspaces: ${workspaces.map((w) => w.id).join(', ')}`);
    console.log(`a token:    npm run -s cli -- token create --workspace ${workspaces[0]!.id}`);
  } else {
    console.log('no workspace yet: npm run -s cli -- demo');
  }

  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      app.log.info({ signal }, 'shutting down');
      const timer = setTimeout(() => {
        app.log.warn('in-flight requests did not finish in time; closing anyway');
        resolve();
      }, SHUTDOWN_GRACE_MS);
      timer.unref();
      app.close().then(
        () => resolve(),
        () => resolve(),
      );
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  await store.close();
  return 0;
}

import type { Config } from '../config.ts';
import { createDemoWorkspace } from '../ingest/demo/create-workspace.ts';
import { openStore } from '../store/database.ts';
import { intFlag, parseFlags } from './flags.ts';

/**
 * The largest demo. It is generated and written in chunks of 20,000 people, so memory does
 * not grow with the size; the bound is the disk (about 13 GB at a million people) and the
 * time (roughly ten minutes for a million on two cores).
 */
const MAX_DEMO_PEOPLE = 1_000_000;

/** `salescrm demo [--seed N] [--people N] [--json]`. */
export async function runDemo(config: Config, args: string[]): Promise<number> {
  const { values } = parseFlags(args, {
    seed: { type: 'string' },
    people: { type: 'string' },
    json: { type: 'boolean' },
  });
  const seed = intFlag('seed', values.seed, 1, 0, 2 ** 31 - 1);
  const people = intFlag('people', values.people, 200, 1, MAX_DEMO_PEOPLE);
  const store = openStore(config.databaseUrl);
  try {
    await store.migrate();
    const started = Date.now();
    const result = await createDemoWorkspace(store, {
      seed,
      people,
      onProgress: values.json
        ? undefined
        : (stage, done, total) => process.stderr.write(`\r${stage}: ${done}/${total}        `),
    });
    if (values.json) {
      console.log(JSON.stringify({ workspaceId: result.workspaceId, token: result.token }));
    } else {
      process.stderr.write('\n');
      console.log(
        `demo workspace ${result.workspaceId} created in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
      console.log(
        `records: ${Object.entries(result.counts)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}`,
      );
      console.log(`token: ${result.token}`);
    }
    return 0;
  } finally {
    await store.close();
  }
}

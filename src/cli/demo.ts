import type { Command } from 'commander';
import type { Config } from '../config.ts';
import { createDemoWorkspace } from '../ingest/demo/create-workspace.ts';
import { openStore } from '../store/database.ts';
import { action, wholeNumber } from './command.ts';

/**
 * The largest demo. It is generated and written in chunks of 20,000 people, so memory does
 * not grow with the size; the bound is the disk (about 13 GB at a million people) and the
 * time (roughly ten minutes for a million on two cores).
 */
const MAX_DEMO_PEOPLE = 1_000_000;

interface DemoOptions {
  seed: number;
  people: number;
  json?: boolean;
}

/** Declares `demo` on the program. */
export function demoCommand(program: Command): void {
  program
    .command('demo')
    .description(
      'create a workspace full of Korean demo data (same seed, same data); print its token',
    )
    .option('--seed <N>', 'the seed of the generator', wholeNumber(0, 2 ** 31 - 1), 1)
    .option(
      '--people <N>',
      `how many people (1 to ${MAX_DEMO_PEOPLE.toLocaleString('en')})`,
      wholeNumber(1, MAX_DEMO_PEOPLE),
      200,
    )
    .option('--json', 'print {"workspaceId","token"} only')
    .action(action(runDemo));
}

/** `salescrm demo [--seed N] [--people N] [--json]`. */
async function runDemo(config: Config, values: DemoOptions): Promise<number> {
  const { seed, people } = values;
  const store = openStore(config.databaseUrl, { longRunning: true });
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

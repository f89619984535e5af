/** What `salescrm demo` does (`demo.ts` declares it; imported when it runs). */
import type { Config } from '../config.ts';
import { createDemoWorkspace } from '../ingest/demo/create-workspace.ts';
import { withStore } from './with-store.ts';

export interface DemoOptions {
  seed: number;
  people: number;
  json?: boolean;
}

/** `salescrm demo [--seed N] [--people N] [--json]`. */
export async function runDemo(config: Config, values: DemoOptions): Promise<number> {
  const { seed, people } = values;
  return withStore(
    config,
    async (store) => {
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
    },
    { longRunning: true },
  );
}

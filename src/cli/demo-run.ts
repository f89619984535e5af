/** What `salescrm demo` does (`demo.ts` declares it; imported when it runs). */
import type { Config } from '../config.ts';
import { createDemoWorkspace } from '../ingest/demo/create-workspace.ts';
import { createDemoWorkspaces } from '../ingest/demo/create-workspaces.ts';
import { withStore } from './with-store.ts';

export interface DemoOptions {
  seed: number;
  people: number;
  workspaces?: number;
  json?: boolean;
}

/** Workspaces whose token the text output lists; `--json` lists every one. */
const LISTED = 3;

/** `salescrm demo [--seed N] [--people N] [--workspaces N] [--json]`. */
export async function runDemo(config: Config, values: DemoOptions): Promise<number> {
  const { seed, people } = values;
  const workspaces = values.workspaces ?? 1;
  const onProgress = values.json
    ? undefined
    : (stage: string, done: number, total: number) =>
        process.stderr.write(`\r${stage}: ${done}/${total}        `);
  return withStore(
    config,
    async (store) => {
      const started = Date.now();
      const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
      if (workspaces > 1) {
        const built = await createDemoWorkspaces(store, { seed, people, workspaces, onProgress });
        if (values.json) {
          process.stdout.write(
            built
              .map((w) => JSON.stringify({ workspaceId: w.workspaceId, token: w.token }))
              .join('\n') + '\n',
          );
          return 0;
        }
        process.stderr.write('\n');
        console.log(
          `${built.length} demo workspaces of ${people} people created in ${seconds()} s`,
        );
        for (const w of built.slice(0, LISTED)) console.log(`${w.workspaceId}  token: ${w.token}`);
        console.log(
          `(… and ${built.length - LISTED} more: --json lists every workspace and token)`,
        );
        return 0;
      }
      const result = await createDemoWorkspace(store, { seed, people, onProgress });
      if (values.json) {
        console.log(JSON.stringify({ workspaceId: result.workspaceId, token: result.token }));
      } else {
        process.stderr.write('\n');
        console.log(`demo workspace ${result.workspaceId} created in ${seconds()} s`);
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

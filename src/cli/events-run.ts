/** What `salescrm events` does (`events.ts` declares it; imported when it runs). */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../config.ts';
import type { EventObjectType } from '../domain/events.ts';
import { eventsAfter } from '../resources/events/queries.ts';
import { openStore } from '../store/database.ts';
import { knownWorkspace } from './known-workspace.ts';

const PAGE = 500;

export interface EventsOptions {
  workspace: string;
  after: number;
  objectType?: EventObjectType;
  follow?: boolean;
  intervalMs: number;
}

/**
 * `salescrm events --workspace ID [--after N] [--object-type T] [--follow]`: the workspace's
 * events as NDJSON (`{"seq":N,…payload}` a line), oldest first; with `--follow` it then
 * waits for new ones and prints them as they commit, until SIGINT or SIGTERM.
 */
export async function runEvents(config: Config, values: EventsOptions): Promise<number> {
  const { workspace: workspaceId, objectType, intervalMs } = values;
  let after = values.after;
  const store = openStore(config.databaseUrl);
  let stopping = false;
  const stop = () => {
    stopping = true;
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    if (!(await knownWorkspace(store, workspaceId))) return 1;
    while (!stopping) {
      const page = await eventsAfter(store, workspaceId, after, objectType, PAGE);
      if (page.events.length > 0) await write(`${page.events.join('\n')}\n`);
      after = page.last;
      if (page.more) continue;
      if (!values.follow) break;
      await sleep(intervalMs);
    }
    return 0;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await store.close();
  }
}

/** Writes to standard output, waiting when its buffer is full (a slow pipe). */
function write(text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.write(text, (error) => (error ? reject(error) : resolve()));
  });
}

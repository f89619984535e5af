import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../config.ts';
import { EVENT_OBJECT_TYPES, isEventObjectType } from '../domain/events.ts';
import { eventsAfter } from '../resources/events/queries.ts';
import { openStore } from '../store/database.ts';
import { intFlag, parseFlags, UsageError } from './flags.ts';
import { knownWorkspace } from './known-workspace.ts';

const PAGE = 500;

/**
 * `salescrm events --workspace ID [--after N] [--object-type T] [--follow]`: the workspace's
 * events as NDJSON (`{"seq":N,…payload}` a line), oldest first; with `--follow` it then
 * waits for new ones and prints them as they commit, until SIGINT or SIGTERM.
 */
export async function runEvents(config: Config, args: string[]): Promise<number> {
  const { values } = parseFlags(args, {
    workspace: { type: 'string' },
    after: { type: 'string' },
    'object-type': { type: 'string' },
    follow: { type: 'boolean' },
    'interval-ms': { type: 'string' },
  });
  const workspaceId = values.workspace;
  if (!workspaceId) throw new UsageError('--workspace ID is required');
  const objectType = values['object-type'];
  if (objectType !== undefined && !isEventObjectType(objectType)) {
    throw new UsageError(
      `--object-type must be one of ${Object.keys(EVENT_OBJECT_TYPES).join(', ')}, not '${objectType}'`,
    );
  }
  let after = intFlag('after', values.after, 0, 0, Number.MAX_SAFE_INTEGER);
  const intervalMs = intFlag('interval-ms', values['interval-ms'], 500, 10, 60_000);
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

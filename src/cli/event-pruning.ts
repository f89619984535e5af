import type { FastifyBaseLogger } from 'fastify';
import type { Store } from '../store/database.ts';
import { pruneEvents } from '../store/outbox/prune.ts';

const EVERY_MS = 60 * 60 * 1000;

/** A running pruner: where it logs, and how to stop it. */
export interface EventPruning {
  log: Pick<FastifyBaseLogger, 'info' | 'error'> | undefined;
  stop(): void;
}

/**
 * Prunes events past the retention once soon after start and then every hour, in the
 * background of `serve` (a failure is logged and tried again at the next turn).
 */
export function startEventPruning(store: Store, retentionDays: number): EventPruning {
  const pruning: EventPruning = {
    log: undefined,
    stop: () => {
      clearTimeout(first);
      clearInterval(timer);
    },
  };
  const run = () => {
    pruneEvents(store, retentionDays).then(
      (pruned) => {
        if (pruned.events > 0) pruning.log?.info({ ...pruned, retentionDays }, 'events pruned');
      },
      (error: unknown) => pruning.log?.error({ err: error }, 'pruning events failed'),
    );
  };
  const timer = setInterval(run, EVERY_MS);
  timer.unref();
  const first = setTimeout(run, 5_000);
  first.unref();
  return pruning;
}

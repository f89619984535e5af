import type { Store } from './database.ts';

/** What a listener hears of a committed write. */
export interface CommittedWrite {
  /**
   * The write added deliveries that wait for a claim: those it did not lease to this
   * process's dispatcher (`outbox/handover.ts`). False for the rest, which a dispatcher need
   * not be woken for.
   */
  delivers: boolean;
  /** The workspace written. */
  workspaceId: string;
}

/** Listeners of each store's committed writes. */
const listeners = new WeakMap<Store, Set<(write: CommittedWrite) => void>>();

/**
 * Calls `listener` after each write of `store` through `writeWorkspace` commits, whatever
 * made it (a request of the API, an MCP tool, a batch, a command in this process): say, a
 * dispatcher to send the write's deliveries at once rather than at its next poll. Returns
 * the function that stops the calls.
 */
export function afterWrite(store: Store, listener: (write: CommittedWrite) => void): () => void {
  const set = listeners.get(store) ?? new Set();
  listeners.set(store, set);
  set.add(listener);
  return () => set.delete(listener);
}

/** Tells the listeners of `store` that a write committed (a listener's error is not the write's). */
export function writeCommitted(store: Store, write: CommittedWrite): void {
  const set = listeners.get(store);
  if (!set) return;
  for (const listener of set) {
    try {
      listener(write);
    } catch {} // the write committed: a listener's trouble is its own
  }
}

import type { Store } from '../store/database.ts';
import { handDeliveriesTo } from '../store/outbox/handover.ts';
import { afterWrite } from '../store/write-commits.ts';
import type { Dispatcher } from './dispatcher.ts';

/**
 * Joins a dispatcher to the writes of `store` in its process, whatever makes them (a request,
 * an MCP tool, a batch): each write leases it the deliveries it may take (sent with no claim,
 * `store/outbox/handover.ts`), and wakes it for the workspace of those it could not, which are
 * then claimed at once rather than at the next poll; on PostgreSQL each write also records
 * the tries of its workspace's deliveries that were answered 2xx (`Dispatcher.carryRecord`).
 * Returns the function that parts them.
 */
export function attachToWrites(store: Store, dispatcher: Dispatcher): () => void {
  const stopWaking = afterWrite(store, (write) => {
    if (write.delivers) dispatcher.wake(write.workspaceId);
  });
  const stopHanding = handDeliveriesTo(store, dispatcher);
  const stopCarrying = dispatcher.carryRecordsInWrites();
  return () => {
    stopWaking();
    stopHanding();
    stopCarrying();
  };
}

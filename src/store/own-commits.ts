import { AsyncLocalStorage } from 'node:async_hooks';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryId,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

const CHANGES = new Set([
  'InsertQueryNode',
  'UpdateQueryNode',
  'DeleteQueryNode',
  'MergeQueryNode',
]);

/**
 * A Kysely plugin that calls `committed` after each insert, update or delete that commits on
 * its own (outside `within`): this process changed something in the database, it may not
 * know what, and its caches learn it at once rather than when the database's notification
 * comes back (a CLI command, a test, a route writing outside the write path). Statements of
 * a transaction run `within` it, and its runner says what it changed once it commits.
 */
export class OwnCommits implements KyselyPlugin {
  private readonly inTransaction = new AsyncLocalStorage<true>();
  private readonly changes = new WeakSet<QueryId>();

  constructor(private readonly committed: () => void) {}

  /** Runs a transaction's body: its statements commit with the transaction, not each alone. */
  within<T>(fn: () => Promise<T>): Promise<T> {
    return this.inTransaction.run(true, fn);
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (CHANGES.has(args.node.kind) && !this.inTransaction.getStore()) {
      this.changes.add(args.queryId);
    }
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.changes.has(args.queryId)) this.committed();
    return args.result;
  }
}

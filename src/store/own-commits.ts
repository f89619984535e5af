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
 * A Kysely plugin that calls `committed` after each insert, update or delete that runs
 * through it: this process changed something in the database, it may not know what, and its
 * caches learn it at once rather than when the database's notification comes back (a CLI
 * command, a test, a route writing outside the write path).
 *
 * Only statements that commit on their own run through it: a transaction's body gets its
 * executor without the plugin (`inTransaction`), and its runner says what it changed once it
 * commits. The executor says which is which, not an `AsyncLocalStorage`: one of those makes
 * Node.js 20 run hooks at every promise of the process.
 */
export class OwnCommits implements KyselyPlugin {
  private readonly changes = new WeakSet<QueryId>();

  constructor(private readonly committed: () => void) {}

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (CHANGES.has(args.node.kind)) this.changes.add(args.queryId);
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.changes.has(args.queryId)) this.committed();
    return args.result;
  }
}

/**
 * The executor a transaction's body runs its statements on: the transaction's own, without
 * the store's plugins (`OwnCommits` is the only one), so that none of them counts as a
 * commit of its own.
 */
export function inTransaction<E extends { withoutPlugins(): E }>(executor: E): E {
  return executor.withoutPlugins();
}

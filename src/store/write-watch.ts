import {
  AliasNode,
  ColumnNode,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  TableNode,
  type UnknownRow,
} from 'kysely';
import { CATALOG_COLUMNS, CATALOG_TABLES } from './catalog.ts';
import type { Executor } from './database.ts';
import { withPlugin } from './sqlite-executors.ts';

/** The table an insert, update or delete writes to, or undefined for any other query. */
function writtenTable(node: RootOperationNode): string | undefined {
  let target: OperationNode | undefined;
  if (node.kind === 'InsertQueryNode') target = node.into;
  else if (node.kind === 'UpdateQueryNode') target = node.table;
  else if (node.kind === 'DeleteQueryNode') target = node.from.froms[0];
  else return undefined;
  if (target && AliasNode.is(target)) target = target.node;
  return target && TableNode.is(target) ? target.table.identifier.name : undefined;
}

/** Whether a write can change rows already there: an update, a delete, an upsert. */
function changesRows(node: RootOperationNode): boolean {
  return node.kind !== 'InsertQueryNode' || node.onConflict !== undefined || node.replace === true;
}

/** Whether a write to catalog table `table` may change what the catalog holds of it. */
function changesCatalog(table: string, node: RootOperationNode): boolean {
  const columns = CATALOG_COLUMNS.get(table);
  if (columns === undefined || node.kind !== 'UpdateQueryNode') return true;
  return (node.updates ?? []).some(
    (u) => !ColumnNode.is(u.column) || columns.has(u.column.column.name),
  );
}

/**
 * Watches the queries of a write for the tables it changes (inserts, updates, deletes built
 * with Kysely, which is how every write of a `writeWorkspace` is made), so that the write
 * knows, without reading, that a table holds nothing of the records it has just created,
 * and when it must read its catalog again (a write that adds a team, then a record its
 * member owns, gives the record the new team). Other writes, and other processes, see
 * catalog changes through `workspaces.catalog_version`; this is the write's own view.
 */
export class WriteWatch implements KyselyPlugin {
  /** Tables the write has changed. */
  readonly written = new Set<string>();
  /** Tables whose rows the write may have changed after their insert (not by inserts alone). */
  readonly changed = new Set<string>();
  /** True once the write has changed a catalog table, until the write reads it again. */
  catalogChanged = false;
  /** True once the write has changed a catalog table: its commit bumps `catalog_version`. */
  catalogWritten = false;

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    const table = writtenTable(node);
    if (table !== undefined) this.saw(table, changesRows(node), changesCatalog(table, node));
    return node;
  }

  /**
   * A write to `table`; `changes` when it may have changed rows already there, `catalog`
   * unless it changed only columns the catalog does not hold.
   */
  saw(table: string, changes: boolean, catalog = true): void {
    this.written.add(table);
    if (changes) this.changed.add(table);
    if (catalog && CATALOG_TABLES.has(table)) {
      this.catalogChanged = true;
      this.catalogWritten = true;
    }
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}

/** `executor` with `watch` seeing its queries and its cached inserts, on the same connection. */
export function watched(executor: Executor, watch: WriteWatch): Executor {
  return withPlugin(executor, watch, watch);
}

import type { Executor, Store } from '../store/database.ts';
import { Lookups } from '../store/read-model/lookups.ts';
import { type RenderedType, refreshTouched, Touched } from '../store/read-model/refresh.ts';
import { bumpDataVersion, RowWriter } from '../store/write.ts';

/** The rows of one table an import writes, each an array of values in the writer's columns. */
export interface TableSink {
  /** Writes a row (or hands it on, or keeps it for `flush`). */
  add(values: unknown[]): void;
  /** Rows kept for `flush`. */
  readonly pending: number;
  flush(): Promise<void>;
}

/**
 * Where an import's writes go, inside its one transaction: the transaction itself, on this
 * thread, or a writer thread's (`import-writer.ts`). Everything the import writes or reads
 * back from its own writes goes through here; its reads of what the workspace held before
 * go to the store itself.
 */
export interface ImportSink {
  /** A writer of `table`; the `blobs` columns take rendered JSON as text. */
  writer(table: string, columns: readonly string[], blobs: readonly string[]): TableSink;
  /** Removes a row written before. */
  delete(table: string, id: string): Promise<void>;
  /** The workspace's lookups (users, teams, pipelines, ..., field definitions) as written. */
  lookups(): Promise<Lookups>;
  /** Renders these records again from the database, as written. */
  refresh(records: [RenderedType, string[]][]): Promise<void>;
  /** Bumps the workspace's data version. */
  bumpDataVersion(): Promise<void>;
  /** True when writes handed on are waiting: the caller should `drain()`. */
  readonly busy: boolean;
  /** Waits until the writes handed on are few (and reports their failure, if any). */
  drain(): Promise<void>;
}

/** An import's writes in its transaction on this thread. */
export class TransactionSink implements ImportSink {
  constructor(
    private readonly store: Store,
    private readonly trx: Executor,
    private readonly workspaceId: string,
  ) {}

  writer(table: string, columns: readonly string[], blobs: readonly string[]): TableSink {
    return new RowWriter(
      this.trx,
      table,
      columns,
      blobs.length > 0
        ? { columns: blobs, encode: (json) => this.store.encodeBody(json) }
        : undefined,
    );
  }

  async delete(table: string, id: string): Promise<void> {
    await this.trx
      .deleteFrom(table as 'people')
      .where('workspace_id', '=', this.workspaceId)
      .where('id', '=', id)
      .execute();
  }

  lookups(): Promise<Lookups> {
    return Lookups.load(this.trx, this.workspaceId);
  }

  async refresh(records: [RenderedType, string[]][]): Promise<void> {
    await refreshRecords(this.store, this.trx, this.workspaceId, records);
  }

  bumpDataVersion(): Promise<void> {
    return bumpDataVersion(this.trx, this.workspaceId);
  }

  readonly busy = false;

  async drain(): Promise<void> {}
}

/** Renders records again from the database (in the transaction `trx`). */
export async function refreshRecords(
  store: Store,
  trx: Executor,
  workspaceId: string,
  records: [RenderedType, string[]][],
): Promise<void> {
  const touched = new Touched();
  for (const [type, ids] of records) for (const id of ids) touched.mark(type, id);
  await refreshTouched(store, trx, workspaceId, touched);
}

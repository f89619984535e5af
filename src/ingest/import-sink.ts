import { sql } from 'kysely';
import type { Executor, Store } from '../store/database.ts';
import { RowWriter, rowInsertSql } from '../store/insert.ts';
import type { EventLog } from '../store/outbox/event-log.ts';
import { Lookups } from '../store/read-model/lookups.ts';
import { refreshTouched } from '../store/read-model/refresh.ts';
import type { RenderedType } from '../store/read-model/rendered-types.ts';
import { Touched } from '../store/read-model/touched.ts';
import type { SqliteWriterThread } from '../store/sqlite-thread.ts';
import { bumpDataVersion } from '../store/write.ts';

/** The rows of one table an import writes, each an array of values in the writer's columns. */
export interface TableSink {
  /** Writes a row (or hands it on, or keeps it for `flush`). */
  add(values: unknown[]): void;
  /** Rows kept for `flush`. */
  readonly pending: number;
  flush(): Promise<void>;
}

/**
 * Where an import's writes go, inside its one transaction: the transaction's connection on
 * this thread, or a SQLite writer thread's (`ThreadSink`), which writes the rows while this
 * thread reads and renders the next ones.
 */
export interface ImportSink {
  /** A writer of `table`; the `blobs` columns take rendered JSON as text. */
  writer(table: string, columns: readonly string[], blobs: readonly string[]): TableSink;
  /** Removes the rows written before whose `column` (default `id`) is `id`. */
  delete(table: string, id: string, column?: string): Promise<void>;
  /**
   * Runs a statement without parameters (a `create index`) after the writes handed on
   * before it; on a writer thread, without waiting for it (a failure shows at `drain`).
   */
  exec(statement: string): Promise<void>;
  /** The workspace's lookups (users, teams, pipelines, ..., field definitions) as written. */
  lookups(): Promise<Lookups>;
  /** Renders these records again from the database, as written. */
  refresh(records: [RenderedType, string[]][], events?: EventLog): Promise<void>;
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
    protected readonly trx: Executor,
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

  async delete(table: string, id: string, column = 'id'): Promise<void> {
    await this.trx
      .deleteFrom(table as 'people')
      .where('workspace_id', '=', this.workspaceId)
      .where(column as 'id', '=', id)
      .execute();
  }

  async exec(statement: string): Promise<void> {
    await sql.raw(statement).execute(this.trx);
  }

  lookups(): Promise<Lookups> {
    return Lookups.load(this.trx, this.workspaceId);
  }

  async refresh(records: [RenderedType, string[]][], events?: EventLog): Promise<void> {
    await refreshRecords(this.store, this.trx, this.workspaceId, records, events);
  }

  bumpDataVersion(): Promise<void> {
    return bumpDataVersion(this.trx, this.workspaceId);
  }

  get busy(): boolean {
    return false;
  }

  async drain(): Promise<void> {}
}

/** Rows a table's writer gathers before it posts them to the writer thread. */
const THREAD_BATCH_ROWS = 500;
/** Batches posted and not yet written past which the import waits (`busy`). */
const THREAD_MAX_IN_FLIGHT = 16;

/**
 * An import's writes on a SQLite writer thread, whose connection holds the transaction
 * (`trx` runs there, see `storeOnThread`): rows are posted in batches without waiting, and
 * the import waits only when the thread falls behind. Reads, deletes and refreshes run
 * there too, after the rows posted before them.
 */
export class ThreadSink extends TransactionSink {
  constructor(
    store: Store,
    trx: Executor,
    workspaceId: string,
    private readonly thread: SqliteWriterThread,
  ) {
    super(store, trx, workspaceId);
  }

  override writer(table: string, columns: readonly string[], blobs: readonly string[]): TableSink {
    const sql = rowInsertSql(this.trx, table, columns, blobs);
    if (sql === '') return super.writer(table, columns, blobs);
    return new ThreadTableSink(this.thread, sql);
  }

  override async exec(statement: string): Promise<void> {
    this.thread.post(statement, [[]]);
  }

  override get busy(): boolean {
    return this.thread.inFlight > THREAD_MAX_IN_FLIGHT;
  }

  override drain(): Promise<void> {
    return this.thread.drain(THREAD_MAX_IN_FLIGHT / 2);
  }
}

/** One table's rows, posted to the writer thread a batch at a time. */
class ThreadTableSink implements TableSink {
  private rows: unknown[][] = [];

  constructor(
    private readonly thread: SqliteWriterThread,
    private readonly sql: string,
  ) {}

  add(values: unknown[]): void {
    this.rows.push(values);
    if (this.rows.length >= THREAD_BATCH_ROWS) this.post();
  }

  get pending(): number {
    return this.rows.length;
  }

  async flush(): Promise<void> {
    if (this.rows.length > 0) this.post();
  }

  private post(): void {
    this.thread.post(this.sql, this.rows);
    this.rows = [];
  }
}

/** Renders records again from the database (in the transaction `trx`). */
export async function refreshRecords(
  store: Store,
  trx: Executor,
  workspaceId: string,
  records: [RenderedType, string[]][],
  events?: EventLog,
): Promise<void> {
  const touched = new Touched();
  for (const [type, ids] of records) for (const id of ids) touched.mark(type, id);
  await refreshTouched({ store, trx, workspaceId, touched, events });
}

import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { now } from '../domain/time.ts';
import { HostPool } from '../store/postgres-host-pool.ts';
import { openSqliteDatabase } from '../store/sqlite-open-files.ts';
import { FORMAT_NAME, FORMAT_VERSION, LINE_FORMATS, type LineFormat } from './transfer-format.ts';

/**
 * Which rows of a table the export takes, where not all: files whose upload finished, and
 * their chunks (an `uploading` file is seen by nobody, and a later upload sweeps it away).
 * Static SQL, the same on both stores.
 */
const EXPORTED_ONLY: Readonly<Record<string, string>> = {
  files: "status = 'ready'",
  file_chunks:
    "file_id in (select f.id from files f where f.workspace_id = file_chunks.workspace_id and f.status = 'ready')",
};

/** `where` of a table's exported rows (the workspace's `?`/`$1`, then `EXPORTED_ONLY`). */
function exported(table: string, param: string): string {
  const only = EXPORTED_ONLY[table];
  return `workspace_id = ${param}${only ? ` and ${only}` : ''}`;
}

/**
 * Rows read at a time where a row is large: a file chunk is up to 256 KiB, so the export
 * holds a few of them, never a whole file.
 */
const BATCH_ROWS: Readonly<Record<string, number>> = { file_chunks: 4 };

/** Bytes gathered before each write to the output. */
const CHUNK_BYTES = 256 * 1024;

/** What an export wrote. */
export interface ExportResult {
  /** Data lines by type (the header aside). */
  counts: Record<string, number>;
  records: number;
}

/** Rows of exactly one export, read inside one snapshot of the database. */
interface ExportSource {
  /** The workspace's id and name, or undefined when there is none. */
  workspace(id: string): Promise<{ id: string; name: string } | undefined>;
  count(table: string, workspaceId: string): Promise<number>;
  /**
   * The rows of a workspace's `table`, its `columns` in order, sorted by the `order` columns
   * (text in byte order on both stores; `numbers` are not text), in batches of at most
   * `batch` rows, streamed.
   */
  rows(
    table: string,
    columns: readonly string[],
    order: { columns: readonly string[]; numbers: ReadonlySet<string> },
    workspaceId: string,
    batch: number,
  ): AsyncIterable<unknown[][]>;
  close(): Promise<void>;
}

/**
 * Writes workspace `workspaceId` of the database at `location` (a SQLite path, or a
 * PostgreSQL URL) to `out` as NDJSON (`docs/import-format.md`). It reads on a connection of
 * its own inside one read transaction (a repeatable-read one on PostgreSQL), so the file is
 * one consistent snapshot while writers go on, and streams each table with a cursor,
 * waiting for `out` to drain: memory stays flat at any size. Both stores write the same
 * lines in the same order (ids ordered by their bytes).
 */
export async function exportWorkspace(
  location: string,
  workspaceId: string,
  out: Writable,
  onProgress?: (records: number, total: number) => void,
): Promise<ExportResult> {
  const source = /^postgres(ql)?:\/\//.test(location)
    ? await postgresSource(location)
    : sqliteSource(location);
  try {
    const workspace = await source.workspace(workspaceId);
    if (!workspace) throw new ExportError(`no workspace with id '${workspaceId}'`);
    const counts: Record<string, number> = {};
    let total = 0;
    for (const f of LINE_FORMATS) {
      const n = await source.count(f.table, workspaceId);
      counts[f.type] = n;
      total += n;
    }
    let buffer = `${JSON.stringify({
      type: 'header',
      format: FORMAT_NAME,
      version: FORMAT_VERSION,
      workspace: { id: workspace.id, name: workspace.name },
      exportedAt: now(),
      counts,
    })}\n`;
    let records = 0;
    const flush = async () => {
      if (!out.write(buffer)) await once(out, 'drain');
      buffer = '';
    };
    for (const f of LINE_FORMATS) {
      const line = lineWriter(f);
      const numbers = new Set(
        f.columns.filter((c) => c.type.kind === 'int' || c.type.kind === 'num').map((c) => c.name),
      );
      const columns = f.columns.map((c) => c.name);
      const batches = source.rows(
        f.table,
        columns,
        { columns: f.order, numbers },
        workspaceId,
        BATCH_ROWS[f.table] ?? Number.POSITIVE_INFINITY,
      );
      for await (const batch of batches) {
        for (const row of batch) {
          buffer += line(row);
          records++;
          if (buffer.length >= CHUNK_BYTES) {
            await flush();
            onProgress?.(records, total);
          }
        }
      }
    }
    await flush();
    onProgress?.(records, total);
    return { counts, records };
  } finally {
    await source.close();
  }
}

/** Rows a cursor of SQLite hands over per batch. */
const SQLITE_BATCH = 1_000;

function sqliteSource(path: string): ExportSource {
  const db = openSqliteDatabase(path, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 10000');
  db.exec('begin');
  return {
    async workspace(id) {
      return db.prepare('select id, name from workspaces where id = ?').get(id) as
        | { id: string; name: string }
        | undefined;
    },
    async count(table, workspaceId) {
      return db
        .prepare(`select count(*) from ${table} where ${exported(table, '?')}`)
        .pluck()
        .get(workspaceId) as number;
    },
    async *rows(table, columns, order, workspaceId, most) {
      // SQLite compares text by its bytes (BINARY) already.
      const sql = `select ${columns.join(', ')} from ${table} where ${exported(table, '?')} order by ${order.columns.join(', ')}`;
      const rows = db.prepare(sql).raw(true).iterate(workspaceId) as IterableIterator<unknown[]>;
      const size = Math.min(SQLITE_BATCH, most);
      let batch: unknown[][] = [];
      for (const row of rows) {
        batch.push(row);
        if (batch.length === size) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
    },
    async close() {
      if (db.inTransaction) db.exec('commit');
      db.close();
    },
  };
}

/** Rows one `fetch` of a PostgreSQL cursor brings. */
const POSTGRES_BATCH = 2_000;

async function postgresSource(url: string): Promise<ExportSource> {
  // One connection, to the first host of the URL that will do (libpq's multi-host URL too).
  const hosts = new HostPool(url, { max: 1 });
  hosts.pool.on('error', () => {});
  const client = await hosts.connect().catch(async (error: unknown) => {
    await hosts.end();
    throw error;
  });
  // One snapshot for the whole file, as SQLite's read transaction gives.
  await client.query('begin isolation level repeatable read, read only');
  let cursors = 0;
  return {
    async workspace(id) {
      const { rows } = await client.query<{ id: string; name: string }>(
        'select id, name from workspaces where id = $1',
        [id],
      );
      return rows[0];
    },
    async count(table, workspaceId) {
      const { rows } = await client.query<{ n: string }>(
        `select count(*) as n from ${table} where ${exported(table, '$1')}`,
        [workspaceId],
      );
      return Number(rows[0]!.n);
    },
    async *rows(table, columns, order, workspaceId, most) {
      const name = `export_${cursors++}`;
      // Text in byte order (`collate "C"`), as SQLite orders it: both stores write the same lines.
      const byBytes = order.columns.map((c) => (order.numbers.has(c) ? c : `${c} collate "C"`));
      const size = Math.min(POSTGRES_BATCH, most);
      await client.query(
        `declare ${name} no scroll cursor for select ${columns.join(', ')} from ${table} where ${exported(table, '$1')} order by ${byBytes.join(', ')}`,
        [workspaceId],
      );
      for (;;) {
        const { rows } = await client.query({
          text: `fetch ${size} from ${name}`,
          rowMode: 'array',
        });
        if (rows.length === 0) break;
        yield rows as unknown[][];
      }
      await client.query(`close ${name}`);
    },
    async close() {
      try {
        await client.query('commit');
      } finally {
        client.release();
        await hosts.end();
      }
    },
  };
}

/** A refused export (unknown workspace). */
export class ExportError extends Error {}

/**
 * A function writing one row as its NDJSON line, built once per line type: key prefixes are
 * precomputed, JSON columns are copied as their stored JSON text.
 */
function lineWriter(f: LineFormat): (row: unknown[]) => string {
  const head = `{"type":${JSON.stringify(f.type)}`;
  const keys = f.columns.map((c) => `,${JSON.stringify(c.key)}:`);
  const kinds = f.columns.map((c) => c.type.kind);
  return (row) => {
    let s = head;
    for (let i = 0; i < row.length; i++) {
      const v = row[i];
      s += keys[i]!;
      if (v === null || v === undefined) s += 'null';
      else if (kinds[i] === 'bool') s += v ? 'true' : 'false';
      else if (kinds[i] === 'json') s += v as string;
      else if (kinds[i] === 'int' || kinds[i] === 'num') s += String(Number(v));
      else if (kinds[i] === 'bytes') s += `"${(v as Buffer).toString('base64')}"`;
      else if (typeof v === 'string') s += JSON.stringify(v);
      else s += String(v);
    }
    return `${s}}\n`;
  };
}

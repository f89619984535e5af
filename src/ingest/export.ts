import { once } from 'node:events';
import type { Writable } from 'node:stream';
import SQLite from 'better-sqlite3';
import { now } from '../domain/time.ts';
import { FORMAT_NAME, FORMAT_VERSION, LINE_FORMATS, type LineFormat } from './transfer-format.ts';

/** Bytes gathered before each write to the output. */
const CHUNK_BYTES = 256 * 1024;

/** What an export wrote. */
export interface ExportResult {
  /** Data lines by type (the header aside). */
  counts: Record<string, number>;
  records: number;
}

/**
 * Writes workspace `workspaceId` of the SQLite database at `path` to `out` as NDJSON
 * (`docs/import-format.md`). It reads on a connection of its own inside one read
 * transaction, so the file is one consistent snapshot while writers go on, and streams
 * each table with a SQLite cursor, waiting for `out` to drain: memory stays flat at any size.
 */
export async function exportWorkspace(
  path: string,
  workspaceId: string,
  out: Writable,
  onProgress?: (records: number, total: number) => void,
): Promise<ExportResult> {
  const db = new SQLite(path, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 10000');
    db.exec('begin');
    const workspace = db.prepare('select id, name from workspaces where id = ?').get(workspaceId) as
      | { id: string; name: string }
      | undefined;
    if (!workspace) throw new ExportError(`no workspace with id '${workspaceId}'`);
    const counts: Record<string, number> = {};
    let total = 0;
    for (const f of LINE_FORMATS) {
      const n = db
        .prepare(`select count(*) from ${f.table} where workspace_id = ?`)
        .pluck()
        .get(workspaceId) as number;
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
      const order = f.columns[0]!.name === 'id' ? 'id' : 'team_id, position, user_id';
      const rows = db
        .prepare(
          `select ${f.columns.map((c) => c.name).join(', ')} from ${f.table} where workspace_id = ? order by ${order}`,
        )
        .raw(true)
        .iterate(workspaceId) as IterableIterator<unknown[]>;
      for (const row of rows) {
        buffer += line(row);
        records++;
        if (buffer.length >= CHUNK_BYTES) {
          await flush();
          onProgress?.(records, total);
        }
      }
    }
    await flush();
    onProgress?.(records, total);
    db.exec('commit');
    return { counts, records };
  } finally {
    db.close();
  }
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
      else if (typeof v === 'string') s += JSON.stringify(v);
      else s += String(v);
    }
    return `${s}}\n`;
  };
}

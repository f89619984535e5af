import { createReadStream, createWriteStream, statSync, type WriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { deferIndexesOfALoneWorkspace } from '../store/bulk-load.ts';
import { bumpCatalogVersion } from '../store/catalog.ts';
import type { Executor, Store } from '../store/database.ts';
import { SqliteWriterThread, storeOnThread } from '../store/sqlite-thread.ts';
import type { CsvType } from './csv-types.ts';
import { CsvImporter, csvTypeOfName } from './import-csv.ts';
import { NdjsonImporter, type Reject } from './import-ndjson.ts';
import { ThreadSink } from './import-sink.ts';
import { importWrite } from './import-writes.ts';
import { LineTooLongError, ndjsonFileLines, ndjsonLines } from './ndjson-lines.ts';

/** What to import. */
export interface ImportOptions {
  workspaceId: string;
  /** Paths; `-` is standard input. */
  files: string[];
  /** Reads CSV files as records of this type (default: from each CSV file's name). */
  csvType?: CsvType;
  /** The user CSV records are created by (owner unless `담당자` says otherwise). */
  actorId: string;
  /** Import the good lines and write the refused ones to `rejectsPath`. */
  skipInvalid?: boolean;
  rejectsPath?: string;
  /** Most refused lines kept in the result (all are counted). Default 100. */
  maxReported?: number;
  /** Called as lines are read: records accepted, bytes read, bytes in all (0 if unknown). */
  onProgress?: (records: number, bytes: number, totalBytes: number) => void;
  /** Standard input, for `-` (tests pass their own). */
  stdin?: Readable;
  /**
   * Runs first in the import's transaction (a pull empties the workspace it brings up to
   * date, so that the import replaces its records in one commit).
   */
  beforeImport?: (trx: Executor) => Promise<void>;
}

/** What an import did. */
export interface ImportResult {
  /** True when the records were committed. */
  committed: boolean;
  records: number;
  counts: Record<string, number>;
  /** Refused lines, the first `maxReported`. */
  rejects: Reject[];
  rejectCount: number;
  rejectsPath?: string;
}

class Refused extends Error {}

/**
 * Imports NDJSON exports and CSV files into a workspace as one transaction: all of it, or,
 * when a line is refused and `skipInvalid` is off, nothing. Records keep their ids; the
 * read model is rendered once at the end, and the workspace's data version moves.
 */
export async function importFiles(store: Store, options: ImportOptions): Promise<ImportResult> {
  const max = options.maxReported ?? 100;
  const rejects: Reject[] = [];
  let rejectCount = 0;
  let rejectsOut: WriteStream | undefined;
  const rejectsPath =
    options.rejectsPath ?? `${options.files.find((f) => f !== '-') ?? 'import'}.rejects.ndjson`;
  const reject = (r: Reject) => {
    rejectCount++;
    if (rejects.length < max) rejects.push({ file: r.file, line: r.line, reason: r.reason });
    if (options.skipInvalid) {
      rejectsOut ??= createWriteStream(rejectsPath);
      rejectsOut.write(`${JSON.stringify(r)}\n`);
    }
  };
  const totalBytes = options.files.reduce((n, f) => (f === '-' ? n : n + statSync(f).size), 0);
  let bytesBefore = 0;
  const result: ImportResult = {
    committed: false,
    records: 0,
    counts: {},
    rejects,
    rejectCount: 0,
  };
  let cleanup = () => {};
  const withCsv = options.files.some((f) => isCsvFile(f, options.csvType));
  // NDJSON into a SQLite file: the rows are written on a thread of their own while this one
  // reads, checks and renders. (CSV rows go through the API's writes, query by query.)
  const thread =
    store.file !== undefined && !withCsv ? await SqliteWriterThread.start(store.file) : undefined;
  const target = thread ? storeOnThread(store, thread) : store;
  try {
    await target.transaction(async (trx) => {
      const w = importWrite(target, trx, options.workspaceId);
      // CSV rows may name records of the NDJSON files before them, so with CSV files every
      // record is written as it is read, and the workspace rendered again at the end.
      const ndjson = new NdjsonImporter(w, undefined, {
        renderAtInsert: !withCsv,
        sink: thread ? new ThreadSink(target, trx, options.workspaceId, thread) : undefined,
      });
      cleanup = () => ndjson.close();
      await options.beforeImport?.(trx);
      await ndjson.prepare();
      // An NDJSON import into an empty workspace, alone in its database (a move into a new
      // database), loads the rows without the secondary indexes and builds each table's once
      // the table is complete.
      // (CSV rows go through the API's writes, which look records up by those indexes.)
      if (!withCsv && ndjson.workspaceWasEmpty) {
        ndjson.useDeferredIndexes(await deferIndexesOfALoneWorkspace(target, trx));
      }
      let csvRecords = 0;
      for (const file of options.files) {
        let bytes = 0;
        const counted = (input: Readable) =>
          input.on('data', (chunk: Buffer | string) => {
            bytes += chunk.length;
          });
        const stdin = () => counted(options.stdin ?? process.stdin);
        const progress = () =>
          options.onProgress?.(ndjson.records + csvRecords, bytesBefore + bytes, totalBytes);
        const csvType =
          options.csvType ?? (file.endsWith('.csv') ? csvTypeOfName(file) : undefined);
        if (isCsvFile(file, options.csvType)) {
          if (!csvType) {
            throw new ImportUsageError(
              `${file}: cannot tell the record type from the name: use --type people|organization|deal|lead`,
            );
          }
          await ndjson.flush();
          const csv = new CsvImporter(w, csvType, options.actorId);
          let first = true;
          const parser = (file === '-' ? stdin() : counted(createReadStream(file))).pipe(
            parse({ bom: true, relax_column_count: true, skip_empty_lines: true, info: true }),
          );
          try {
            for await (const { record, info } of parser as AsyncIterable<{
              record: string[];
              info: { lines: number };
            }>) {
              const reason = first ? await csv.header(record) : await csv.row(record);
              if (reason) {
                reject({ file, line: info.lines, reason, text: record.join(',') });
                if (first) break;
              }
              if (!first) {
                csvRecords = csv.records;
                if ((csvRecords & 1023) === 0) progress();
              }
              first = false;
            }
          } catch (error) {
            // A quote never closed, a character after a closing quote: no row can be trusted.
            if (error instanceof CsvError) throw new CsvSyntaxError(file, error);
            throw error;
          }
          const key = csvType === 'people' ? 'person' : csvType;
          result.counts[key] = (result.counts[key] ?? 0) + csv.records;
        } else {
          let lineNo = 0;
          try {
            const batches =
              file === '-'
                ? ndjsonLines(stdin())
                : ndjsonFileLines(file, (n) => {
                    bytes += n;
                  });
            for await (const batch of batches) {
              for (const text of batch) {
                lineNo++;
                if (text.length === 0 || (text.charCodeAt(0) <= 32 && text.trim() === '')) {
                  continue;
                }
                const reason = ndjson.line(file, lineNo, text);
                if (reason) reject({ file, line: lineNo, reason, text });
              }
              if (ndjson.full) await ndjson.flush();
              progress();
            }
          } catch (error) {
            if (error instanceof LineTooLongError) {
              throw new LineTooLongError(`${file}:${lineNo + 1}: `);
            }
            throw error;
          }
        }
        bytesBefore += bytes;
        // This file's bytes are in bytesBefore now: counted twice, the last line said 200%.
        bytes = 0;
        progress();
      }
      for (const r of await ndjson.finish(options.skipInvalid === true)) reject(r);
      if (rejectCount > 0 && !options.skipInvalid) throw new Refused();
      for (const [type, n] of Object.entries(ndjson.counts)) {
        result.counts[type] = (result.counts[type] ?? 0) + n;
      }
      result.records = Object.values(result.counts).reduce((a, b) => a + b, 0);
      await ndjson.render();
      // An import may write any table of the catalog (users, teams, pipelines, fields, ...).
      await bumpCatalogVersion(trx, options.workspaceId);
    });
    result.committed = true;
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
  } finally {
    cleanup();
    await thread?.close();
    result.rejectCount = rejectCount;
    if (rejectsOut) {
      result.rejectsPath = rejectsPath;
      await new Promise((resolve) => rejectsOut!.end(resolve));
    }
  }
  return result;
}

/** True when `file` is read as CSV: a `.csv` name, or any file with `--type`. */
function isCsvFile(file: string, csvType: CsvType | undefined): boolean {
  return file.toLowerCase().endsWith('.csv') || csvType !== undefined;
}

export { LineTooLongError, MAX_LINE_CHARS, ndjsonLines } from './ndjson-lines.ts';

/** An import that cannot start (a CSV file of unknown type). */
export class ImportUsageError extends Error {}

/** A CSV file that cannot be parsed (an unclosed quote, ...): the import is refused whole. */
export class CsvSyntaxError extends Error {
  constructor(file: string, cause: CsvError) {
    super(`${file === '-' ? 'standard input' : file}: not a readable CSV file: ${cause.message}`, {
      cause,
    });
  }
}

/**
 * Reading an import's NDJSON lines: each one parsed and checked against its line type's
 * schema, then handed to the checks and the writing.
 */
import { SOURCE_IMPORT } from '../resources/owned.ts';
import type { DeferredIndexes } from '../store/bulk-load.ts';
import type { WorkspaceWrite } from '../store/write.ts';
import { ImportChecks } from './import-checks.ts';
import type { ImportSink } from './import-sink.ts';
import { ImportWriter } from './import-writes.ts';
import { checkHeader, FORMAT_OF, type LineFormat } from './transfer-format.ts';

/** One refused line. */
export interface Reject {
  file: string;
  line: number;
  reason: string;
  /** The line as read, for the rejects file. */
  text?: string;
}

/**
 * One import of NDJSON lines into a workspace, inside one write transaction: each line read
 * as JSON and checked against its line type's schema, then against what the workspace and
 * the lines before it hold (`ImportChecks`), and written (`ImportWriter`).
 */
export class NdjsonImporter {
  /** The ids, keys and definitions the lines are checked against. */
  private readonly checks = new ImportChecks();
  /** The writing of the accepted lines. */
  private readonly writer: ImportWriter;
  readonly counts: Record<string, number> = {};
  records = 0;
  private headerSeen = false;

  constructor(
    readonly w: WorkspaceWrite,
    sourceDefault: string = SOURCE_IMPORT,
    options: { renderAtInsert?: boolean; sink?: ImportSink } = {},
  ) {
    this.writer = new ImportWriter(w, sourceDefault, options);
  }

  /** True when the workspace held no records the store keeps rendered (seen by `prepare`). */
  get workspaceWasEmpty(): boolean {
    return this.writer.workspaceWasEmpty;
  }

  /**
   * Takes the indexes the caller dropped for this import (`deferIndexesOfALoneWorkspace`),
   * made again as their tables fill (`ImportWriter.useDeferredIndexes`).
   */
  useDeferredIndexes(indexes: DeferredIndexes): void {
    this.writer.useDeferredIndexes(indexes);
  }

  /** Loads what the workspace already holds: ids, unique keys, definitions. */
  async prepare(): Promise<void> {
    await this.checks.prepare(this.w, (type, rows) => this.writer.heldBefore(type, rows));
  }

  /** True when enough rows are buffered that the caller should `flush()` them. */
  get full(): boolean {
    return this.writer.full;
  }

  /**
   * Checks one NDJSON line and writes (or keeps) its row; returns the reason it is refused, or
   * undefined. Nothing of a refused line is kept. Synchronous, so a reader loop pays no
   * promise per line: it calls `flush()` when `full`.
   */
  line(file: string, lineNo: number, text: string): string | undefined {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return `not JSON: ${(error as Error).message}`;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return 'not a JSON object';
    const record = value as Record<string, unknown>;
    if (record.type === 'header') {
      if (!checkHeader.Check(record)) {
        const e = checkHeader.Errors(record).First();
        return `header: ${e ? `${e.path || '/'} ${e.message}` : 'invalid'}`;
      }
      if (this.headerSeen) return 'a second header line';
      this.headerSeen = true;
      return undefined;
    }
    const format = typeof record.type === 'string' ? FORMAT_OF.get(record.type) : undefined;
    if (!format) return `unknown line type ${JSON.stringify(record.type)}`;
    this.writer.nextLine(format);
    if (!format.check.Check(record)) {
      const e = format.check.Errors(record).First();
      return `${format.type}: ${e ? `${e.path || '/'}: ${e.message}` : 'invalid'}`;
    }
    const reason = this.checks.check(format, record, file, lineNo);
    if (reason) return `${format.type}${record.id ? ` '${record.id}'` : ''}: ${reason}`;
    this.accept(format, record, text, file, lineNo);
    return undefined;
  }

  private accept(
    f: LineFormat,
    r: Record<string, unknown>,
    text: string,
    file: string,
    lineNo: number,
  ): void {
    this.checks.accept(f, r, file, lineNo);
    this.counts[f.type] = (this.counts[f.type] ?? 0) + 1;
    this.records++;
    this.writer.write(f, r, text);
  }

  /** Writes the rows kept (history lines, and every row on PostgreSQL), in line type order. */
  flush(): Promise<void> {
    return this.writer.flush();
  }

  /**
   * Writes what is left and checks the custom Ref values that named records not seen yet,
   * and that each file's chunks make the whole file; returns the lines refused so. With
   * `removeRejected`, their records are removed again.
   */
  async finish(removeRejected: boolean): Promise<Reject[]> {
    await this.writer.flush();
    const rejects: Reject[] = [];
    for (const f of this.checks.incompleteFiles()) {
      rejects.push({ file: f.file, line: f.line, reason: f.reason });
      if (removeRejected) {
        await this.writer.remove('file', f.id);
        this.counts.file!--;
        this.counts.fileChunk = (this.counts.fileChunk ?? 0) - f.chunks;
        this.records -= 1 + f.chunks;
      }
    }
    for (const d of this.checks.unresolved()) {
      rejects.push({
        file: d.file,
        line: d.line,
        reason: `${d.type} '${d.id}': '${d.field}' 필드: no ${d.to} '${d.ref}'`,
      });
      if (removeRejected) {
        await this.writer.remove(d.type, d.id, d.counted);
        this.counts[d.type]!--;
        this.records--;
      }
    }
    return rejects;
  }

  /** Renders the records of the import and bumps the workspace's data version (`ImportWriter.render`). */
  render(): Promise<void> {
    return this.writer.render((productId) => this.checks.productKindOf(productId));
  }

  /** Gives up the temporary file (an import that is not committed). */
  close(): void {
    this.writer.close();
  }
}

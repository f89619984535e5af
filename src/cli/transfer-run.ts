/** What `salescrm export` and `import` do (`transfer.ts` declares them; imported when one runs). */
import { once } from 'node:events';
import {
  accessSync,
  constants,
  createWriteStream,
  lstatSync,
  rmSync,
  statSync,
  type WriteStream,
} from 'node:fs';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { getHeapStatistics } from 'node:v8';
import cliProgress from 'cli-progress';
import type { Config } from '../config.ts';
import type { CsvType } from '../ingest/csv-types.ts';
import { ExportError, exportWorkspace } from '../ingest/export.ts';
import {
  CsvSyntaxError,
  ImportUsageError,
  importFiles,
  LineTooLongError,
} from '../ingest/run-import.ts';
import { firstAdmin } from '../resources/workspaces/writes.ts';
import { parseDatabaseUrl } from '../store/database.ts';
import { UsageError } from './command.ts';
import { knownWorkspace } from './known-workspace.ts';
import { withStore } from './with-store.ts';

/** Progress on stderr: a bar on a terminal, a plain line every few seconds otherwise, or nothing. */
export function progressReporter(label: string, quiet: boolean) {
  const started = Date.now();
  if (quiet) return { update: (_r: number, _d: number, _t: number) => {}, stop: () => {} };
  const rate = (records: number) =>
    Math.round(records / Math.max(0.001, (Date.now() - started) / 1000));
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        format: `${label} [{bar}] {percentage}% | {records} records | {rate} records/s | ETA {eta_formatted}`,
        stream: process.stderr,
        hideCursor: true,
      },
      cliProgress.Presets.shades_classic,
    );
    let startedBar = false;
    return {
      update(records: number, done: number, total: number) {
        if (!startedBar) {
          bar.start(Math.max(total, 1), 0, { records: 0, rate: 0 });
          startedBar = true;
        }
        bar.setTotal(Math.max(total, done, 1));
        bar.update(done, { records, rate: rate(records) });
      },
      stop: () => startedBar && bar.stop(),
    };
  }
  let last = 0;
  return {
    update(records: number, done: number, total: number) {
      if (Date.now() - last < 2000) return;
      last = Date.now();
      const pct = total > 0 ? ` (${Math.floor((100 * done) / total)}%)` : '';
      process.stderr.write(`${label}: ${records} records${pct}, ${rate(records)} records/s\n`);
    },
    stop() {
      process.stderr.write(`${label}: done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    },
  };
}

/** `salescrm export --workspace ID [FILE] [--quiet]`: NDJSON to FILE or stdout. */
export async function runExport(
  config: Config,
  file: string | undefined,
  values: { workspace: string; quiet?: boolean },
): Promise<number> {
  const location = parseDatabaseUrl(config.databaseUrl);
  // Migrated (and closed, however the migration ends); the export reads on its own connection.
  await withStore(config, async () => undefined, { longRunning: true });
  const progress = progressReporter('export', values.quiet === true || !file || file === '-');
  let out: Writable = process.stdout;
  // Removed when the export fails: a file it made, or a regular file it emptied; never what
  // else FILE may name (a device such as /dev/stdout, a pipe, a symbolic link).
  let removable = false;
  try {
    if (file && file !== '-') {
      removable = lstatSync(file, { throwIfNoEntry: false })?.isFile() ?? true;
      out = await openForExport(file);
    }
    const source = location.dialect === 'sqlite' ? location.path : location.url;
    const result = await exportWorkspace(source, values.workspace, out, (r, t) =>
      progress.update(r, r, t),
    );
    progress.stop();
    if (out !== process.stdout) {
      out.end();
      await finished(out);
    }
    if (!values.quiet) process.stderr.write(`exported ${result.records} records\n`);
    return 0;
  } catch (error) {
    // An export that did not finish leaves no FILE that could pass for a whole one.
    if (out !== process.stdout) {
      out.destroy();
      if (removable) rmSync(file!, { force: true });
    }
    if (error instanceof ExportError) {
      console.error(`salescrm: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

/**
 * FILE opened for an export (made, or emptied), before anything is read; a file that cannot
 * be is refused in one line (its directory missing, not ours to write, a directory).
 */
async function openForExport(file: string): Promise<WriteStream> {
  const out = createWriteStream(file);
  try {
    await once(out, 'open');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' || code === 'ENOTDIR'
        ? 'no such directory'
        : code === 'EACCES' || code === 'EPERM'
          ? 'not allowed to write there'
          : code === 'EISDIR'
            ? 'it is a directory'
            : (error as Error).message;
    throw new ExportError(`cannot write '${file}': ${why}; nothing was exported`);
  }
  return out;
}

/**
 * JavaScript heap an NDJSON import holds per byte of its files, about: the facts its records
 * render from, and the ids that are not UUIDs (a million people's 4.2 GB export completes
 * within a 2 GiB heap, slowly; with 25% more room it runs at full speed).
 */
const HEAP_PER_FILE_BYTE = 0.6;

/**
 * A warning when files of `fileBytes` may need more heap than `heapLimit` bytes allows, with
 * the setting that gives more; undefined when they fit. V8 ends the process when its heap is
 * full, which an import survives only by its transaction: nothing is imported.
 */
export function heapWarning(fileBytes: number, heapLimit: number): string | undefined {
  const needed = fileBytes * HEAP_PER_FILE_BYTE;
  if (needed <= heapLimit * 0.9) return undefined;
  const gib = (n: number) => (n / 1024 ** 3).toFixed(1);
  const suggested = Math.ceil((needed * 1.25) / 1024 ** 3) * 1024;
  return (
    `salescrm: warning: importing ${gib(fileBytes)} GiB may need more memory than the ` +
    `JavaScript heap's limit (${gib(heapLimit)} GiB). If the import stops with "JavaScript ` +
    `heap out of memory" (nothing is imported then), run it again with ` +
    `NODE_OPTIONS=--max-old-space-size=${suggested}`
  );
}

/** Whether `file` is a regular file this process can open. */
function readable(file: string): boolean {
  try {
    accessSync(file, constants.R_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * `salescrm import --workspace ID FILE... [--type T] [--skip-invalid] [--rejects FILE]
 * [--user ID] [--quiet]`.
 */
export async function runImport(
  config: Config,
  positionals: string[],
  values: {
    workspace: string;
    type?: CsvType;
    skipInvalid?: boolean;
    rejects?: string;
    user?: string;
    quiet?: boolean;
  },
): Promise<number> {
  const csvType = values.type;
  const fileBytes = positionals.reduce((n, f) => {
    if (f === '-') return n;
    try {
      return n + statSync(f).size;
    } catch {
      return n; // a missing file is reported by the import itself
    }
  }, 0);
  const unreadable = positionals.find((f) => f !== '-' && !readable(f));
  if (unreadable !== undefined) {
    console.error(
      `salescrm: cannot read '${unreadable}': no such file, or not a file; nothing was imported`,
    );
    return 1;
  }
  const warning = heapWarning(fileBytes, getHeapStatistics().heap_size_limit);
  if (warning) console.error(warning);
  return withStore(
    config,
    async (store) => {
      if (!(await knownWorkspace(store, values.workspace))) return 1;
      const actorId = values.user ?? (await firstAdmin(store, values.workspace)) ?? '';
      const progress = progressReporter('import', values.quiet === true);
      let result: Awaited<ReturnType<typeof importFiles>>;
      try {
        result = await importFiles(store, {
          workspaceId: values.workspace,
          files: positionals,
          csvType,
          actorId,
          skipInvalid: values.skipInvalid,
          rejectsPath: values.rejects,
          onProgress: (records, done, total) => progress.update(records, done, total),
        });
      } catch (error) {
        if (error instanceof ImportUsageError) throw new UsageError(error.message);
        if (error instanceof LineTooLongError || error instanceof CsvSyntaxError) {
          console.error(`salescrm: ${error.message}; nothing was imported`);
          return 1;
        }
        throw error;
      } finally {
        progress.stop();
      }
      for (const r of result.rejects) console.error(`${r.file}:${r.line}: ${r.reason}`);
      if (result.rejectCount > result.rejects.length) {
        console.error(`... and ${result.rejectCount - result.rejects.length} more refused lines`);
      }
      if (!result.committed) {
        console.error(`import refused: ${result.rejectCount} bad lines, nothing imported`);
        return 1;
      }
      const counts = Object.entries(result.counts)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ');
      console.log(`imported ${result.records} records${counts ? ` (${counts})` : ''}`);
      if (result.rejectsPath) {
        console.log(`${result.rejectCount} refused lines written to ${result.rejectsPath}`);
      }
      return 0;
    },
    { longRunning: true },
  );
}

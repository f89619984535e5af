import { type Command, Option } from 'commander';
import { CSV_TYPES } from '../ingest/csv-types.ts';
import { lazyAction } from './command.ts';

/** Declares `export` on the program. */
export function exportCommand(program: Command): void {
  program
    .command('export')
    .description(
      'write a workspace as NDJSON, one record a line, from SQLite or PostgreSQL (docs/import-format.md)',
    )
    .argument('[FILE]', 'where to write (default, or -: standard output)')
    .requiredOption('--workspace <ID>', 'the workspace')
    .option('--quiet', 'no progress and no summary on standard error')
    .action(lazyAction(async () => (await import('./transfer-run.ts')).runExport));
}

/** Declares `import` on the program. */
export function importCommand(program: Command): void {
  program
    .command('import')
    .description(
      'import NDJSON exports or CSV files into a workspace, in one transaction (docs/import-format.md)',
    )
    .argument('<FILE...>', 'NDJSON or CSV files (- for standard input)')
    .requiredOption('--workspace <ID>', 'the workspace')
    .addOption(
      new Option(
        '--type <T>',
        "the CSV files' record type (default: from the file's name)",
      ).choices(CSV_TYPES),
    )
    .option('--skip-invalid', 'import the valid lines and skip the refused ones')
    .option('--rejects <FILE>', 'with --skip-invalid, write the refused lines there')
    .option('--user <ID>', "the user recorded as the records' creator (default: the admin)")
    .option('--quiet', 'no progress on standard error')
    .action(lazyAction(async () => (await import('./transfer-run.ts')).runImport));
}

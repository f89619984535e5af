/**
 * Child of `bench/import-export.ts`: runs one `salescrm export|import ...` command in this
 * process and prints, as the last line of stderr, `BENCH {"ms":..,"maxRssKb":..}`: the time of
 * the command itself (not the process start or the TypeScript loader) and the peak RSS.
 */

import { readFileSync } from 'node:fs';
import { runCli } from '../src/cli/program.ts';

const started = performance.now();
const code = await runCli(process.argv.slice(2));
const ms = performance.now() - started;
// Of the RSS at the end: anonymous memory (heaps) and file pages (SQLite's mmap of the database).
const status = readFileSync('/proc/self/status', 'utf8');
const kb = (name: string) =>
  Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN);
process.stderr.write(
  `\nBENCH ${JSON.stringify({ ms, maxRssKb: process.resourceUsage().maxRSS, anonKb: kb('RssAnon'), fileKb: kb('RssFile') })}\n`,
);
process.exitCode = code;

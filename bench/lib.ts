import { type ChildProcess, fork } from 'node:child_process';
import autocannon from 'autocannon';

/** Figures of one load run. */
export interface LoadFigures {
  name: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  errors: number;
}

/** Runs autocannon against a URL for `seconds`, with `connections` in flight. */
export async function load(
  name: string,
  url: string,
  opts: {
    seconds?: number;
    connections?: number;
    headers?: Record<string, string>;
    rate?: number;
  } = {},
): Promise<LoadFigures> {
  const result = await autocannon({
    url,
    connections: opts.connections ?? 10,
    duration: opts.seconds ?? 8,
    headers: opts.headers,
    overallRate: opts.rate,
  });
  return {
    name,
    reqPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

/** Starts a TypeScript entry point in a child process and waits for its 'ready' message. */
export async function startChild(
  entry: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<ChildProcess> {
  const child = fork(entry, args, {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${code}`)));
  });
  return child;
}

/** Stops a child process and waits for it to exit. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Formats a table of rows for the terminal and for docs/benchmarks.md. */
export function table(headers: string[], rows: (string | number)[][]): string {
  const cells = [headers, ...rows.map((r) => r.map((c) => (typeof c === 'number' ? fmt(c) : c)))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => String(r[i]).length)));
  const line = (r: (string | number)[]) =>
    `| ${r.map((c, i) => String(c).padEnd(widths[i]!)).join(' | ')} |`;
  return [
    line(cells[0]!),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...cells.slice(1).map(line),
  ].join('\n');
}

function fmt(n: number): string {
  if (Number.isInteger(n)) return n.toLocaleString('en-US');
  return n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2);
}

/**
 * How suites start `salescrm` in a child process: `spawn(process.execPath, [...salescrmArgs(),
 * ...ARGS])`.
 *
 * In a test run (vitest.config.ts names it: `SALESCRM_TEST_RUN`), the first child to start
 * compiles the sources once, type-stripping only (`tsc --noCheck`; `npm run typecheck` checks
 * the types), into a folder of the run's own at the top of the checkout (the build reads
 * `package.json` two levels up, as `dist` does). Every later child of the run, in any worker,
 * starts that build: about 0.4 s to a command's end where the sources through tsx take 1 to
 * 1.4 s (`token list`, `types`, `verify` on a demo workspace). A run whose suites start none
 * compiles nothing. vitest.config.ts removes the folder when the run ends. Outside a run, the
 * sources through tsx.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

/** The CLI's sources, as tsx runs them. */
const CLI_SOURCE = join(ROOT, 'src/cli/main.ts');

/** The longest a child waits for another worker's compile. */
const BUILD_WAIT_MS = 180_000;

/** The folder of a run's build. */
export function runBuildDir(run: string): string {
  return join(ROOT, `.test-cli-${run}`);
}

/** This process's build of the run, once made or found. */
let built: string | undefined;

/** The arguments of `node` that start `salescrm` (the command's own arguments follow). */
export function salescrmArgs(): string[] {
  const run = process.env.SALESCRM_TEST_RUN;
  if (!run) return ['--import', 'tsx', CLI_SOURCE];
  built ??= buildOnce(runBuildDir(run));
  return [built];
}

/**
 * The run's build of the CLI: made here when this process is the first to make the folder,
 * else waited for (another worker is making it).
 */
function buildOnce(dir: string): string {
  const main = join(dir, 'cli', 'main.js');
  const done = join(dir, '.built');
  const failed = join(dir, '.failed');
  try {
    mkdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    waitForFile([done, failed]);
    if (existsSync(failed))
      throw new Error(`the CLI's build failed: ${readFileSync(failed, 'utf8')}`);
    return main;
  }
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  try {
    execFileSync(
      process.execPath,
      [tsc, '-p', join(ROOT, 'tsconfig.build.json'), '--noCheck', '--outDir', dir],
      { cwd: ROOT, stdio: 'pipe' },
    );
  } catch (error) {
    const output = (error as { stdout?: Buffer }).stdout?.toString('utf8') ?? String(error);
    writeFileSync(failed, output);
    throw new Error(`the CLI's build failed: ${output}`);
  }
  writeFileSync(done, '');
  return main;
}

/** Blocks until one of `files` exists (a worker's other tests wait for its child anyway). */
function waitForFile(files: string[]): void {
  const deadline = Date.now() + BUILD_WAIT_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  while (!files.some((f) => existsSync(f))) {
    if (Date.now() > deadline) throw new Error(`no build of the CLI after ${BUILD_WAIT_MS} ms`);
    Atomics.wait(pause, 0, 0, 50);
  }
}

import { rmSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import { browserSkipReason } from './test/chromium.ts';
import { testServerUrl, unreachableReason } from './test/postgres.ts';
import { runBuildDir } from './test/salescrm-command.ts';

const shared = {
  // Guards against a hang, not measures (docs/development.md): on two cores shared with other
  // work (load 20 and more) a test that starts a `salescrm` process or writes a thousand
  // records took 30 to 35 s, past the 30 s these were.
  testTimeout: 120_000,
  hookTimeout: 180_000,
  // Two test files at a time even on two cores (the default is one fewer than the cores):
  // most suites wait on PostgreSQL, child processes and sockets, not on the CPU.
  maxWorkers: 2,
  // Test files of a worker share the modules they import (the app, the store, the libraries):
  // importing them anew for each of ~190 files cost 227 s of the run's CPU, a third of the
  // suite's time on two cores. Every file builds its own stores and apps; module state a
  // test changes (`searchTuning`, environment variables) is put back in its `finally`.
  isolate: false,
};

/**
 * The suites that take the longest (processes killed and restarted, many processes at once,
 * bodies of 64 MiB): `npm run test:slow` runs them, with the operation fuzz at full size;
 * `npm test` the rest, with the fuzz at 20 cases a kind. CI runs both.
 */
const SLOW = [
  'test/crash.test.ts',
  'test/scale-out.test.ts',
  'test/live-database.test.ts',
  'test/body-limit.test.ts',
  'test/shutdown.test.ts',
  'test/npm-start.test.ts',
  // Two clusters, a primary killed and a standby promoted under four writers (`npm run bench:failover`).
  'test/postgres-failover.test.ts',
  'test/pull-resume.test.ts',
  // Pulls through the CLI's processes, and a thousand workspaces made on each store.
  'test/pull-cli.test.ts',
  // Pulls of a demo workspace between two servers, and a pull following a source's writes:
  // 30 to 70 s each on a store (two servers, every read compared).
  'test/pull.test.ts',
  'test/pull-follow.test.ts',
  'test/tenants.test.ts',
];
const FUZZ = ['test/fuzz-operations-*.test.ts'];
/**
 * `SALESCRM_TEST_TIER`: unset for `npm test`; `slow` for `npm run test:slow` (the slow suites
 * and the fuzz at full size, both stores); `quick` for `npm run test:quick` (SQLite only, no
 * slow suite, no fuzz, no CLI spawns: the edit-test loop).
 */
const TIER = process.env.SALESCRM_TEST_TIER ?? 'default';
/** What `test:quick` leaves out besides: suites that spawn processes or a browser. */
const QUICK_ALSO_LEAVES = [
  'test/cli.test.ts',
  'test/events-cli.test.ts',
  'test/verify.test.ts',
  'test/backup.test.ts',
  'test/database-files.test.ts',
  'test/client-codegen.test.ts',
  'test/docs-page.test.ts',
  'test/custom-object-cli.test.ts',
  'test/listen-backlog.test.ts',
  'test/metrics.test.ts',
  'test/pull-cli.test.ts',
];

/** The include and exclude of a project in the tier that runs. */
function tiered(include: string[], exclude: string[] = []): { include: string[]; exclude: string[] } {
  if (TIER === 'slow') return { include: [...SLOW, ...FUZZ], exclude };
  if (TIER === 'quick') return { include, exclude: [...exclude, ...SLOW, ...FUZZ, ...QUICK_ALSO_LEAVES] };
  return { include, exclude: [...exclude, ...SLOW] };
}

/**
 * Two projects: the whole suite on SQLite, always, and the suites that use a store again on
 * PostgreSQL when `TEST_DATABASE_URL` (or a server on 127.0.0.1:5432) answers
 * (`SALESCRM_TEST_POSTGRES=0` skips it, `=required` fails when it cannot run). Unit tests
 * without a store, and tests of SQLite files as such, run on SQLite only.
 */
export default defineConfig(async () => {
  // The run's name, for the build of the CLI its suites start (test/salescrm-command.ts),
  // removed when the run ends. Not in watch mode, whose reruns would start a stale build.
  if (process.argv.includes('run') && process.env.SALESCRM_TEST_RUN === undefined) {
    const run = String(process.pid);
    process.env.SALESCRM_TEST_RUN = run;
    process.on('exit', () => rmSync(runBuildDir(run), { recursive: true, force: true }));
  }
  const serverUrl = testServerUrl();
  const skipped =
    process.env.SALESCRM_TEST_POSTGRES === '0'
      ? 'SALESCRM_TEST_POSTGRES=0'
      : await unreachableReason(serverUrl);
  if (skipped && process.env.SALESCRM_TEST_POSTGRES === 'required') {
    throw new Error(`PostgreSQL tests are required but ${new URL(serverUrl).host} fails: ${skipped}`);
  }
  if (skipped) {
    process.env.SALESCRM_POSTGRES_SKIPPED = skipped;
    const line = '!'.repeat(78);
    console.warn(
      `\n${line}\n!!! PostgreSQL tests SKIPPED: ${new URL(serverUrl).host} — ${skipped}\n` +
        `!!! Only the SQLite store is tested. Set TEST_DATABASE_URL to a server to test both.\n${line}\n`,
    );
  }
  // The /docs page test needs a browser: skipped without one, loudly, except on CI
  // (`CI=true`), where it runs and fails.
  const noBrowser = browserSkipReason();
  if (noBrowser) {
    process.env.SALESCRM_BROWSER_SKIPPED = noBrowser;
    const line = '!'.repeat(78);
    console.warn(
      `\n${line}\n!!! The /docs browser test (test/docs-page.test.ts) is SKIPPED: ${noBrowser}\n` +
        `!!! With CI=true it runs, and fails without a browser.\n${line}\n`,
    );
  }
  const sqliteSetup = [
    ...(skipped ? ['test/postgres-skipped.ts'] : []),
    ...(noBrowser ? ['test/browser-skipped.ts'] : []),
  ];
  return {
    test: {
      ...shared,
      pool: 'forks',
      projects: [
        {
          extends: true,
          test: {
            name: 'sqlite',
            ...tiered(TIER === 'slow' ? [] : ['src/**/*.test.ts', 'test/**/*.test.ts']),
            env: { SALESCRM_TEST_STORE: 'sqlite' },
            globalSetup: sqliteSetup,
          },
        },
        ...(skipped || TIER === 'quick'
          ? []
          : [
              {
                extends: true,
                test: {
                  name: 'postgres',
                  ...tiered(['test/**/*.test.ts'], [
                    // An SQLite file made by an old schema, and the CLI on SQLite files.
                    'test/migration-002.test.ts',
                    'test/cli.test.ts',
                    'test/events-cli.test.ts',
                    'test/pull-cli.test.ts',
                    // Export reads SQLite files only, for now.
                    'test/import-export.test.ts',
                    // The demo generator on SQLite files (its indexes, its bytes).
                    'test/demo.test.ts',
                    // SIGKILLs a server writing an SQLite file (WAL recovery, integrity_check).
                    'test/crash.test.ts',
                    // Other processes open a live SQLite file beside serve (its locks, its WAL).
                    'test/live-database.test.ts',
                    // SIGTERMs a server under keep-alive load (connections, not the store).
                    'test/shutdown.test.ts',
                    // The listening socket's backlog (the kernel's, not the store's).
                    'test/listen-backlog.test.ts',
                    // `npm start` on an SQLite file, stopped by a SIGTERM to npm.
                    'test/npm-start.test.ts',
                    // `salescrm serve` on SQLite files that are not databases, damaged or read-only.
                    'test/database-files.test.ts',
                    // Workers, their supervisor and Redis, always on an SQLite file of their own.
                    'test/scale-out.test.ts',
                    // `salescrm custom-object define` on an SQLite file of its own.
                    'test/custom-object-cli.test.ts',
                    // A body over the limit is refused while it arrives, before any query.
                    'test/body-limit.test.ts',
                    // The /docs page in a browser (its one request is the contract tests' too).
                    'test/docs-page.test.ts',
                    // The links between the Markdown documents (files, not the store).
                    'test/doc-links.test.ts',
                  ]),
                  globalSetup: ['test/postgres-setup.ts'],
                  env: { SALESCRM_TEST_STORE: 'postgres', TEST_DATABASE_URL: serverUrl },
                },
              },
            ]),
      ],
    },
  };
});

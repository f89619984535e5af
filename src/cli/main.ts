import { closest } from 'fastest-levenshtein';
import { ConfigError, loadConfig } from '../config.ts';
import { DatabaseFileError } from '../store/sqlite-file.ts';
import { isStoreUnavailable } from '../store/unavailable.ts';
import { runBackup } from './backup.ts';
import { runCustomObject } from './custom-object.ts';
import { runDemo } from './demo.ts';
import { runDispatch } from './dispatch.ts';
import { runEvents } from './events.ts';
import { UsageError } from './flags.ts';
import { runMcp } from './mcp.ts';
import { runMigrate } from './migrate.ts';
import { runServe } from './serve.ts';
import { runToken } from './token.ts';
import { runExport, runImport } from './transfer.ts';
import { runTypes } from './types.ts';
import { runVerify } from './verify.ts';
import { runWebhook } from './webhook.ts';
import { runWorkspace } from './workspace.ts';

const USAGE = `usage: salescrm <command> [options]

commands:
  start                          serve; on an empty database, first create a demo workspace
  serve [--port N] [--host H] [--workers N]
                                 run the HTTP API (migrates the database first); with
                                 --workers N (1-64), N processes share the port; each
                                 also sends webhook deliveries (WEBHOOK_DISPATCH=0: not)
  dispatch                       send webhook deliveries only (no API), until SIGTERM
  demo [--seed N] [--people N] [--json]
                                 create a workspace full of Korean demo data, print its token
  workspace create NAME [--json] create an empty workspace (with an admin user)
  token create --workspace ID [--read-only] [--name N] [--json]
                                 a token of the workspace's admin; --read-only: reads only
  token list --workspace ID
  token revoke ID
  mcp --token TOKEN              the MCP server for AI assistants on stdin/stdout (docs/mcp.md)
  migrate                        bring the database schema up to date
  types --workspace ID [--name T] print a .d.ts of the workspace's custom fields (client generic)
  custom-object define NAME --field NAME:TYPE... [--stages A,B] [--workspace ID] [--json]
                                 define a custom object (--field 금액:number, 딜:deal,
                                 상태:singleSelect:A,B); --stages gives it a pipeline
  export --workspace ID [FILE] [--quiet]
                                 write a workspace as NDJSON (docs/import-format.md)
  import --workspace ID FILE... [--type people|organization|deal|lead]
         [--skip-invalid] [--rejects FILE] [--user ID] [--quiet]
                                 import NDJSON exports or CSV files (- for stdin)
  events --workspace ID [--after N] [--object-type people|organization|lead|deal] [--follow]
                                 print the workspace's events as NDJSON; --follow waits for more
  webhook add --workspace ID --url URL --object people,deal [--event 생성,수정]
              [--field 이름,이메일] [--json]
                                 register a webhook (its URL is verified); prints its secret once
  webhook list --workspace ID [--json]
  webhook remove ID --workspace ID
  webhook deliveries ID --workspace ID [--status pending|delivered|failed] [--limit N] [--json]
  verify --workspace ID [--repair]
                                 render every record again from its tables and compare it with
                                 its stored JSON; --repair rewrites those that differ
  backup FILE [--force]          copy the SQLite database while it serves (PostgreSQL: pg_dump)

environment: DATABASE_URL (default sqlite:./data/salescrm.db), PORT, HOST, BASE_PATH,
RATE_LIMIT_MAX, RATE_LIMIT_WINDOW_MS, PAGE_CACHE_BYTES, LOG_LEVEL, LOG_REQUESTS, SLOW_REQUEST_MS,
METRICS, METRICS_PORT, REQUEST_TIMEOUT_MS, SALESCRM_TOKEN (mcp),
REDIS_URL (shared rate-limit counters), REDIS_KEY_PREFIX, REDIS_TIMEOUT_MS, SHUTDOWN_GRACE_MS,
EVENT_RETENTION_DAYS, WEBHOOK_ALLOW_PRIVATE (1: webhook URLs may reach private networks),
WEBHOOK_DISPATCH, WEBHOOK_RETRY_DELAYS, WEBHOOK_TIMEOUT_MS, WEBHOOK_CONCURRENCY,
WEBHOOK_CONCURRENCY_PER_WEBHOOK, WEBHOOK_POLL_MS`;

/** The commands, as USAGE lists them. */
const COMMANDS = [
  ...new Set([...USAGE.matchAll(/^ {2}([a-z][a-z-]*)\b/gm)].map((m) => m[1]!)),
] as const;

/** The lines of USAGE about `command` (all its forms, with their descriptions). */
function usageOf(command: string): string {
  const out: string[] = [];
  let mine = false;
  for (const line of USAGE.split('\n').slice(3)) {
    if (/^ {2}[a-z]/.test(line)) mine = line.startsWith(`  ${command} `) || line === `  ${command}`;
    else if (!/^ {3,}/.test(line)) mine = false;
    if (mine) out.push(line);
  }
  return `usage: salescrm ${command} [options]\n\n${out.join('\n')}`;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  // `salescrm COMMAND --help`: the command's own usage, and nothing run.
  if (command && COMMANDS.includes(command) && (rest.includes('--help') || rest.includes('-h'))) {
    console.log(usageOf(command));
    return 0;
  }
  const config = loadConfig();
  switch (command) {
    case 'start':
      return runServe(config, rest, { demoWhenEmpty: true });
    case 'serve':
      return runServe(config, rest, { demoWhenEmpty: false });
    case 'dispatch':
      return runDispatch(config, rest);
    case 'demo':
      return runDemo(config, rest);
    case 'workspace':
      return runWorkspace(config, rest);
    case 'token':
      return runToken(config, rest);
    case 'mcp':
      return runMcp(config, rest);
    case 'migrate':
      return runMigrate(config);
    case 'types':
      return runTypes(config, rest);
    case 'custom-object':
      return runCustomObject(config, rest);
    case 'export':
      return runExport(config, rest);
    case 'import':
      return runImport(config, rest);
    case 'events':
      return runEvents(config, rest);
    case 'webhook':
      return runWebhook(config, rest);
    case 'verify':
      return runVerify(config, rest);
    case 'backup':
      return runBackup(config, rest);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      console.log(USAGE);
      return command === undefined ? 2 : 0;
    default: {
      const near = closest(command, [...COMMANDS]);
      throw new UsageError(`unknown command '${command}' (did you mean '${near}'?)`);
    }
  }
}

/** Whether `error` is the server's failure to listen (a taken port, a privileged one). */
function isListenError(error: unknown): boolean {
  const { code, syscall } = error as NodeJS.ErrnoException;
  return syscall === 'listen' && (code === 'EADDRINUSE' || code === 'EACCES');
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0 || process.argv[2] !== 'serve') process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`salescrm: ${error.message}\n\n${USAGE}`);
      process.exitCode = 2;
    } else if (error instanceof ConfigError) {
      console.error(`salescrm: configuration: ${error.message}`);
      process.exitCode = 2;
    } else if (error instanceof DatabaseFileError) {
      // A file that is not a database, damaged or read-only: what to do, in one line.
      console.error(`salescrm: ${error.message}`);
      process.exitCode = 1;
    } else if (isListenError(error)) {
      // A port taken or not ours to take: the operator's to fix, in one line.
      const { code, address, port } = error as NodeJS.ErrnoException & {
        address?: string;
        port?: number;
      };
      const why = code === 'EADDRINUSE' ? 'something else listens there' : 'not allowed';
      console.error(
        `salescrm: cannot listen on ${address ?? ''}:${port ?? ''} (${code}: ${why}); set PORT or HOST, or stop the other server`,
      );
      process.exitCode = 1;
    } else if (isStoreUnavailable(error)) {
      // An operator's mistake or an outage, not a bug: one line, no stack.
      const reason = (error as Error).message || (error as { code?: string }).code || 'unreachable';
      console.error(`salescrm: the database cannot be reached (DATABASE_URL): ${reason}`);
      process.exitCode = 1;
    } else {
      console.error(`salescrm: ${(error as Error).stack ?? String(error)}`);
      process.exitCode = 1;
    }
  },
);

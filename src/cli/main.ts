import { ConfigError, loadConfig } from '../config.ts';
import { isStoreUnavailable } from '../store/unavailable.ts';
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

environment: DATABASE_URL (default sqlite:./data/salescrm.db), PORT, HOST, BASE_PATH,
RATE_LIMIT_MAX, RATE_LIMIT_WINDOW_MS, PAGE_CACHE_BYTES, LOG_LEVEL, LOG_REQUESTS,
REDIS_URL (shared rate-limit counters), REDIS_KEY_PREFIX, REDIS_TIMEOUT_MS, SHUTDOWN_GRACE_MS,
EVENT_RETENTION_DAYS, WEBHOOK_ALLOW_PRIVATE (1: webhook URLs may reach private networks),
WEBHOOK_DISPATCH, WEBHOOK_RETRY_DELAYS, WEBHOOK_TIMEOUT_MS, WEBHOOK_CONCURRENCY,
WEBHOOK_CONCURRENCY_PER_WEBHOOK, WEBHOOK_POLL_MS`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
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
    case 'export':
      return runExport(config, rest);
    case 'import':
      return runImport(config, rest);
    case 'events':
      return runEvents(config, rest);
    case 'webhook':
      return runWebhook(config, rest);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      console.log(USAGE);
      return command === undefined ? 2 : 0;
    default:
      throw new UsageError(`unknown command '${command}'`);
  }
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

/**
 * The `salescrm` program: every command, declared with commander (its arguments, options,
 * their parsers and help), and what the process answers to a mistake. `main.ts` runs it.
 */
import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config.ts';
import { DatabaseFileError } from '../store/sqlite-file.ts';
import { isStoreUnavailable } from '../store/unavailable.ts';
import { backupCommand } from './backup.ts';
import { isClosedStdout } from './closed-stdout.ts';
import { exitCodeOf, UsageError } from './command.ts';
import { customObjectCommand } from './custom-object.ts';
import { demoCommand } from './demo.ts';
import { dispatchCommand } from './dispatch.ts';
import { eventsCommand } from './events.ts';
import { mcpCommand } from './mcp.ts';
import { migrateCommand } from './migrate.ts';
import { pullCommand } from './pull.ts';
import { serveCommand, startCommand } from './serve.ts';
import { tokenCommand } from './token.ts';
import { exportCommand, importCommand } from './transfer.ts';
import { typesCommand } from './types.ts';
import { verifyCommand } from './verify.ts';
import { webhookCommand } from './webhook.ts';
import { workspaceCommand } from './workspace.ts';

/**
 * Every command, in the order the help lists them. A new command is a function in its own
 * file, `src/cli/<command>.ts`, that declares it on the program (`program.command(…)`, its
 * options, `.action(lazyAction(…))`), its work in `src/cli/<command>-run.ts`, imported only
 * when it runs (so that help, and any command, start without loading the application), and
 * one line here. The declarations and this file import only light modules.
 */
const COMMANDS: readonly ((program: Command) => void)[] = [
  startCommand,
  serveCommand,
  dispatchCommand,
  demoCommand,
  workspaceCommand,
  tokenCommand,
  mcpCommand,
  migrateCommand,
  typesCommand,
  customObjectCommand,
  exportCommand,
  importCommand,
  pullCommand,
  eventsCommand,
  webhookCommand,
  verifyCommand,
  backupCommand,
];

/** The settings the process reads from its environment (the table of docs/settings.md says more). */
export const ENVIRONMENT = `Environment:
  DATABASE_URL (default sqlite:./data/salescrm.db), DATABASE_READ_URL, DATABASE_POOL_MAX,
  DATABASE_LISTEN_URL (or off), DATABASE_CONNECT_TIMEOUT_MS, DATABASE_STATEMENT_TIMEOUT_MS,
  DATABASE_IDLE_TIMEOUT_MS, PG_PARTITIONS (hash partitions by workspace),
  PORT, HOST, BASE_PATH, RATE_LIMIT_MAX, RATE_LIMIT_WINDOW_MS, AUTH_FAILURE_LIMIT,
  TRUST_PROXY, PAGE_CACHE_BYTES, CATALOG_CACHE_BYTES, LOG_LEVEL,
  LOG_REQUESTS, SLOW_REQUEST_MS, METRICS, METRICS_PORT, REQUEST_TIMEOUT_MS, OVERLOAD_DELAY_MS,
  WORKSPACE_HEAVY_RUNNING, WORKSPACE_HEAVY_WAITING, READ_THREADS,
  SALESCRM_TOKEN (mcp), REDIS_URL (shared rate-limit counters), REDIS_KEY_PREFIX,
  REDIS_TIMEOUT_MS, SHUTDOWN_GRACE_MS, EVENT_RETENTION_DAYS,
  WEBHOOK_ALLOW_PRIVATE (1: webhook URLs may reach private networks), WEBHOOK_DISPATCH,
  WEBHOOK_RETRY_DELAYS, WEBHOOK_TIMEOUT_MS, WEBHOOK_CONCURRENCY,
  WEBHOOK_CONCURRENCY_PER_WEBHOOK, WEBHOOK_POLL_MS, WEBHOOK_SEND_GAP_MS, SMTP_URL (e-mail),
  SMTP_FROM`;

/** Where the program writes its help and its errors (tests capture them). */
export interface CliOutput {
  out(text: string): void;
  err(text: string): void;
}

const processOutput: CliOutput = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/** The program with every command declared; parsing it throws a CommanderError on a mistake. */
export function salescrmProgram(output: CliOutput = processOutput): Command {
  // Settings made before the commands are declared: each command inherits them.
  const program = new Command('salescrm')
    .usage('<command> [options]')
    .description('the sales CRM data API over SQLite or PostgreSQL, and its operations')
    .exitOverride()
    .showSuggestionAfterError()
    .configureOutput({
      writeOut: output.out,
      writeErr: output.err,
      // `error: unknown command 'serv'\n(Did you mean serve?)` → one line, named as ours
      // (`salescrm COMMAND --help` then shows the usage).
      outputError: (text, write) =>
        write(text.replace(/^error: /, 'salescrm: ').replace('\n(Did you mean', ' (Did you mean')),
    })
    .addHelpText('after', `\n${ENVIRONMENT}`);
  for (const declare of COMMANDS) declare(program);
  return program;
}

/**
 * Runs the program on `args` (the words after `salescrm`) and resolves with the exit code:
 * 0 ok (help included), 1 a failure, 2 a mistake on the command line or in the settings.
 * Operator mistakes get one line; a stack trace is for a bug only.
 */
export async function runCli(args: string[], output: CliOutput = processOutput): Promise<number> {
  const program = salescrmProgram(output);
  // `help token create` is `token create --help` (commander's help command goes one level).
  const words = args[0] === 'help' && args.length > 2 ? [...args.slice(1), '--help'] : args;
  try {
    await program.parseAsync(words, { from: 'user' });
    return exitCodeOf(program);
  } catch (error) {
    return failure(error, output);
  }
}

/** The one line (or, for a bug, the stack) an error gets, and its exit code. */
function failure(error: unknown, output: CliOutput): number {
  const say = (line: string) => output.err(`salescrm: ${line}\n`);
  // Its reader stopped reading the output (`| head`): nothing more is wanted, no failure.
  if (isClosedStdout(error)) return 0;
  if (error instanceof CommanderError) {
    // Commander has written its message (or the help); a help asked for is no mistake.
    return error.exitCode === 0 ? 0 : 2;
  }
  if (error instanceof UsageError) {
    say(error.message);
    return 2;
  }
  if (error instanceof ConfigError) {
    say(`configuration: ${error.message}`);
    return 2;
  }
  if (error instanceof DatabaseFileError) {
    // A file that is not a database, damaged or read-only: what to do, in one line.
    say(error.message);
    return 1;
  }
  if (isListenError(error)) {
    // A port taken or not ours to take: the operator's to fix, in one line.
    const { code, address, port } = error as NodeJS.ErrnoException & {
      address?: string;
      port?: number;
    };
    const why = code === 'EADDRINUSE' ? 'something else listens there' : 'not allowed';
    say(
      `cannot listen on ${address ?? ''}:${port ?? ''} (${code}: ${why}); set PORT or HOST, or stop the other server`,
    );
    return 1;
  }
  if (isStoreUnavailable(error)) {
    // An operator's mistake or an outage, not a bug: one line, no stack.
    const reason = (error as Error).message || (error as { code?: string }).code || 'unreachable';
    say(`the database cannot be reached (DATABASE_URL): ${reason}`);
    return 1;
  }
  say((error as Error).stack ?? String(error));
  return 1;
}

/** Whether `error` is the server's failure to listen (a taken port, a privileged one). */
function isListenError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, syscall } = error as NodeJS.ErrnoException;
  return syscall === 'listen' && (code === 'EADDRINUSE' || code === 'EACCES');
}

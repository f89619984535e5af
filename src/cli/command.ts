/**
 * What every command of the CLI shares: its action wrapper, the parsers of option values,
 * and the usage error a command may find while it runs. Apart from `program.ts`, so that a
 * command's module imports it without importing every other command.
 */
import { type Command, InvalidArgumentError } from 'commander';
import { type Config, loadConfig } from '../config.ts';

/** A command-line mistake found while a command runs (not by the parser): exit code 2. */
export class UsageError extends Error {}

/** The exit code each program's command returned, read by `runCli`. */
const exitCodes = new WeakMap<Command, number>();

/**
 * A command's action: loads the configuration (only now: help and a mistake on the command
 * line run nothing, not even that), then `run` with the command's arguments and options;
 * what it returns is the process's exit code (0 ok, 1 failure, 2 usage mistake).
 */
export function action<A extends unknown[]>(
  run: (config: Config, ...args: A) => Promise<number>,
): (this: Command, ...args: unknown[]) => Promise<void> {
  return async function (this: Command, ...args: unknown[]) {
    // Commander passes the arguments, the options, then the command itself: drop the last.
    const code = await run(loadConfig(), ...(args.slice(0, -1) as A));
    let root: Command = this;
    while (root.parent) root = root.parent;
    exitCodes.set(root, code);
  };
}

/**
 * `action(run)` with `run` in a module imported only when the command runs:
 * `lazyAction(async () => (await import('./x-run.ts')).runX)`. Declaring the commands (their
 * help, their parsers) then loads none of the application.
 */
export function lazyAction<A extends unknown[]>(
  load: () => Promise<(config: Config, ...args: A) => Promise<number>>,
): (this: Command, ...args: unknown[]) => Promise<void> {
  return action<A>(async (config, ...args) => (await load())(config, ...args));
}

/** The exit code of the command `program` ran (0 when no action ran, as for help). */
export function exitCodeOf(program: Command): number {
  return exitCodes.get(program) ?? 0;
}

/** A parser of a whole number from `min` to `max`, for an option's value or an argument. */
export function wholeNumber(min: number, max: number): (raw: string) => number {
  return (raw) => {
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isInteger(n) || n < min || n > max)
      throw new InvalidArgumentError(`It must be a whole number from ${min} to ${max}.`);
    return n;
  };
}

/**
 * The CLI's flag parsing and usage error, apart from `main.ts` so that a command's module can
 * be loaded without running the CLI (`main.ts` runs `main()` when imported).
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';

/** A command-line mistake: printed with the usage, exit code 2. */
export class UsageError extends Error {}

/** parseArgs with the CLI's conventions: unknown flags are errors. */
export function parseFlags<const T extends NonNullable<ParseArgsConfig['options']>>(
  args: string[],
  options: T,
) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(flagMessage(error as Error & { code?: string }));
  }
}

/** A whole number flag in a range, or a UsageError naming it. */
export function intFlag(
  name: string,
  raw: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, not '${raw}'`);
  }
  return n;
}

/** parseArgs's message in one line, with what to do where its own is confusing. */
function flagMessage(error: Error & { code?: string }): string {
  // `--people -5`: parseArgs reads -5 as a flag, and says the value is "ambiguous".
  const ambiguous = /^Option '(--[\w-]+)' argument is ambiguous/.exec(error.message);
  if (ambiguous)
    return `${ambiguous[1]} needs a value (a value that starts with '-' is taken for a flag: write ${ambiguous[1]}=VALUE)`;
  const unknown = /^Unknown option '([^']+)'/.exec(error.message);
  if (unknown)
    return `unknown option '${unknown[1]}' (salescrm COMMAND --help lists a command's options)`;
  return error.message.split('\n')[0]!;
}

/**
 * The dispatcher's log: the shape it writes to (a pino logger, such as the server's, fits
 * it), and one-line JSON to standard output for `salescrm dispatch` on its own.
 */

/** Where the dispatcher logs: a context object, then a message. */
export interface DispatchLog {
  debug(context: object, message: string): void;
  info(context: object, message: string): void;
  warn(context: object, message: string): void;
  error(context: object, message: string): void;
}

const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const;

/** A log that writes nothing. */
export const SILENT_LOG: DispatchLog = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};

/**
 * JSON lines on standard output (pino's fields: `level`, `time`, `msg`), from `level` up;
 * `silent` writes nothing. Errors in a context are written with their message and stack.
 */
export function jsonLog(level: string): DispatchLog {
  const floor =
    level === 'silent' ? Number.POSITIVE_INFINITY : (LEVELS[level as keyof typeof LEVELS] ?? 30);
  const write = (at: number) => (context: object, message: string) => {
    if (at < floor) return;
    const fields: Record<string, unknown> = { level: at, time: Date.now(), pid: process.pid };
    for (const [key, value] of Object.entries(context)) {
      fields[key] = value instanceof Error ? { message: value.message, stack: value.stack } : value;
    }
    fields.msg = message;
    process.stdout.write(`${JSON.stringify(fields)}\n`);
  };
  return {
    debug: write(LEVELS.debug),
    info: write(LEVELS.info),
    warn: write(LEVELS.warn),
    error: write(LEVELS.error),
  };
}

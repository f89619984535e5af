/**
 * A reader that stops reading the program's standard output (`salescrm events … | head`)
 * closes the pipe, and the next write fails with EPIPE. That is the reader's choice, not a
 * failure of the command: it ends quietly with exit 0 (the output it was asked for is no
 * longer wanted), instead of a stack trace (an `error` event of stdout that nothing listened
 * to) or a line blaming the database (an export's stream failing with the socket's EPIPE).
 * The servers log through a destination of their own and go on (docs/cli.md, exit codes).
 */

/** Whether standard output's reader has gone. */
let closed = false;

/** Listens for standard output's reader going away (once, at the program's start). */
export function watchStdout(stdout: NodeJS.WriteStream = process.stdout): void {
  stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') {
      closed = true;
      return;
    }
    // Anything else stays what it was without a listener: a crash with its stack.
    throw error;
  });
}

/**
 * Whether `error` is a write to standard output after its reader went away: the write that
 * found the pipe closed, or one after it (the stream is destroyed by then).
 */
export function isClosedStdout(error: unknown): boolean {
  if (!closed || typeof error !== 'object' || error === null) return false;
  const { code } = error as NodeJS.ErrnoException;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED';
}

import { open } from 'node:fs/promises';

/**
 * Group commit for the store's SQLite writer. Its commits do not sync the WAL themselves
 * (`synchronous = NORMAL`), which would hold the event loop for the fsync (about 1.7 ms of a
 * person create's 3 ms here); instead a write is acknowledged once an fdatasync of the WAL
 * file that began after its commit has ended. The sync runs on libuv's thread pool, so the
 * event loop parses and answers meanwhile, and the commits that land while one sync runs
 * share the next one: at most one sync runs and one waits, whatever the number of writers.
 *
 * What an acknowledged write keeps is as with `synchronous = FULL`: nothing is lost to a
 * power cut (its frames are on disk before its answer goes), nor to a crash of the process
 * (committed frames are in the OS's cache). What differs: another request may read a
 * write in the milliseconds between its commit and its sync, and a power cut in those
 * milliseconds loses a write that no one was told had been saved.
 */
export class WalSync {
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;

  constructor(private readonly sync: () => Promise<void>) {}

  /** Resolves once a sync that began after this call has ended (rejects if that sync fails). */
  afterCommit(): Promise<void> {
    if (this.queued) return this.queued;
    const running = this.running;
    if (!running) return this.start();
    // The running sync may have begun before this commit: the next one covers it.
    const next: Promise<void> = running.then(
      (): Promise<void> => this.startQueued(next),
      (): Promise<void> => this.startQueued(next),
    );
    this.queued = next;
    return next;
  }

  private startQueued(queued: Promise<void>): Promise<void> {
    if (this.queued === queued) this.queued = undefined;
    return this.start();
  }

  private start(): Promise<void> {
    const run: Promise<void> = this.sync().finally(() => {
      if (this.running === run) this.running = undefined;
    });
    this.running = run;
    return run;
  }
}

/** Syncs the data of the WAL file at `walPath` (none there: nothing to sync). */
export async function syncWalFile(walPath: string): Promise<void> {
  let file: Awaited<ReturnType<typeof open>>;
  try {
    file = await open(walPath, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    await file.datasync();
  } finally {
    await file.close();
  }
}

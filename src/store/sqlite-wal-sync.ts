import { fdatasync, open as openFile } from 'node:fs';
import { keepDescriptor } from './sqlite-open-files.ts';

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

/**
 * The WAL file of a store's database, held open for its syncs: an `fdatasync` of a file
 * descriptor opened once, not an open, a sync and a close each time (three trips to the
 * thread pool, and a `FileHandle` to make and collect, for every group of commits). SQLite
 * truncates the WAL but never deletes it while a connection of this process has the
 * database open, so the descriptor stays that of the file the commits write; it is opened
 * again only while the file is not there yet (nothing to sync then). The descriptor is
 * closed by `sqlite-open-files.ts` once the process has no connection to the database,
 * never by this class: no plain close while a connection's locks are held.
 */
export class WalFile {
  private fd: number | undefined;
  private opening: Promise<number | undefined> | undefined;
  private closed = false;
  readonly path: string;

  /** The WAL of the database at `database`. */
  constructor(readonly database: string) {
    this.path = `${database}-wal`;
  }

  /** Syncs the file's data to the disk (resolves at once when there is no file yet). */
  async sync(): Promise<void> {
    const fd = this.fd ?? (await this.open());
    if (fd === undefined) return;
    await new Promise<void>((resolve, reject) =>
      fdatasync(fd, (error) => (error ? reject(error) : resolve())),
    );
  }

  /** Lets the descriptor go (closed with the process's last connection); a later `sync` does nothing. */
  close(): void {
    this.closed = true;
    this.fd = undefined;
  }

  private open(): Promise<number | undefined> {
    this.opening ??= new Promise<number | undefined>((resolve, reject) => {
      if (this.closed) return resolve(undefined);
      openFile(this.path, 'r', (error, fd) => {
        this.opening = undefined;
        if (error) return error.code === 'ENOENT' ? resolve(undefined) : reject(error);
        keepDescriptor(this.database, fd);
        if (this.closed) return resolve(undefined);
        this.fd = fd;
        resolve(fd);
      });
    });
    return this.opening;
  }
}

/**
 * A pull's state on disk, so that a pull stopped at any point (`kill -9` included) goes on
 * from where it stopped: the records each read has brought, one JSON value a line in a file
 * of its own, and `state.json`, which says how far each read has got and how many bytes of
 * its file are whole. A page is appended to its file first, then `state.json` is replaced
 * (written aside, then renamed over): bytes past what `state.json` says are a page whose
 * step was not recorded, cut off when the pull opens the state again and read again.
 */
import {
  closeSync,
  existsSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';

/** How far one read has got. */
export interface ReadProgress {
  done: boolean;
  /** Of a read over other records' ids: the index of the id being read. */
  index: number;
  /** The cursor of the next page (null: the first, or none). */
  cursor: string | null;
  /** Whole bytes of its file. */
  bytes: number;
  /** Records in its file. */
  records: number;
  /** Why the source refused it, when it did (the pull goes on without it). */
  refused?: string;
}

/** What `state.json` holds. */
export interface PullState {
  version: 1;
  /** The source's URL and its workspace (`room`) and user. */
  from: string;
  sourceRoomId: string;
  sourceUserId: string;
  /** The copy's workspace, once made (a pull without `--workspace` makes it first). */
  workspaceId?: string;
  /** Whether the pull made the copy's workspace (then it prints a token at the end). */
  created?: boolean;
  startedAt: string;
  reads: Record<string, ReadProgress>;
}

const STATE = 'state.json';

/** The state of one pull in `dir`. */
export class Spool {
  private constructor(
    readonly dir: string,
    readonly state: PullState,
  ) {}

  /** The state in `dir` when it holds one of the same source, else undefined. */
  static open(dir: string, from: string, sourceRoomId: string): Spool | undefined {
    const file = join(dir, STATE);
    if (!existsSync(file)) return undefined;
    let state: PullState;
    try {
      state = JSON.parse(readFileSync(file, 'utf8')) as PullState;
    } catch {
      return undefined; // never the case (written aside, then renamed): start again
    }
    if (state.version !== 1 || state.from !== from || state.sourceRoomId !== sourceRoomId)
      return undefined;
    const spool = new Spool(dir, state);
    spool.cutToRecorded();
    return spool;
  }

  /** A new state in `dir` (what it held before is removed). */
  static create(dir: string, state: Omit<PullState, 'reads' | 'version'>): Spool {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const spool = new Spool(dir, { version: 1, ...state, reads: {} });
    spool.save();
    return spool;
  }

  /** Removes the state: the pull is complete. */
  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** How far `name` has got (a new read starts at nothing). */
  progress(name: string): ReadProgress {
    let p = this.state.reads[name];
    if (!p) {
      p = { done: false, index: 0, cursor: null, bytes: 0, records: 0 };
      this.state.reads[name] = p;
    }
    return p;
  }

  /**
   * Appends `values` (one line each) to the file of `name`, then records the step:
   * `step` changes the read's progress (its cursor, index, done).
   */
  append(name: string, values: readonly unknown[], step: (p: ReadProgress) => void): void {
    const p = this.progress(name);
    if (values.length > 0) {
      const text = values.map((v) => `${JSON.stringify(v)}\n`).join('');
      const fd = openSync(this.file(name), 'a');
      try {
        writeSync(fd, text);
      } finally {
        closeSync(fd);
      }
      p.bytes += Buffer.byteLength(text);
      p.records += values.length;
    }
    step(p);
    this.save();
  }

  /** Records the step of a read that brought nothing (a refusal, the end). */
  mark(name: string, step: (p: ReadProgress) => void): void {
    this.append(name, [], step);
  }

  /** Every value of the file of `name`, in order. */
  *values<T = Record<string, unknown>>(name: string): Generator<T> {
    const p = this.state.reads[name];
    if (!p || p.bytes === 0) return;
    const text = readFileSync(this.file(name), 'utf8');
    let at = 0;
    while (at < text.length) {
      const end = text.indexOf('\n', at);
      yield JSON.parse(text.slice(at, end)) as T;
      at = end + 1;
    }
  }

  save(): void {
    const file = join(this.dir, STATE);
    writeFileSync(`${file}.next`, JSON.stringify(this.state));
    renameSync(`${file}.next`, file);
  }

  private file(name: string): string {
    return join(this.dir, `${name}.ndjson`);
  }

  /** Cuts each file to the bytes `state.json` says are whole. */
  private cutToRecorded(): void {
    for (const [name, p] of Object.entries(this.state.reads)) {
      const file = this.file(name);
      if (!existsSync(file)) continue;
      if (statSync(file).size === p.bytes) continue;
      const fd = openSync(file, 'r+');
      try {
        ftruncateSync(fd, p.bytes);
      } finally {
        closeSync(fd);
      }
    }
  }
}

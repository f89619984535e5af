/** Keys (workspaces) whose last change a feed remembers; past it, it forgets them all at once. */
const REMEMBERED_KEYS = 100_000;

/** A workspace's data and catalog versions, as a commit left them. */
export interface WorkspaceVersions {
  readonly dataVersion: number;
  readonly catalogVersion: number;
}

/** Where a feed stood when a lookup began: what `unchangedSince` compares with. */
export interface FeedMark {
  readonly seq: number;
  readonly epoch: number;
}

/**
 * What a process knows of the changes committed by every process, from notifications the
 * database sends at each commit (PostgreSQL's `NOTIFY`, see `postgres-listener.ts`): a key
 * (a workspace id, or `TOKENS_ADDED`) is named by each commit that changed it. A cache
 * takes a `mark` before it reads a value from the database and keeps the value while
 * `unchangedSince(key, mark)`: no notification for the key came after the mark, and none
 * can have been missed (the feed was listening all along).
 *
 * A commit that only moved a workspace's versions (a write: its data version, and its catalog
 * version when it changed the catalog) names them (`moved`): a cache keeps what it read of the
 * workspace, with the versions `movedSince` gives. They only grow, so the feed keeps the
 * highest notified, whatever order the notifications of two processes' commits come in.
 */
export class ChangeFeed {
  /** Notifications received. */
  private seq = 0;
  /** Moves whenever notifications may have been missed (the listening connection was lost). */
  private epoch = 0;
  private readonly last = new Map<string, number>();
  /** The highest versions notified of each workspace whose versions moved, and when. */
  private readonly moves = new Map<string, { seq: number; versions: WorkspaceVersions }>();
  /** Keys in neither map changed at this `seq` at the latest (both were emptied then). */
  private floor = 0;
  private listening = false;

  /** Whether notifications are coming: while not, nothing is `unchangedSince` anything. */
  get live(): boolean {
    return this.listening;
  }

  mark(): FeedMark {
    return { seq: this.seq, epoch: this.epoch };
  }

  /** Whether no change of `key` was notified since `mark` was taken, and none was missed. */
  unchangedSince(key: string, mark: FeedMark): boolean {
    return (
      this.listening && mark.epoch === this.epoch && (this.last.get(key) ?? this.floor) <= mark.seq
    );
  }

  /**
   * The highest versions of workspace `key` notified since `mark`; undefined when none was.
   * Only meaningful while `unchangedSince(key, mark)`.
   */
  movedSince(key: string, mark: FeedMark): WorkspaceVersions | undefined {
    const moved = this.moves.get(key);
    return moved !== undefined && moved.seq > mark.seq ? moved.versions : undefined;
  }

  /** A notification: `key` changed in a commit. */
  changed(key: string): void {
    this.seq += 1;
    if (this.last.size >= REMEMBERED_KEYS && !this.last.has(key)) this.forgetAll();
    this.last.set(key, this.seq);
  }

  /** A notification: a commit moved only the versions of workspace `key`, to `versions`. */
  moved(key: string, versions: WorkspaceVersions): void {
    this.seq += 1;
    const before = this.moves.get(key);
    if (before === undefined && this.moves.size >= REMEMBERED_KEYS) this.forgetAll();
    this.moves.set(key, {
      seq: this.seq,
      versions: {
        dataVersion: Math.max(versions.dataVersion, before?.versions.dataVersion ?? 0),
        catalogVersion: Math.max(versions.catalogVersion, before?.versions.catalogVersion ?? 0),
      },
    });
  }

  /** Forgets every key: each counts as changed now. */
  private forgetAll(): void {
    this.last.clear();
    this.moves.clear();
    this.floor = this.seq;
  }

  /** This process committed a change it cannot name: nothing read before is known to hold. */
  changedAll(): void {
    this.epoch += 1;
  }

  /** Listening (again): changes from now on are notified; those before are not known. */
  started(): void {
    this.lost();
    this.listening = true;
  }

  /** The listening connection was lost: notifications may be missed until `started`. */
  lost(): void {
    this.listening = false;
    this.epoch += 1;
    this.seq += 1;
    this.forgetAll();
  }
}

/** The key a commit that adds a token names (a token not found may exist from then on). */
export const TOKENS_ADDED = '';

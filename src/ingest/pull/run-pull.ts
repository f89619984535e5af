/**
 * `pull`: brings a whole workspace over from another server of this API into this one. The
 * walk reads the source into a spool on disk (`spool.ts`, resumable), the records become
 * the lines of the workspace format (`to-lines.ts`), and `import` writes them in one
 * transaction: into the workspace it made on the first run, or, to bring a copy up to date,
 * in place of the records it held (`clear-records.ts`), so ids, dates and history are the
 * source's. `docs/pull.md` says what is carried over and what it costs.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { createToken, createWorkspace } from '../../resources/workspaces/writes.ts';
import type { Store } from '../../store/database.ts';
import { importFiles } from '../run-import.ts';
import { clearRecords } from './clear-records.ts';
import { CrmApiError, PullError, Source } from './source.ts';
import { Spool } from './spool.ts';
import { pulledLines, type Skipped } from './to-lines.ts';
import { walk } from './walk.ts';

export { PullError } from './source.ts';

/**
 * The one line a failure of the pull says, when it is one (the source refused, could not be
 * reached after the retries, or is not this API); undefined for anything else.
 */
export function pullFailure(error: unknown): string | undefined {
  if (error instanceof PullError || error instanceof CrmApiError)
    return error.message.split('\n')[0];
  return undefined;
}

/** What to pull, and where to. */
export interface PullOptions {
  /** The source API's base URL (the part before `/v2`). */
  from: string;
  token: string;
  /** The copy to bring up to date; without it, the pull makes a new workspace. */
  workspaceId?: string;
  /** Where the pull keeps its state between runs (one folder per source and copy in it). */
  stateDir: string;
  /** Requests a second at most, for a source that sends no `RateLimit-*` headers (0: none). */
  pace?: number;
  /** A fetch of its own (tests). */
  fetch?: typeof fetch;
  /** Called as the walk goes: the read, reads done and in all, records and requests so far. */
  onProgress?: (p: PullProgress) => void;
}

/** How far a pull has got. */
export interface PullProgress {
  stage: 'walk' | 'import';
  read: string;
  /** Steps of the walk done and in all: a list is one, a read per record one a record. */
  stepsDone: number;
  stepsTotal: number;
  records: number;
  requests: number;
}

/** What a pull did. */
export interface PullResult {
  workspaceId: string;
  /** A token of the copy acting as the source token's user: when the pull made the workspace. */
  token?: string;
  /** Lines imported, by line type. */
  counts: Record<string, number>;
  records: number;
  /** What the source served that the copy does not carry, by what it is. */
  skipped: Skipped;
  /** Reads the source refused: what is missing from the copy. */
  refused: string[];
  /**
   * Lines the copy refused (a record naming one the walk did not see: made on the source
   * after its list was read), left out; the first reasons of each kind, and where they are.
   */
  leftOut: number;
  leftOutReasons: string[];
  leftOutPath?: string;
  requests: number;
  rateLimited: number;
  retried: number;
  /** Whether this run went on from an earlier one that stopped. */
  resumed: boolean;
  ms: number;
}

/** The folder of one pull's state: one per source, its workspace, and the copy. */
function stateFolder(options: PullOptions, roomId: string): string {
  const key = createHash('sha256')
    .update(`${options.from}\u0000${roomId}\u0000${options.workspaceId ?? ''}`)
    .digest('hex')
    .slice(0, 20);
  return join(options.stateDir, key);
}

/** Pulls the workspace of `options.token` at `options.from` into `store`. */
export async function pull(store: Store, options: PullOptions): Promise<PullResult> {
  const started = Date.now();
  const from = options.from.replace(/\/+$/, '');
  const source = new Source({
    url: from,
    token: options.token,
    pace: options.pace,
    fetch: options.fetch,
  });
  const me = await source.me();
  const dir = stateFolder({ ...options, from }, me.roomId);
  const opened = Spool.open(dir, from, me.roomId);
  const resumed = opened !== undefined;
  const spool =
    opened ??
    Spool.create(dir, {
      from,
      sourceRoomId: me.roomId,
      sourceUserId: me.userId,
      startedAt: new Date().toISOString(),
      ...(options.workspaceId ? { workspaceId: options.workspaceId } : {}),
    });
  if (spool.state.workspaceId === undefined) {
    spool.state.workspaceId = await createWorkspace(store, me.roomName || 'salescrm pull');
    spool.state.created = true;
    spool.save();
  }
  const workspaceId = spool.state.workspaceId;
  const records = () => Object.values(spool.state.reads).reduce((n, p) => n + p.records, 0);
  let steps = 1;
  await walk(source, spool, (read, stepsDone, stepsTotal) => {
    steps = stepsTotal;
    options.onProgress?.({
      stage: 'walk',
      read,
      stepsDone,
      stepsTotal,
      records: records(),
      requests: source.counts.requests,
    });
  });
  options.onProgress?.({
    stage: 'import',
    read: 'import',
    stepsDone: steps,
    stepsTotal: steps,
    records: records(),
    requests: source.counts.requests,
  });
  const file = join(dir, 'import.ndjson');
  const fd = openSync(file, 'w');
  let skipped: Skipped;
  try {
    let chunk = '';
    skipped = pulledLines(spool, (line) => {
      chunk += `${JSON.stringify(line)}\n`;
      if (chunk.length > 1 << 20) {
        writeSync(fd, chunk);
        chunk = '';
      }
    });
    writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
  // Lines the copy refuses are left out, not the whole pull: on a source that changes while
  // it is read, a record may name another created after that one's list was read (the next
  // pull brings both). Each is written to `left-out.ndjson` beside the state, with its reason.
  const leftOutPath = join(options.stateDir, 'left-out.ndjson');
  rmSync(leftOutPath, { force: true });
  const imported = await importFiles(store, {
    workspaceId,
    files: [file],
    actorId: me.userId,
    skipInvalid: true,
    rejectsPath: leftOutPath,
    beforeImport: (trx) => clearRecords(trx, workspaceId),
  });
  const kinds = new Map<string, string>();
  for (const r of imported.rejects) kinds.set(r.reason.replace(/'[^']*'/g, "'…'"), r.reason);
  const token = spool.state.created
    ? (await createToken(store, workspaceId, me.userId, 'salescrm pull')).token
    : undefined;
  const refused = Object.values(spool.state.reads)
    .map((p) => p.refused)
    .filter((r): r is string => r !== undefined);
  spool.remove();
  return {
    workspaceId,
    ...(token !== undefined ? { token } : {}),
    counts: imported.counts,
    records: imported.records,
    skipped,
    refused,
    leftOut: imported.rejectCount,
    leftOutReasons: [...kinds.values()].slice(0, 5),
    ...(imported.rejectCount > 0 ? { leftOutPath } : {}),
    requests: source.counts.requests,
    rateLimited: source.counts.rateLimited,
    retried: source.counts.retried,
    resumed,
    ms: Date.now() - started,
  };
}

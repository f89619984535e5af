/**
 * `salescrm pull` killed (`kill -9`) at several points, then run again: each run goes on
 * from where the last stopped, and the copy ends equal to the source, in the one workspace
 * the first run made, files and their bytes included. The source has a rate limit, so that
 * the pull takes its time (and meets a `429` when a new run starts inside a window the last
 * one used up).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoWorkspace } from '../src/ingest/demo/create-workspace.ts';
import type { PullState } from '../src/ingest/pull/spool.ts';
import { listen } from './client-server.ts';
import { type TestStore, testApp, testStore } from './helpers.ts';
import { compareWorkspaces, firstDifference, type Side } from './pull-compare.ts';
import { salescrmArgs } from './salescrm-command.ts';

const ROOT = join(import.meta.dirname, '..');

describe('pull killed and run again', { timeout: 240_000 }, () => {
  let sourceStore: TestStore;
  let targetStore: TestStore;
  let sourceApp: FastifyInstance;
  let url: string;
  let source: Side;
  let stateDir: string;

  beforeAll(async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'salescrm-pull-resume-'));
    sourceStore = await testStore();
    targetStore = await testStore();
    const demo = await createDemoWorkspace(sourceStore, { seed: 5, people: 50 });
    // A source that states no limit, and the pull paced at 20 requests a second (`--pace`):
    // evenly spaced, each step of the walk (a page of a list included) lasts 50 ms or more,
    // time enough to see it and stop the pull there. A limit of 40 a second let the pull ask
    // in bursts, and a list of a few pages went by between two looks at its state.
    sourceApp = await testApp(sourceStore, { rateLimitMax: 0 });
    url = await listen(sourceApp);
    source = { app: sourceApp, token: demo.token, workspaceId: demo.workspaceId };
  }, 120_000);

  afterAll(async () => {
    await sourceApp?.close();
    await sourceStore?.dispose();
    await targetStore?.dispose();
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  });

  function start(): {
    child: ChildProcess;
    done: Promise<{ code: number | null; out: string; err: string }>;
  } {
    const child = spawn(
      process.execPath,
      [
        ...salescrmArgs(),
        'pull',
        '--from',
        url,
        '--token',
        source.token,
        '--state',
        stateDir,
        '--pace',
        '20',
        '--json',
      ],
      { cwd: ROOT, env: { ...process.env, DATABASE_URL: targetStore.url } },
    );
    let out = '';
    let err = '';
    child.stdout!.on('data', (c) => {
      out += c;
    });
    child.stderr!.on('data', (c) => {
      err += c;
    });
    const done = new Promise<{ code: number | null; out: string; err: string }>((resolve) =>
      child.on('exit', (code) => resolve({ code, out, err })),
    );
    return { child, done };
  }

  /** The pull's state and folder, once it has one. */
  function state(): { state: PullState; dir: string } | undefined {
    if (!existsSync(stateDir)) return undefined;
    for (const name of readdirSync(stateDir)) {
      const dir = join(stateDir, name);
      try {
        return { state: JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')), dir };
      } catch {
        // Not written yet.
      }
    }
    return undefined;
  }

  /** How the runs that were not killed ended. */
  const endings: string[] = [];

  /** Runs the pull until `when` holds of its state, then kills it (-9); false if it ended first. */
  async function killWhen(when: (s: PullState, dir: string) => boolean): Promise<boolean> {
    const { child, done } = start();
    let ended = false;
    void done.then((r) => {
      ended = true;
      endings.push(`${r.code} ${r.err.slice(-300)}`);
    });
    for (;;) {
      if (ended) return false;
      const s = state();
      if (s && when(s.state, s.dir)) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    child.kill('SIGKILL');
    await done;
    return true;
  }

  it('finishes the copy after kills in the lists, in the reads per record and in the import', async () => {
    const kills = [
      // In a read per record, in a list walked page by page, between two lists, in the import.
      await killWhen((s) => (s.reads.dealQuotes?.index ?? 0) > 5 && !s.reads.dealQuotes!.done),
      await killWhen((s) =>
        Object.entries(s.reads).some(
          ([name, p]) => name !== 'dealQuotes' && p.cursor !== null && !p.done,
        ),
      ),
      await killWhen((s) => s.reads.peopleActivities?.done === true),
      // In the files of each deal, and among the files' bytes.
      await killWhen(
        (s) => (s.reads['files-deal']?.index ?? 0) > 5 && !s.reads['files-deal']!.done,
      ),
      await killWhen((s) => (s.reads.fileContents?.index ?? 0) > 0 && !s.reads.fileContents!.done),
      await killWhen((_s, dir) => existsSync(join(dir, 'import.ndjson'))),
    ];
    expect(kills.slice(0, 5), endings.join('\n')).toEqual([true, true, true, true, true]);
    const last = await start().done;
    expect(last.code, last.err).toBe(0);
    const { workspaceId, token } = JSON.parse(last.out.trim().split('\n').at(-1)!);
    // Each run went on with the workspace the first one made.
    const workspaces = await targetStore.db.selectFrom('workspaces').select('id').execute();
    if (kills[5]) expect(workspaces.map((w) => w.id)).toEqual([workspaceId]);
    expect(state()).toBeUndefined();
    const targetApp = await testApp(targetStore);
    // The source read again without its rate limit, to compare.
    const unlimited = await testApp(sourceStore);
    try {
      const { differences } = await compareWorkspaces(
        { ...source, app: unlimited },
        {
          app: targetApp,
          token,
          workspaceId,
        },
      );
      expect(differences.slice(0, 5).map(firstDifference)).toEqual([]);
    } finally {
      await targetApp.close();
      await unlimited.close();
    }
  });
});

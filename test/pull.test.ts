/**
 * `salescrm pull` between two servers on loopback: a source with the demo, an empty target.
 * After a pull every read of the OpenAPI document answers the same bytes on both
 * (`pull-compare.ts` names what may differ); after writes on the source, a second pull
 * brings the copy level again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoWorkspace } from '../src/ingest/demo/create-workspace.ts';
import { pull } from '../src/ingest/pull/run-pull.ts';
import { listen } from './client-server.ts';
import { type TestStore, testApp, testStore } from './helpers.ts';
import { compareWorkspaces, firstDifference, type Side } from './pull-compare.ts';

describe('pull from another server into a new workspace', () => {
  let sourceStore: TestStore;
  let targetStore: TestStore;
  let sourceApp: FastifyInstance;
  let targetApp: FastifyInstance;
  let url: string;
  let source: Side;
  let copy: Side;
  let stateDir: string;

  beforeAll(async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'salescrm-pull-'));
    sourceStore = await testStore();
    targetStore = await testStore();
    const demo = await createDemoWorkspace(sourceStore, { seed: 11, people: 50 });
    sourceApp = await testApp(sourceStore);
    url = await listen(sourceApp);
    targetApp = await testApp(targetStore);
    source = { app: sourceApp, token: demo.token, workspaceId: demo.workspaceId };
  }, 120_000);

  afterAll(async () => {
    await sourceApp?.close();
    await targetApp?.close();
    await sourceStore?.dispose();
    await targetStore?.dispose();
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  });

  it('copies the workspace: every read answers the same bytes', async () => {
    const result = await pull(targetStore, { from: url, token: source.token, stateDir });
    expect(result.token).toBeDefined();
    copy = { app: targetApp, token: result.token!, workspaceId: result.workspaceId };
    expect(result.refused).toEqual([]);
    expect(result.counts.person).toBe(50);
    const { reads, differences } = await compareWorkspaces(source, copy);
    expect(reads).toBeGreaterThan(300);
    expect(differences.slice(0, 5).map(firstDifference)).toEqual([]);
  }, 120_000);
});

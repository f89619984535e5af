/**
 * Export on PostgreSQL: a workspace exported from SQLite, imported into PostgreSQL and
 * exported from there gives every line of the first file, in the same order; `salescrm
 * export` reads a PostgreSQL store too. (The PostgreSQL project runs this file; the SQLite
 * one skips it.)
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoWorkspace } from '../src/ingest/demo/create-workspace.ts';
import { exportWorkspace } from '../src/ingest/export.ts';
import { importFiles } from '../src/ingest/run-import.ts';
import { CHUNK_BYTES } from '../src/resources/files/writes.ts';
import { createToken, createWorkspace, firstAdmin } from '../src/resources/workspaces/writes.ts';
import { openStore, type Store } from '../src/store/database.ts';
import { verifyWorkspace } from '../src/store/read-model/verify.ts';
import { TEST_DIALECT, type TestStore, testApp, testStore } from './helpers.ts';
import { multipartBody } from './multipart.ts';
import { salescrmArgs } from './salescrm-command.ts';

async function exportTo(location: string, workspaceId: string, file: string) {
  const out = createWriteStream(file);
  const result = await exportWorkspace(location, workspaceId, out);
  out.end();
  await finished(out);
  return result;
}

/** The data lines of an export (the header, which has the time and workspace, aside). */
const dataLines = (file: string) => readFileSync(file, 'utf8').trimEnd().split('\n').slice(1);

describe.runIf(TEST_DIALECT === 'postgres')('export from PostgreSQL', () => {
  let dir: string;
  let sqlite: Store;
  let postgres: TestStore;
  let workspaceId: string;
  let first: string;
  let bytes: Buffer;
  let fileId: string;
  let admin: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'salescrm-export-pg-'));
    sqlite = openStore(`sqlite:${join(dir, 'source.db')}`);
    await sqlite.migrate();
    const demo = await createDemoWorkspace(sqlite, { seed: 11, people: 200 });
    // A file of three chunks on a custom object: its bytes go through PostgreSQL's bytea.
    const object = await sqlite.db
      .selectFrom('custom_objects')
      .select('id')
      .where('workspace_id', '=', demo.workspaceId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    bytes = Buffer.alloc(2 * CHUNK_BYTES + 999);
    for (let i = 0; i < bytes.length; i++) bytes[i] = 32 + ((i * 13) % 95);
    const app = await testApp(sqlite);
    try {
      const { payload, contentType } = multipartBody([
        { name: 'objectType', value: 'customObject' },
        { name: 'objectId', value: object.id },
        { name: 'memo', value: '원본' },
        { name: 'file', filename: '원본.txt', data: bytes },
      ]);
      const res = await app.inject({
        method: 'POST',
        url: '/v2/file',
        headers: { authorization: `Bearer ${demo.token}`, 'content-type': contentType },
        payload,
      });
      expect(res.statusCode, res.body).toBe(201);
      fileId = JSON.parse(res.body).data.id;
    } finally {
      await app.close();
    }
    admin = (await firstAdmin(sqlite, demo.workspaceId))!;
    first = join(dir, 'first.ndjson');
    await exportTo(join(dir, 'source.db'), demo.workspaceId, first);
    postgres = await testStore();
    workspaceId = await createWorkspace(postgres, '옮겨 온 워크스페이스');
    const result = await importFiles(postgres, { workspaceId, files: [first], actorId: '' });
    expect(result.rejects).toEqual([]);
    expect(result.committed).toBe(true);
  }, 180_000);

  afterAll(async () => {
    await sqlite?.close();
    await postgres?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('writes every line of the SQLite export, in the same order', async () => {
    const again = join(dir, 'again.ndjson');
    const result = await exportTo(postgres.url, workspaceId, again);
    const before = dataLines(first);
    expect(before.length).toBeGreaterThan(1000);
    // The workspace line carries the new workspace's id and name; every other line is the same.
    const strip = (lines: string[]) => lines.map((l) => l.replaceAll(workspaceId, 'W'));
    expect(dataLines(again)).toEqual(before);
    expect(result.records).toBe(before.length);
    expect(strip(dataLines(again))).toEqual(strip(before));
    const types = new Set(before.map((l) => JSON.parse(l.slice(0, l.indexOf(',')) + '}').type));
    for (const type of ['customObjectDefinition', 'customObject', 'file', 'fileChunk'])
      expect(types.has(type), type).toBe(true);
  });

  it('leaves the imported workspace verifying clean', async () => {
    const differences: unknown[] = [];
    await verifyWorkspace(postgres, workspaceId, { onDifference: (d) => differences.push(d) });
    expect(differences).toEqual([]);
  });

  it('serves the moved file byte for byte from PostgreSQL', async () => {
    const { token } = await createToken(postgres, workspaceId, admin);
    const app = await testApp(postgres);
    try {
      const res = await app.inject({
        method: 'GET',
        url: `/v2/file/${fileId}/content`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(bytes)).toBe(true);
    } finally {
      await app.close();
    }
  });

  it('is what `salescrm export` writes on a PostgreSQL store', () => {
    const file = join(dir, 'cli.ndjson');
    const run = spawnSync(
      process.execPath,
      [...salescrmArgs(), 'export', '--workspace', workspaceId, file, '--quiet'],
      { env: { ...process.env, DATABASE_URL: postgres.url }, encoding: 'utf8', timeout: 120_000 },
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(dataLines(file)).toEqual(dataLines(first));
  });

  it('refuses a line whose number PostgreSQL cannot store, naming it, instead of failing', async () => {
    const [header, ...lines] = readFileSync(first, 'utf8').trimEnd().split('\n');
    const pipeline = JSON.parse(lines.find((l) => l.startsWith('{"type":"pipeline"'))!);
    const file = join(dir, 'huge-position.ndjson');
    writeFileSync(file, `${header}\n${JSON.stringify({ ...pipeline, position: 3_000_000_000 })}\n`);
    const target = await createWorkspace(postgres, '큰 숫자');
    const result = await importFiles(postgres, { workspaceId: target, files: [file], actorId: '' });
    expect(result.committed).toBe(false);
    expect(result.rejects).toHaveLength(1);
    expect(result.rejects[0]!.reason).toMatch(/^pipeline: \/position: .*2147483647/);
  });

  it('refuses an unknown workspace', async () => {
    await expect(
      exportTo(postgres.url, '0190aaaa-0000-7000-8000-000000000000', join(dir, 'none.ndjson')),
    ).rejects.toThrow(/no workspace/);
  });
});

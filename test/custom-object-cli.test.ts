/**
 * `salescrm custom-object define`: a definition with its fields and pipeline, read back
 * through the API; mistakes exit 1 or 2 with one line.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidArgumentError } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFieldFlag } from '../src/cli/custom-object.ts';
import { createToken, firstAdmin } from '../src/resources/workspaces/writes.ts';
import { openStore, type Store } from '../src/store/database.ts';
import { get, testApp } from './helpers.ts';
import { salescrmArgs } from './salescrm-command.ts';

const ROOT = join(import.meta.dirname, '..');

function cli(
  db: string,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...salescrmArgs(), ...args],
      { cwd: ROOT, env: { ...process.env, DATABASE_URL: `sqlite:${db}`, LOG_LEVEL: 'silent' } },
      (error, stdout, stderr) =>
        resolve({
          code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
          stdout,
          stderr,
        }),
    );
  });
}

describe('parseFieldFlag', () => {
  it('reads NAME:TYPE and select options', () => {
    expect(parseFieldFlag('금액:number')).toEqual({ name: '금액', type: 'number' });
    expect(parseFieldFlag('딜:deal')).toEqual({ name: '딜', type: 'deal' });
    expect(parseFieldFlag('상태:singleSelect:초안,서명')).toEqual({
      name: '상태',
      type: 'singleSelect',
      options: ['초안', '서명'],
    });
  });
  it('refuses what it cannot read', () => {
    for (const raw of [
      '금액',
      ':number',
      '금액:money',
      '상태:singleSelect',
      '금액:number:1',
      'a:b:c:d',
    ])
      expect(() => parseFieldFlag(raw), raw).toThrow(InvalidArgumentError);
  });
});

describe('salescrm custom-object define', { timeout: 120_000 }, () => {
  let dir: string;
  let db: string;
  let store: Store;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'salescrm-custom-object-cli-'));
    db = join(dir, 'db.sqlite');
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('defines a custom object the API then lists, with its fields and pipeline', async () => {
    const made = await cli(db, ['workspace', 'create', '테스트', '--json']);
    expect(made.code, made.stderr).toBe(0);
    const { workspaceId } = JSON.parse(made.stdout) as { workspaceId: string };
    const run = await cli(db, [
      'custom-object',
      'define',
      '계약서',
      '--field',
      '금액:number',
      '--field',
      '딜:deal',
      '--field',
      '상태:singleSelect:초안,서명',
      '--stages',
      '작성,검토,완료',
      '--json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const defined = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(Object.keys(defined)).toEqual(['id', 'name', 'pipelineId', 'fieldIdList']);
    expect(defined.name).toBe('계약서');
    expect(defined.fieldIdList).toHaveLength(3);

    const again = await cli(db, ['custom-object', 'define', '계약서', '--workspace', workspaceId]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('같은 이름의 커스텀 객체 정의가 이미 있습니다');
    const bad = await cli(db, ['custom-object', 'define', '티켓', '--field', '우선순위']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.split('\n')[0]).toContain('It takes NAME:TYPE');

    store = openStore(`sqlite:${db}`);
    const admin = await firstAdmin(store, workspaceId);
    const { token } = await createToken(store, workspaceId, admin!);
    const app = await testApp(store);
    try {
      const defs = await get(app, token, '/v2/custom-object-definitions');
      expect(defs.json.data.customObjectDefinitionList).toEqual([
        { id: defined.id, name: '계약서' },
      ]);
      const fields = await get(app, token, '/v2/field/custom-object');
      const custom = (fields.json.data.fieldList as Record<string, unknown>[]).slice(-3);
      expect(custom.map((f) => [f.name, f.type, f.customObjectDefinitionId])).toEqual([
        ['금액', 'number', defined.id],
        ['딜', 'deal', defined.id],
        ['상태', 'singleSelect', defined.id],
      ]);
      const pipelines = await get(app, token, '/v2/pipeline');
      const pipeline = (pipelines.json.data.pipelineList as Record<string, unknown>[]).find(
        (p) => p._id === defined.pipelineId,
      );
      expect(pipeline?.name).toBe('계약서');
    } finally {
      await app.close();
    }
  });
});

describe('parseFieldFlag past the API’s limits', () => {
  it('refuses a name or option over 200 characters, and an option given twice', () => {
    expect(parseFieldFlag(`${'가'.repeat(200)}:string`).name).toHaveLength(200);
    for (const raw of [
      `${'가'.repeat(201)}:string`,
      `상태:singleSelect:초안,${'x'.repeat(201)}`,
      '상태:multiSelect:초안,초안',
    ])
      expect(() => parseFieldFlag(raw), raw.slice(0, 40)).toThrow(InvalidArgumentError);
  });
});

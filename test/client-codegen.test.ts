import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  customFieldDefinitions,
  renderCustomFieldDeclarations,
} from '../src/resources/custom-fields/declarations.ts';
import { defineCustomField } from '../src/resources/custom-fields/writes.ts';
import { type TestStore, type TestWorkspace, testStore, testWorkspace } from './helpers.ts';
import { salescrmArgs } from './salescrm-command.ts';

const ROOT = join(import.meta.dirname, '..');

/** Runs the CLI in a child process against the test store (SQLite file or PostgreSQL). */
function cli(
  databaseUrl: string,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...salescrmArgs(), ...args],
      { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl }, timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({
          code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
          stdout,
          stderr,
        }),
    );
  });
}

/** Type errors of `files` compiled with the project's options (the client resolved by path). */
function typeErrors(files: Record<string, string>): string[] {
  // Inside the checkout (.scratch/ is git-ignored), so the client resolves as it does here.
  mkdirSync(join(ROOT, '.scratch'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, '.scratch', 'types-'));
  try {
    const names = Object.entries(files).map(([name, text]) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    });
    const config = ts.getParsedCommandLineOfConfigFile(
      join(ROOT, 'tsconfig.json'),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: () => {},
      },
    )!;
    const program = ts.createProgram(names, { ...config.options, noEmit: true });
    // Only these files' own diagnostics: the rest of the project is checked by `tsc`.
    const mine = names.map((name) => program.getSourceFile(name)!);
    return [
      ...program.getOptionsDiagnostics(),
      ...mine.flatMap((sf) => [
        ...program.getSyntacticDiagnostics(sf),
        ...program.getSemanticDiagnostics(sf),
      ]),
    ].map(
      (d) =>
        `${d.file ? relative(dir, d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('salescrm types', { timeout: 120_000 }, () => {
  let store: TestStore;
  let ws: TestWorkspace;

  beforeAll(async () => {
    store = await testStore();
    ws = await testWorkspace(store);
    await ws.write(async (w) => {
      await defineCustomField(w, {
        recordType: 'people',
        name: '고객 등급',
        type: 'singleSelect',
        options: ['VIP', '일반', 'it\'s \\ "quoted"'],
      });
      await defineCustomField(w, { recordType: 'people', name: '생일', type: 'date' });
      await defineCustomField(w, {
        recordType: 'people',
        name: '관심 제품',
        type: 'multiSelect',
        options: ['CRM', '분석'],
      });
      await defineCustomField(w, { recordType: 'deal', name: '추천인', type: 'people' });
      await defineCustomField(w, { recordType: 'deal', name: '참여 팀원', type: 'multiUser' });
      await defineCustomField(w, { recordType: 'organization', name: '직원 수', type: 'number' });
      await defineCustomField(w, { recordType: 'quoteProduct', name: '면세', type: 'boolean' });
    });
  });

  afterAll(async () => {
    await store?.dispose();
  });

  it('declares every custom field by record type, select options as literal unions', async () => {
    const text = renderCustomFieldDeclarations(
      await customFieldDefinitions(store.reader, ws.workspaceId),
      {
        workspaceId: ws.workspaceId,
      },
    );
    expect(text).toContain(`'고객 등급': 'VIP' | '일반' | 'it\\'s \\\\ "quoted"' | null;`);
    expect(text).toContain(`'관심 제품': Array<'CRM' | '분석'> | null;`);
    expect(text).toContain(`'생일': string | null;`);
    expect(text).toContain(`'추천인': { id: string; name: string } | null;`);
    expect(text).toContain(`'참여 팀원': Array<{ id: string; name: string }> | null;`);
    expect(text).toContain(`'직원 수': number | null;`);
    expect(text).toContain(`'면세': boolean | null;`);
    expect(text).toContain('  lead: {};');
  });

  it('the command prints it; the .d.ts plugs into the client’s generic and types the records', async () => {
    const run = await cli(store.url, ['types', '--workspace', ws.workspaceId]);
    expect(run.code, run.stderr).toBe(0);
    const expected = renderCustomFieldDeclarations(
      await customFieldDefinitions(store.reader, ws.workspaceId),
      { workspaceId: ws.workspaceId },
    );
    expect(run.stdout).toBe(expected);
    const errors = typeErrors({
      'fields.d.ts': run.stdout,
      'use.ts': `
import { CrmClient } from '../../src/client/index.ts';
import type { CustomFields } from './fields.d.ts';
const crm = new CrmClient<CustomFields>({ baseUrl: 'http://127.0.0.1:1', token: 't' });
export async function use() {
  const person = await crm.people.get('p');
  const grade: 'VIP' | '일반' | 'it\\'s \\\\ "quoted"' | null = person['고객 등급'];
  const interests: ('CRM' | '분석')[] | null = person['관심 제품'];
  const name: string = person['이름'];
  // @ts-expect-error: not an option
  const wrong: 'VIP' | null = person['고객 등급'];
  const deal = await crm.deals.get('d');
  const by: string | undefined = deal['추천인']?.name;
  const quotes = await crm.deals.quotes('d');
  const taxFree: boolean | null | undefined = quotes[0]?.['견적 구성 상품'][0]?.['면세'];
  // @ts-expect-error: '고객 등급' is a field of people only
  void deal['고객 등급'];
  return [grade, interests, name, wrong, by, taxFree];
}
`,
    });
    expect(errors).toEqual([]);
  });

  it('an unknown workspace is exit 1, a missing --workspace exit 2', async () => {
    const unknown = await cli(store.url, ['types', '--workspace', 'no-such-workspace']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no-such-workspace');
    expect(unknown.stdout).toBe('');
    const missing = await cli(store.url, ['types']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--workspace');
  });
});

describe('salescrm/client has no server code and no runtime dependency', () => {
  it('bundles for a browser from src/client alone', async () => {
    const result = await build({
      entryPoints: [join(ROOT, 'src/client/index.ts')],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.length).toBeGreaterThan(3);
    for (const input of inputs) expect(input).toMatch(/^src\/client\/[a-z-]+\.ts$/);
    const code = result.outputFiles[0]!.text;
    expect(code).not.toMatch(/\bprocess\.|\bBuffer\b|require\(/);
  });

  it('is exported as salescrm/client (source condition here, dist for a build), built on install', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
      scripts: Record<string, string>;
    };
    // npm runs `prepare` on install (and on a git or packed install of the repository), so
    // dist/client exists wherever the package was installed, without a build by hand.
    expect(pkg.scripts.prepare).toBe('npm run build:client');
    expect(existsSync(join(ROOT, 'dist/client/index.js'))).toBe(true);
    expect(existsSync(join(ROOT, 'dist/client/index.d.ts'))).toBe(true);
    expect(pkg.exports['./client']).toEqual({
      'salescrm-source': './src/client/index.ts',
      types: './dist/client/index.d.ts',
      import: './dist/client/index.js',
    });
  });
});

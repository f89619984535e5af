import { createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import { finished } from 'node:stream/promises';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { differenceLine } from '../src/cli/verify.ts';
import { createDemoWorkspace } from '../src/ingest/demo/create-workspace.ts';
import { exportWorkspace } from '../src/ingest/export.ts';
import { rowValues } from '../src/ingest/import-rows.ts';
import { importFiles } from '../src/ingest/run-import.ts';
import { FORMAT_OF } from '../src/ingest/transfer-format.ts';
import { defineCustomField } from '../src/resources/custom-fields/writes.ts';
import { createToken, createWorkspace, firstAdmin } from '../src/resources/workspaces/writes.ts';
import { verifyWorkspace } from '../src/store/read-model/verify.ts';
import { writeWorkspace } from '../src/store/write.ts';
import { get, testApp, testStore } from './helpers.ts';

type TestStore = Awaited<ReturnType<typeof testStore>>;

/** The differences `salescrm verify` finds in a workspace, as it prints them. */
async function verifyDifferences(store: TestStore, workspaceId: string): Promise<string[]> {
  const out: string[] = [];
  await verifyWorkspace(store, workspaceId, { onDifference: (d) => out.push(differenceLine(d)) });
  return out;
}

/** Every list endpoint a workspace answers, walked page by page. */
const LISTS = [
  '/v2/people',
  '/v2/organization',
  '/v2/deal',
  '/v2/lead',
  '/v2/product',
  '/v2/user',
  '/v2/team',
  '/v2/todo',
  '/v2/memo',
  '/v2/webForm',
  '/v2/sequence',
  '/v2/people/activity',
  '/v2/organization/activity',
  '/v2/lead/activity',
  '/v2/deal/activity',
  '/v2/people/history',
  '/v2/organization/history',
  '/v2/deal/history',
  '/v2/lead/history',
];

/** Cursors are bound to their workspace (DECISIONS 2): the one thing that may differ. */
function withoutCursors(text: string): string {
  return text.replace(/"(nextCursor|nextCurosr)":"[^"]*"/g, '"$1":"…"');
}

/** Walks `url` in both workspaces at once (each in its app); asserts each page is the same bytes. */
async function comparePages(
  apps: [FastifyInstance, FastifyInstance],
  tokens: [string, string],
  url: string,
): Promise<number> {
  let cursors: [string | null, string | null] = [null, null];
  let pages = 0;
  do {
    const at = (c: string | null) =>
      c ? `${url}${url.includes('?') ? '&' : '?'}cursor=${c}` : url;
    const a = await get(apps[0], tokens[0], at(cursors[0]));
    const b = await get(apps[1], tokens[1], at(cursors[1]));
    expect(a.status, `${url}: ${a.text.slice(0, 200)}`).toBe(200);
    expect(withoutCursors(b.text), url).toBe(withoutCursors(a.text));
    cursors = [a.json.data.nextCursor ?? null, b.json.data.nextCursor ?? null];
    pages++;
  } while (cursors[0]);
  return pages;
}

async function exportToFile(store: TestStore, workspaceId: string, file: string) {
  const out = createWriteStream(file);
  const result = await exportWorkspace(store.path, workspaceId, out);
  out.end();
  await finished(out);
  return result;
}

describe('export then import into a fresh workspace', () => {
  let store: TestStore;
  let app: FastifyInstance;
  let source: { workspaceId: string; token: string };
  let target: { workspaceId: string; token: string };
  let file: string;
  let exported: number;

  beforeAll(async () => {
    store = await testStore();
    const demo = await createDemoWorkspace(store, { seed: 7, people: 300 });
    source = { workspaceId: demo.workspaceId, token: demo.token };
    // Field settings of the field API (migrations 011, 018), which the export must carry too.
    await writeWorkspace(store, demo.workspaceId, async (w) => {
      await defineCustomField(w, {
        recordType: 'people',
        name: '주민번호',
        type: 'string',
        description: '민감한 값',
        showInCreateForm: true,
        isSensitive: true,
      });
      await defineCustomField(w, {
        recordType: 'deal',
        name: '계약 번호',
        type: 'number',
        preventDuplicates: true,
      });
      // A formula field (migration 018): its formula goes with it, its values are computed.
      await defineCustomField(w, {
        recordType: 'deal',
        name: '부가세 포함 금액',
        type: 'number',
        formula: '{{딜.금액}} * 1.1',
      });
    });
    file = `${store.path}.ndjson`;
    exported = (await exportToFile(store, demo.workspaceId, file)).records;
    const workspaceId = await createWorkspace(store, '가져온 워크스페이스');
    const result = await importFiles(store, {
      workspaceId,
      files: [file],
      actorId: '',
    });
    expect(result.rejects).toEqual([]);
    expect(result.committed).toBe(true);
    const admin = await firstAdmin(store, demo.workspaceId);
    const { token } = await createToken(store, workspaceId, admin!);
    target = { workspaceId, token };
    app = await testApp(store);
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await store?.dispose();
  });

  it('writes a header, then one line per row, every row of the workspace', () => {
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    const header = JSON.parse(lines[0]!);
    expect(header).toMatchObject({ type: 'header', format: 'salescrm-workspace', version: 1 });
    const total = Object.values(header.counts as Record<string, number>).reduce((a, b) => a + b);
    expect(lines.length - 1).toBe(total);
    expect(total).toBe(exported);
    expect(header.counts.person).toBe(300);
    for (const type of [
      'user',
      'team',
      'pipeline',
      'customField',
      'deal',
      'quoteLine',
      'history',
      'sequence',
      'sequenceStep',
      'sequenceEvent',
    ]) {
      expect(header.counts[type], type).toBeGreaterThan(0);
    }
  });

  it('gives byte-identical list pages on every list endpoint', async () => {
    for (const url of LISTS) await comparePages([app, app], [source.token, target.token], url);
  }, 120_000);

  it('gives byte-identical single records, deal quotes, web-form submissions and sequences', async () => {
    const tokens: [string, string] = [source.token, target.token];
    const ids = async (
      table: 'people' | 'organizations' | 'deals' | 'leads' | 'web_forms' | 'sequences',
    ) =>
      (
        await store.db
          .selectFrom(table)
          .select('id')
          .where('workspace_id', '=', source.workspaceId)
          .execute()
      ).map((r) => r.id);
    const urls = [
      ...(await ids('people')).slice(0, 60).map((id) => `/v2/people/${id}`),
      ...(await ids('organizations')).slice(0, 30).map((id) => `/v2/organization/${id}`),
      ...(await ids('deals'))
        .slice(0, 40)
        .flatMap((id) => [`/v2/deal/${id}`, `/v2/deal/${id}/quote`]),
      ...(await ids('leads'))
        .slice(0, 30)
        .flatMap((id) => [`/v2/lead/${id}`, `/v2/lead/${id}/quote`]),
      ...(await ids('web_forms')).map((id) => `/v2/webForm/${id}/submit`),
      ...(await ids('sequences')).flatMap((id) => [
        `/v2/sequence/${id}`,
        `/v2/sequence/${id}/step`,
        `/v2/sequence/${id}/enrollment`,
      ]),
      ...(
        await store.db
          .selectFrom('sequence_timeline')
          .select('enrollment_id')
          .distinct()
          .where('workspace_id', '=', source.workspaceId)
          .limit(30)
          .execute()
      ).map((r) => `/v2/sequence/enrollment/${r.enrollment_id}/timeline`),
    ];
    for (const url of urls) await comparePages([app, app], tokens, url);
  }, 120_000);

  it('gives the same field definitions, with their settings', async () => {
    for (const type of ['people', 'organization', 'deal', 'lead', 'product', 'quote', 'todo']) {
      const a = await get(app, source.token, `/v2/field/${type}`);
      const b = await get(app, target.token, `/v2/field/${type}`);
      expect(b.text, type).toBe(a.text);
    }
    const settings = (workspaceId: string) =>
      store.db
        .selectFrom('custom_fields')
        .select([
          'name',
          'description',
          'show_in_create_form',
          'is_sensitive',
          'prevent_duplicates',
        ])
        .where('workspace_id', '=', workspaceId)
        .where('name', 'in', ['주민번호', '계약 번호'])
        .orderBy('name')
        .execute();
    const imported = await settings(target.workspaceId);
    expect(imported).toEqual(await settings(source.workspaceId));
    expect(
      imported.map((r) => [
        r.name,
        r.description,
        Number(r.show_in_create_form),
        Number(r.is_sensitive),
        Number(r.prevent_duplicates),
      ]),
    ).toEqual([
      ['계약 번호', null, 0, 0, 1],
      ['주민번호', '민감한 값', 1, 1, 0],
    ]);
  });

  it('reads a custom field line of an earlier export, without the settings, with none set', () => {
    const f = FORMAT_OF.get('customField')!;
    const line = {
      type: 'customField',
      id: 'field0000000000000001',
      record_type: 'people',
      name: '옛 필드',
      kind: 'string',
      position: 0,
      required: false,
      options: null,
      created_at: '2024-04-08T00:00:00.000Z',
    };
    expect(f.check.Check(line)).toBe(true);
    const row = rowValues(f, line, 'ws1', 'API');
    const at = (column: string) => row[1 + f.columns.findIndex((c) => c.name === column)];
    expect([
      at('description'),
      at('show_in_create_form'),
      at('is_sensitive'),
      at('prevent_duplicates'),
    ]).toEqual([null, 0, 0, 0]);
    expect(f.check.Check({ ...line, is_sensitive: 'yes' })).toBe(false);
  });

  it('exports the imported workspace as the same lines', async () => {
    const again = `${store.path}.again.ndjson`;
    await exportToFile(store, target.workspaceId, again);
    const body = (f: string) => readFileSync(f, 'utf8').split('\n').slice(1).join('\n');
    expect(body(again)).toBe(body(file));
  });

  it('refuses a second import of the same file: every line a duplicate, nothing written', async () => {
    const before = await store.db
      .selectFrom('workspaces')
      .select('data_version')
      .where('id', '=', target.workspaceId)
      .executeTakeFirstOrThrow();
    const result = await importFiles(store, {
      workspaceId: target.workspaceId,
      files: [file],
      actorId: '',
      maxReported: 5,
    });
    expect(result.committed).toBe(false);
    expect(result.rejects).toHaveLength(5);
    expect(result.rejectCount).toBeGreaterThan(exported / 2);
    expect(result.rejects[0]).toMatchObject({ line: 2 });
    expect(result.rejects[0]!.reason).toMatch(/duplicate id/);
    const after = await store.db
      .selectFrom('workspaces')
      .select('data_version')
      .where('id', '=', target.workspaceId)
      .executeTakeFirstOrThrow();
    expect(after.data_version).toBe(before.data_version);
  });

  it('leaves both workspaces verifying clean: every stored JSON as the base tables render it', async () => {
    expect(await verifyDifferences(store, source.workspaceId)).toEqual([]);
    expect(await verifyDifferences(store, target.workspaceId)).toEqual([]);
  });
});

/** The indexes of a SQLite database, by name, with their SQL. */
function indexesOf(store: TestStore): Promise<{ name: string; sql: string | null }[]> {
  return store.db
    .selectFrom('sqlite_master' as never)
    .select(['name' as never, 'sql' as never])
    .where('type' as never, '=', 'index' as never)
    .orderBy('name' as never)
    .execute() as never;
}

describe('export then import into a new database (the workspace alone in it)', () => {
  let source: TestStore;
  let fresh: TestStore;
  let sourceApp: FastifyInstance;
  let freshApp: FastifyInstance;
  let tokens: [string, string];
  let file: string;
  let indexesBefore: { name: string; sql: string | null }[];
  let freshWorkspaceId: string;

  beforeAll(async () => {
    source = await testStore();
    const demo = await createDemoWorkspace(source, { seed: 11, people: 200 });
    file = `${source.path}.ndjson`;
    await exportToFile(source, demo.workspaceId, file);
    fresh = await testStore();
    const workspaceId = await createWorkspace(fresh, '새 데이터베이스');
    freshWorkspaceId = workspaceId;
    indexesBefore = await indexesOf(fresh);
    const result = await importFiles(fresh, { workspaceId, files: [file], actorId: '' });
    expect(result.rejects).toEqual([]);
    expect(result.committed).toBe(true);
    const admin = await firstAdmin(source, demo.workspaceId);
    const { token } = await createToken(fresh, workspaceId, admin!);
    tokens = [demo.token, token];
    sourceApp = await testApp(source);
    freshApp = await testApp(fresh);
  }, 120_000);

  afterAll(async () => {
    await sourceApp?.close();
    await freshApp?.close();
    await source?.dispose();
    await fresh?.dispose();
  });

  it('ends with every index the database had, as it was', async () => {
    expect(indexesBefore.length).toBeGreaterThan(30);
    expect(await indexesOf(fresh)).toEqual(indexesBefore);
  });

  it('gives the same list pages, walked through those indexes', async () => {
    for (const url of [
      '/v2/people',
      '/v2/deal',
      '/v2/deal/activity',
      '/v2/memo',
      '/v2/lead/history',
    ]) {
      await comparePages([sourceApp, freshApp], tokens, url);
    }
  });

  it('leaves the imported workspace verifying clean', async () => {
    expect(await verifyDifferences(fresh, freshWorkspaceId)).toEqual([]);
  });

  it('indexes the rows a second file brings to a table already indexed', async () => {
    const other = await testStore();
    try {
      const workspaceId = await createWorkspace(other, '두 파일');
      const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
      // The last activities go in a second file: the first one's history lines come after
      // its activities, so the activities' indexes exist when the second file is read.
      const activities = lines.filter((l) => l.startsWith('{"type":"activity"'));
      const late = new Set(activities.slice(-25));
      expect(late.size).toBe(25);
      const first = `${other.path}.1.ndjson`;
      const second = `${other.path}.2.ndjson`;
      writeFileSync(first, `${lines.filter((l) => !late.has(l)).join('\n')}\n`);
      writeFileSync(second, `${[...late].join('\n')}\n`);
      const result = await importFiles(other, {
        workspaceId,
        files: [first, second],
        actorId: '',
      });
      expect(result.rejects).toEqual([]);
      expect(result.committed).toBe(true);
      expect(await indexesOf(other)).toEqual(indexesBefore);
      const admin = await firstAdmin(other, workspaceId);
      const { token } = await createToken(other, workspaceId, admin!);
      const app = await testApp(other);
      try {
        await comparePages([sourceApp, app], [tokens[0], token], '/v2/deal/activity');
      } finally {
        await app.close();
      }
    } finally {
      await other.dispose();
    }
  });

  it('keeps the indexes when a refused file imports nothing', async () => {
    const other = await testStore();
    try {
      const workspaceId = await createWorkspace(other, '거절');
      const before = await indexesOf(other);
      const bad = `${other.path}.bad.ndjson`;
      const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
      lines.push('{"type":"person","id":"not an id"}');
      writeFileSync(bad, `${lines.join('\n')}\n`);
      const result = await importFiles(other, { workspaceId, files: [bad], actorId: '' });
      expect(result.committed).toBe(false);
      expect(result.rejects).toHaveLength(1);
      expect(await indexesOf(other)).toEqual(before);
      const people = await other.db
        .selectFrom('people')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(people.n)).toBe(0);
    } finally {
      await other.dispose();
    }
  });
});

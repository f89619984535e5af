import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoWorkspace } from '../src/ingest/demo/create-workspace.ts';
import { exportWorkspace } from '../src/ingest/export.ts';
import { importFiles } from '../src/ingest/run-import.ts';
import { SOURCE_IMPORT } from '../src/resources/owned.ts';
import { createWorkspace } from '../src/resources/workspaces/writes.ts';
import { post, type TestWorkspace, testApp, testStore, testWorkspace } from './helpers.ts';
import { salescrmArgs } from './salescrm-command.ts';

type TestStore = Awaited<ReturnType<typeof testStore>>;

const line = (o: Record<string, unknown>) => JSON.stringify(o);
const T = '2024-04-08T05:25:26.020Z';
const person = (id: string, extra: Record<string, unknown> = {}) => ({
  type: 'person',
  id,
  organization_id: null,
  name: `사람 ${id}`,
  email: `${id}@example.com`,
  phone: null,
  job_title: null,
  profile_image: null,
  linkedin: null,
  unsubscribed: false,
  unsubscribe_reason: null,
  source: SOURCE_IMPORT,
  owner_id: null,
  team_ids: [],
  custom: {},
  created_at: T,
  updated_at: T,
  ...extra,
});

async function count(store: TestStore, workspaceId: string, table: 'people' | 'organizations') {
  const row = await store.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('import rules', () => {
  let store: TestStore;
  let ws: TestWorkspace;
  let dir: string;

  beforeAll(async () => {
    store = await testStore();
    ws = await testWorkspace(store);
    // Its own folder on either store (a PostgreSQL test store has no file to sit beside).
    dir = join(mkdtempSync(join(tmpdir(), 'salescrm-import-rules-')), '/');
  });
  afterAll(async () => {
    await store?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const bad = () =>
    [
      line(person('p1')),
      '{not json',
      line(person('p2', { email: 'P1@example.com' })),
      line(person('p3', { organization_id: 'nowhere' })),
      line(person('activity')),
      line({ ...person('p4'), extra: 1 }),
      line(person('p5', { custom: { nofield: 1 } })),
      line(person('p6')),
    ].join('\n');

  it('refuses a file with bad lines whole, naming each line and why', async () => {
    const file = `${dir}bad.ndjson`;
    writeFileSync(file, bad());
    const result = await importFiles(store, {
      workspaceId: ws.workspaceId,
      files: [file],
      actorId: ws.userId,
    });
    expect(result.committed).toBe(false);
    expect(result.rejects.map((r) => r.line)).toEqual([2, 3, 4, 5, 6, 7]);
    const reasons = result.rejects.map((r) => r.reason);
    expect(reasons[0]).toMatch(/not JSON/);
    expect(reasons[1]).toMatch(/이미 존재하는 이메일입니다/);
    expect(reasons[2]).toMatch(/organization_id.*no organization 'nowhere'/);
    expect(reasons[3]).toMatch(/not a valid id/);
    expect(reasons[4]).toMatch(/\/extra/);
    expect(reasons[5]).toMatch(/no person field with id 'nofield'/);
    expect(await count(store, ws.workspaceId, 'people')).toBe(0);
  });

  it('with skipInvalid, imports the good lines and writes the refused ones to a file', async () => {
    const file = `${dir}bad2.ndjson`;
    writeFileSync(file, bad());
    const result = await importFiles(store, {
      workspaceId: ws.workspaceId,
      files: [file],
      actorId: ws.userId,
      skipInvalid: true,
    });
    expect(result.committed).toBe(true);
    expect(result.records).toBe(2);
    expect(result.rejectsPath).toBe(`${file}.rejects.ndjson`);
    const rejected = readFileSync(result.rejectsPath!, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rejected.map((r) => r.line)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(rejected[0].text).toBe('{not json');
    const rows = await store.db
      .selectFrom('people')
      .select(['id', 'body', 'source'])
      .where('workspace_id', '=', ws.workspaceId)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => r.id)).toEqual(['p1', 'p6']);
    expect(rows[0]!.source).toBe(SOURCE_IMPORT);
    expect(JSON.parse(String(rows[0]!.body)).이름).toBe('사람 p1');
  });

  it('compares e-mails and organization names as the API does, and the API sees imported ones as taken', async () => {
    const target = await testWorkspace(store, 'unique keys');
    const organization = (id: string, name: string) => ({
      type: 'organization',
      id,
      name,
      email: null,
      phone: null,
      profile_image: null,
      linkedin: null,
      source: SOURCE_IMPORT,
      owner_id: null,
      team_ids: [],
      custom: {},
      created_at: T,
      updated_at: T,
    });
    const file = `${dir}unique-keys.ndjson`;
    writeFileSync(
      file,
      [
        line(organization('o1', '(주)한빛 테크')),
        // The same name to the API: Unicode case, width and spacing aside.
        line(organization('o2', '  (주)한빛   테크 ')),
        line(person('p1', { email: 'Kim@Example.com' })),
        line(person('p2', { email: 'ＫＩＭ@example.com' })),
      ].join('\n'),
    );
    const result = await importFiles(store, {
      workspaceId: target.workspaceId,
      files: [file],
      actorId: target.userId,
      skipInvalid: true,
    });
    expect(result.committed).toBe(true);
    expect(result.rejects.map((r) => [r.line, r.reason])).toEqual([
      [2, expect.stringMatching(/이미 존재하는 이름입니다/)],
      [4, expect.stringMatching(/이미 존재하는 이메일입니다/)],
    ]);
    const app = await testApp(store);
    try {
      const person = await post(app, target.token, '/v2/people', {
        name: '김중복',
        fieldList: [{ name: '이메일', stringValue: 'kim@EXAMPLE.com' }],
      });
      expect(person.status).toBe(400);
      expect(person.json.data).toEqual({ id: 'p1', name: '사람 p1' });
      const org = await post(app, target.token, '/v2/organization', { name: '(주)한빛 테크' });
      expect(org.status).toBe(400);
      expect(org.json.data).toEqual({ id: 'o1', name: '(주)한빛 테크' });
    } finally {
      await app.close();
    }
  });

  it('imports CSV people with Korean headers through the API rules, source 데이터 업로드', async () => {
    const file = `${dir}고객.csv`;
    writeFileSync(
      file,
      [
        '이름,이메일,전화,포지션',
        '김철수,kim@example.com,010-1234-5678,팀장',
        '박영희,not-an-email,,',
        '이중,kim@example.com,,',
        '"최, 민수",choi@example.com,,대리',
      ].join('\n'),
    );
    const refused = await importFiles(store, {
      workspaceId: ws.workspaceId,
      files: [file],
      actorId: ws.userId,
    });
    expect(refused.committed).toBe(false);
    expect(refused.rejects.map((r) => r.line)).toEqual([3, 4]);
    expect(refused.rejects[0]!.reason).toMatch(/이메일/);
    expect(refused.rejects[1]!.reason).toMatch(/이미 존재하는 이메일/);

    const result = await importFiles(store, {
      workspaceId: ws.workspaceId,
      files: [file],
      actorId: ws.userId,
      skipInvalid: true,
      rejectsPath: `${dir}csv-rejects.ndjson`,
    });
    expect(result.committed).toBe(true);
    expect(result.counts.person).toBe(2);
    const rows = await store.db
      .selectFrom('people')
      .select(['name', 'source', 'job_title', 'body'])
      .where('workspace_id', '=', ws.workspaceId)
      .where('email', 'in', ['kim@example.com', 'choi@example.com'])
      .orderBy('name')
      .execute();
    expect(rows.map((r) => [r.name, r.source, r.job_title])).toEqual([
      ['김철수', SOURCE_IMPORT, '팀장'],
      ['최, 민수', SOURCE_IMPORT, '대리'],
    ]);
    expect(JSON.parse(String(rows[0]!.body)).이름).toBe('김철수');
  });

  it("names the CSV's own column in a refusal, not the body's key", async () => {
    const file = `${dir}people-missing-name.csv`;
    writeFileSync(
      file,
      ['이름,이메일', ',someone@example.com', `${'가'.repeat(501)},x@example.com`].join('\n'),
    );
    const result = await importFiles(store, {
      workspaceId: ws.workspaceId,
      files: [file],
      actorId: ws.userId,
      skipInvalid: true,
    });
    expect(result.rejects.map((r) => r.reason)).toEqual([
      "'이름': 값이 필요합니다",
      expect.stringMatching(/^'이름': 값이 올바르지 않습니다/),
    ]);
    for (const r of result.rejects) expect(r.reason).not.toContain('/name');
  });

  it('reports progress in bytes of the files: never past their total, all of it at the end', async () => {
    const files = [`${dir}고객-progress-a.csv`, `${dir}고객-progress-b.csv`];
    writeFileSync(
      files[0]!,
      ['이름', ...Array.from({ length: 50 }, (_, i) => `진행${i}`)].join('\n'),
    );
    writeFileSync(
      files[1]!,
      ['이름', ...Array.from({ length: 30 }, (_, i) => `진척${i}`)].join('\n'),
    );
    const seen: [number, number][] = [];
    const result = await importFiles(store, {
      workspaceId: ws.workspaceId,
      files,
      actorId: ws.userId,
      onProgress: (_records, done, total) => seen.push([done, total]),
    });
    expect(result.committed).toBe(true);
    const total = files.reduce((n, f) => n + readFileSync(f).length, 0);
    expect(seen.length).toBeGreaterThan(0);
    for (const [done, t] of seen) {
      expect(t).toBe(total);
      expect(done).toBeLessThanOrEqual(total);
    }
    expect(seen.at(-1)).toEqual([total, total]);
  });

  it('imports sequences with steps and timelines; a sequence line from before descriptions has none', async () => {
    const workspaceId = await createWorkspace(store, '시퀀스 가져오기');
    const file = `${dir}sequences.ndjson`;
    writeFileSync(
      file,
      [
        line({ type: 'sequence', id: 's-old', name: '예전 시퀀스', created_at: T }),
        line({
          type: 'sequence',
          id: 's-new',
          name: '새 시퀀스',
          created_at: T,
          description: '설명',
        }),
        line(person('sp1', { email: 'sp1@example.com' })),
        line({
          type: 'enrollment',
          id: 'e1',
          sequence_id: 's-new',
          subject_type: 'people',
          subject_id: 'sp1',
          enrolled_at: T,
          active: true,
        }),
        line({
          type: 'sequenceStep',
          id: 'st1',
          sequence_id: 's-new',
          position: 0,
          kind: 'sendEmail',
          execute_immediately: true,
          business_day: 0,
          execution_time: null,
        }),
        line({
          type: 'sequenceEvent',
          id: 'ev1',
          enrollment_id: 'e1',
          event_type: 'emailLinkClick',
          step_index: 0,
          date: T,
          email_id: 'm1',
          link_url: 'https://example.com',
          link_name: '링크',
        }),
      ].join('\n'),
    );
    const result = await importFiles(store, { workspaceId, files: [file], actorId: '' });
    expect(result.rejects).toEqual([]);
    expect(result.committed).toBe(true);
    const sequences = await store.db
      .selectFrom('sequences')
      .select(['id', 'description'])
      .where('workspace_id', '=', workspaceId)
      .orderBy('id')
      .execute();
    expect(sequences).toEqual([
      { id: 's-new', description: '설명' },
      { id: 's-old', description: null },
    ]);
    const step = await store.db
      .selectFrom('sequence_steps')
      .select(['sequence_id', 'type', 'execute_immediately'])
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow();
    expect(step).toEqual({ sequence_id: 's-new', type: 'sendEmail', execute_immediately: 1 });
    const event = await store.db
      .selectFrom('sequence_timeline')
      .select(['enrollment_id', 'link_name'])
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow();
    expect(event).toEqual({ enrollment_id: 'e1', link_name: '링크' });
  });

  it('refuses a CSV header naming a field the record type does not have', async () => {
    const file = `${dir}organizations.csv`;
    writeFileSync(file, '이름,없는필드\n회사,값\n');
    const result = await importFiles(store, {
      workspaceId: ws.workspaceId,
      files: [file],
      actorId: ws.userId,
    });
    expect(result.committed).toBe(false);
    expect(result.rejects[0]).toMatchObject({ line: 1 });
    expect(result.rejects[0]!.reason).toMatch(/unknown column '없는필드'/);
  });

  // It exports its input from the store's file first (a SQLite path).
  it.skipIf(process.env.SALESCRM_TEST_STORE === 'postgres')(
    'leaves the workspace as it was when the import process is killed midway',
    async () => {
      const demo = await createDemoWorkspace(store, { seed: 3, people: 1500 });
      const file = `${dir}big.ndjson`;
      const out = createWriteStream(file);
      await exportWorkspace(store.path, demo.workspaceId, out);
      out.end();
      await finished(out);
      const target = await createWorkspace(store, '빈 워크스페이스');
      const child = spawn(
        process.execPath,
        [...salescrmArgs(), 'import', '--workspace', target, file],
        {
          env: { ...process.env, DATABASE_URL: `sqlite:${store.path}` },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stderr = '';
      const exited = new Promise<number | null>((resolve) =>
        child.on('exit', (code) => resolve(code)),
      );
      await new Promise<void>((resolve, reject) => {
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          if (/import: \d+ records/.test(stderr)) resolve();
        });
        child.on('exit', () => reject(new Error(`import ended before it was killed: ${stderr}`)));
      });
      child.kill('SIGKILL');
      expect(await exited).toBe(null);
      expect(await count(store, target, 'people')).toBe(0);
      const version = await store.db
        .selectFrom('workspaces')
        .select('data_version')
        .where('id', '=', target)
        .executeTakeFirstOrThrow();
      expect(Number(version.data_version)).toBe(0);
    },
    120_000,
  );
});

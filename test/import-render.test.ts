import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoWorkspace } from '../src/ingest/demo/create-workspace.ts';
import { exportWorkspace } from '../src/ingest/export.ts';
import { importFiles } from '../src/ingest/run-import.ts';
import { SOURCE_IMPORT } from '../src/resources/owned.ts';
import { createWorkspace } from '../src/resources/workspaces/writes.ts';
import { type RenderedType, TABLE_OF } from '../src/store/read-model/rendered-types.ts';
import { verifyWorkspace } from '../src/store/read-model/verify.ts';
import { writeWorkspace } from '../src/store/write.ts';
import { TEST_DIALECT, testStore } from './helpers.ts';

type TestStore = Awaited<ReturnType<typeof testStore>>;
type Line = Record<string, unknown>;

/**
 * An import renders the records of its file once, as it writes them, from what the file's
 * lines say about them. The oracle is the read model's own rendering from the database:
 * after the import, every record is rendered again that way, and each stored JSON must be
 * the same bytes.
 */

const T = (n: number) => new Date(Date.UTC(2024, 0, 1, 0, 0, n)).toISOString();
const owned = (n: number) => ({
  owner_id: 'u1',
  team_ids: ['t1'],
  custom: {},
  created_at: T(n),
  updated_at: T(n),
});

const user = (id: string, name: string): Line => ({
  type: 'user',
  id,
  name,
  email: `${id}@example.com`,
  status: 'active',
  role: 'admin',
  created_at: T(0),
  updated_at: T(0),
});
const field = (id: string, record_type: string, name: string, kind: string, position = 0) => ({
  type: 'customField',
  id,
  record_type,
  name,
  kind,
  position,
  required: false,
  options: null,
  created_at: T(0),
});
const org = (id: string, extra: Line = {}): Line => ({
  type: 'organization',
  id,
  name: `회사 ${id}`,
  email: null,
  phone: null,
  profile_image: null,
  linkedin: null,
  source: SOURCE_IMPORT,
  ...owned(1),
  ...extra,
});
const person = (id: string, extra: Line = {}): Line => ({
  type: 'person',
  id,
  organization_id: null,
  name: `사람 ${id}`,
  email: null,
  phone: null,
  job_title: null,
  profile_image: null,
  linkedin: null,
  unsubscribed: false,
  unsubscribe_reason: null,
  source: SOURCE_IMPORT,
  ...owned(2),
  ...extra,
});
const pipelineRecord = (type: 'deal' | 'lead', id: string, extra: Line = {}): Line => ({
  type,
  id,
  people_id: null,
  organization_id: null,
  name: `${type} ${id}`,
  pipeline_id: null,
  stage_id: null,
  stage_entered_at: null,
  amount: 1000,
  label: null,
  closed_at: null,
  expected_close_at: null,
  source: SOURCE_IMPORT,
  ...owned(3),
  ...(type === 'deal' ? { outcome: 'In progress', follower_ids: [], participant_ids: [] } : {}),
  ...extra,
});
const product = (id: string, kind: string, extra: Line = {}): Line => ({
  type: 'product',
  id,
  name: `상품 ${id}`,
  code: null,
  kind,
  price: 100,
  unit: null,
  ...owned(0),
  ...extra,
});
const quote = (id: string, extra: Line): Line => ({
  type: 'quote',
  id,
  deal_id: null,
  lead_id: null,
  name: `견적 ${id}`,
  is_main: false,
  share_link: null,
  ...owned(4),
  ...extra,
});
const quoteLine = (id: string, quote_id: string, product_id: string, position: number) => ({
  type: 'quoteLine',
  id,
  quote_id,
  position,
  product_id,
  price: 10 + position,
  quantity: 2,
  payment_count: product_id === 'plain' ? null : 3,
  payment_start_at: product_id === 'plain' ? null : T(50),
  custom: {},
});
const note = (id: string, subject_type: string, subject_id: string, at: number, text = id) => ({
  type: 'note',
  id,
  subject_type,
  subject_id,
  text: `노트 ${text}`,
  author_id: 'u1',
  created_at: T(at),
  updated_at: T(at),
});
const todo = (
  id: string,
  subject_type: string,
  subject_id: string,
  due: number | null,
  done: boolean,
) => ({
  type: 'todo',
  id,
  subject_type,
  subject_id,
  title: `할 일 ${id}`,
  kind: '전화',
  start_at: null,
  due_at: due === null ? null : T(due),
  done,
  done_at: null,
  owner_id: null,
  created_at: T(5),
  updated_at: T(5),
  custom: {},
});
const submission = (id: string, at: number, links: Line) => ({
  type: 'submission',
  id,
  web_form_id: 'wf1',
  people_id: null,
  organization_id: null,
  deal_id: null,
  lead_id: null,
  contents: [{ label: '이름', value: id }],
  created_at: T(at),
  ...links,
});
const enrollment = (
  id: string,
  sequence_id: string,
  subject_type: string,
  subject_id: string,
  at: number,
) => ({
  type: 'enrollment',
  id,
  sequence_id,
  subject_type,
  subject_id,
  enrolled_at: T(at),
  active: at % 2 === 0,
});
const activity = (
  id: string,
  subject_type: string,
  subject_id: string,
  kind: string,
  at: number,
) => ({
  type: 'activity',
  id,
  subject_type,
  subject_id,
  kind,
  date: T(at),
  deal_status: subject_type === 'deal' ? 'Won' : null,
  web_form_id: null,
  sms_id: null,
  todo_id: null,
  memo_id: null,
  email_message_id: null,
});
const history = (id: string, subject_type: string, subject_id: string, extra: Line = {}) => ({
  type: 'history',
  id,
  subject_type,
  subject_id,
  kind: subject_type === 'people' ? 'editOrganizationConnect' : 'editField',
  people_id: null,
  organization_id: null,
  field_name: '이름',
  field_value: '값',
  owner_id: 'u1',
  created_at: T(9),
  ...extra,
});

/** The workspace structure every file below starts with (lines that refer to nothing). */
const structure: Line[] = [
  user('u1', '김담당'),
  user('u2', '이담당'),
  { type: 'team', id: 't1', name: '1팀', description: null, created_at: T(0) },
  { type: 'teamMember', team_id: 't1', user_id: 'u1', position: 0 },
  {
    type: 'pipeline',
    id: 'pd',
    kind: 'deal',
    name: '딜 파이프라인',
    position: 0,
    created_at: T(0),
  },
  { type: 'pipelineStage', id: 's1', pipeline_id: 'pd', name: '첫 단계', position: 0 },
  field('fp', 'people', '추천 딜', 'deal', 0),
  field('fd', 'deal', '추천인', 'people', 0),
  field('fo', 'organization', '관계사', 'multiOrganization', 0),
  field('fq', 'quoteProduct', '담당 고객', 'people', 0),
  {
    type: 'webForm',
    id: 'wf1',
    name: '문의',
    description: null,
    status: 'active',
    view_count: 3,
    created_at: T(0),
    updated_at: T(0),
  },
  { type: 'sequence', id: 'q1', name: '온보딩', created_at: T(0) },
  { type: 'sequence', id: 'q2', name: '재구매', created_at: T(0) },
];

/**
 * Records and the lines that give them facts, in an order a hand-written file may have:
 * facts right after their record, a record's facts split around other records, custom Ref
 * values naming records later in the file, and records without any fact.
 */
const records: Line[] = [
  product('plain', '일반'),
  product('monthly', '구독 (월간)'),
  org('o1', { custom: { fo: ['o2'] } }),
  person('p1', { organization_id: 'o1', custom: { fp: 'd2' } }),
  note('n1', 'people', 'p1', 10),
  note('n2', 'people', 'p1', 10, 'same time, later id'),
  note('n0', 'people', 'p1', 3),
  org('o2'),
  person('p2', { organization_id: 'o1' }),
  person('p3', { email: 'p3@example.com' }),
  pipelineRecord('deal', 'd1', {
    people_id: 'p1',
    organization_id: 'o1',
    outcome: 'Won',
    pipeline_id: 'pd',
    stage_id: 's1',
    custom: { fd: 'p2' },
  }),
  todo('td1', 'people', 'p1', 30, false),
  todo('td2', 'people', 'p1', 20, true),
  todo('td3', 'people', 'p1', null, false),
  pipelineRecord('deal', 'd2', { people_id: 'p1', outcome: 'Lost' }),
  pipelineRecord('deal', 'd3', { organization_id: 'o1' }),
  pipelineRecord('lead', 'l1', { people_id: 'p2', organization_id: 'o1' }),
  quote('qa', { deal_id: 'd1', is_main: true }),
  quoteLine('qa2', 'qa', 'monthly', 2),
  quoteLine('qa1', 'qa', 'plain', 1),
  quote('qb', { deal_id: 'd1' }),
  quoteLine('qb1', 'qb', 'plain', 0),
  quote('qc', { lead_id: 'l1', is_main: true }),
  quoteLine('qc1', 'qc', 'plain', 5),
  { ...quoteLine('qc2', 'qc', 'plain', 5), custom: { fq: 'p3' } },
  quote('qd', { deal_id: 'd2', is_main: true }),
  note('n3', 'deal', 'd1', 12),
  note('n4', 'quote', 'qa', 12),
  note('n5', 'product', 'plain', 1),
  note('n6', 'organization', 'o1', 2),
  todo('td4', 'deal', 'd1', 8, false),
  todo('td5', 'organization', 'o1', null, true),
  submission('sb2', 20, { people_id: 'p1', organization_id: 'o1', deal_id: 'd1' }),
  submission('sb1', 10, { people_id: 'p1', lead_id: 'l1' }),
  submission('sb3', 10, { organization_id: 'o1' }),
  enrollment('e2', 'q2', 'people', 'p1', 4),
  enrollment('e1', 'q1', 'people', 'p2', 3),
  enrollment('e3', 'q1', 'people', 'p1', 6),
  enrollment('e4', 'q1', 'deal', 'd1', 6),
  enrollment('e5', 'q2', 'lead', 'l1', 1),
  activity('a1', 'deal', 'd1', 'emailOpen', 30),
  activity('a2', 'deal', 'd1', 'emailOpen', 40),
  activity('a3', 'deal', 'd1', 'call', 50),
  activity('a4', 'lead', 'l1', 'emailOpen', 7),
  activity('a5', 'people', 'p1', 'emailOpen', 7),
  history('h1', 'people', 'p1', { organization_id: 'o1' }),
  history('h2', 'deal', 'd1', { people_id: 'p1', organization_id: 'o2' }),
  history('h3', 'organization', 'o1'),
];

const ndjson = (lines: Line[]) => `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;

/** The stored JSON of every rendered record of a workspace, by type and id. */
async function bodies(store: TestStore, workspaceId: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [type, table] of Object.entries(TABLE_OF)) {
    const rows = await store.db
      .selectFrom(table)
      .select(['id', 'body'])
      .where('workspace_id', '=', workspaceId)
      .orderBy('id')
      .execute();
    for (const r of rows) out[`${type} ${r.id}`] = String(r.body);
  }
  const rows = await store.db
    .selectFrom('history')
    .select(['id', 'body'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('id')
    .execute();
  for (const r of rows) out[`history ${r.id}`] = String(r.body);
  return out;
}

/** The same records, rendered again by the read model from the database. */
async function rendered(store: TestStore, workspaceId: string): Promise<Record<string, string>> {
  await writeWorkspace(store, workspaceId, async (w) => {
    for (const type of Object.keys(TABLE_OF) as RenderedType[]) w.touched.markAll(type);
  });
  return bodies(store, workspaceId);
}

describe('an import renders each record once, as the read model renders it', () => {
  let store: TestStore;
  let dir: string;
  let files = 0;

  beforeAll(async () => {
    store = await testStore();
    dir = mkdtempSync(join(tmpdir(), 'salescrm-import-render-'));
  });
  afterAll(async () => {
    await store?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  async function importLines(workspaceId: string, lines: Line[], skipInvalid = false) {
    const file = join(dir, `${++files}.ndjson`);
    writeFileSync(file, ndjson(lines));
    return importFiles(store, { workspaceId, files: [file], actorId: '', skipInvalid });
  }

  it('whatever the order of the lines that give a record its facts', async () => {
    const workspaceId = await createWorkspace(store, 'w');
    const result = await importLines(workspaceId, [...structure, ...records]);
    expect(result.rejects).toEqual([]);
    // salescrm verify agrees, chunk by chunk.
    const report = await verifyWorkspace(store, workspaceId, { chunk: 3 });
    expect([report.differences, report.indexDifferences]).toEqual([0, 0]);
    const imported = await bodies(store, workspaceId);
    expect(await rendered(store, workspaceId)).toEqual(imported);

    // The facts that come from later lines, as the records show them.
    const p1 = JSON.parse(imported['people p1']!);
    expect(p1).toMatchObject({
      '리드 개수': 0,
      '딜 개수': 2,
      '성사된 딜 개수': 1,
      '실패된 딜 개수': 1,
      '최근 작성된 노트': '노트 same time, later id',
      '다음 TODO': '할 일 td1',
      '전체 TODO': 3,
      '완료 TODO': 1,
      '최근 제출된 웹폼': { id: 'wf1', name: '문의' },
      '최근 등록한 시퀀스': { id: 'q1', name: '온보딩' },
      '추천 딜': { id: 'd2', name: 'deal d2' },
    });
    const d1 = JSON.parse(imported['deal d1']!);
    expect(d1['메인 견적 상품 리스트']).toEqual([
      { id: 'plain', name: '상품 plain' },
      { id: 'monthly', name: '상품 monthly' },
    ]);
    expect(d1['최근 이메일 오픈일']).toBe(T(40));
    expect(d1.추천인).toEqual({ id: 'p2', name: '사람 p2' });
    expect(JSON.parse(imported['deal d2']!)['메인 견적 상품 리스트']).toEqual([]);
    expect(JSON.parse(imported['deal d3']!)['메인 견적 상품 리스트']).toBe(null);
    const o1 = JSON.parse(imported['organization o1']!);
    expect(o1['등록된 시퀀스 목록']).toEqual([
      { id: 'q1', name: '온보딩' },
      { id: 'q2', name: '재구매' },
    ]);
    expect(o1['딜 개수']).toBe(2);
    expect(o1['리드 개수']).toBe(1);
    expect(o1.관계사).toEqual([{ id: 'o2', name: '회사 o2' }]);
    expect(JSON.parse(imported['history h2']!)).toMatchObject({});
    expect(imported['history h2']).toContain('사람 p1');
    expect(imported['history h2']).toContain('회사 o2');
  });

  it('with records the workspace held before: those are rendered again with the new facts', async () => {
    const workspaceId = await createWorkspace(store, 'w');
    const first = records
      .filter((l) => ['product', 'organization', 'person'].includes(l.type as string))
      .map((l) => (l.id === 'p1' ? { ...l, custom: {} } : l));
    expect((await importLines(workspaceId, [...structure, ...first])).rejects).toEqual([]);
    const rest = records.filter((l) => !first.some((f) => f.id === l.id && f.type === l.type));
    const more = [
      field('fn', 'people', '새 필드', 'string', 5),
      person('p9', { custom: { fp: 'd1' } }),
      note('n9', 'people', 'p9', 1),
    ];
    const result = await importLines(workspaceId, [...rest, ...more]);
    expect(result.rejects).toEqual([]);
    // salescrm verify agrees, chunk by chunk.
    const report = await verifyWorkspace(store, workspaceId, { chunk: 3 });
    expect([report.differences, report.indexDifferences]).toEqual([0, 0]);
    const imported = await bodies(store, workspaceId);
    expect(await rendered(store, workspaceId)).toEqual(imported);
    const p1 = JSON.parse(imported['people p1']!);
    expect(p1['딜 개수']).toBe(2);
    expect(p1['새 필드']).toBe(null);
    expect(JSON.parse(imported['people p9']!)['추천 딜']).toEqual({ id: 'd1', name: 'deal d1' });
  });

  it('leaving out records whose Ref values name nothing (skipInvalid), and what they gave others', async () => {
    const workspaceId = await createWorkspace(store, 'w');
    const bad = { fp: 'nowhere' };
    const lines = [
      ...structure,
      field('fx', 'product', '담당 딜', 'deal', 0),
      field('ft', 'todo', '관련 딜', 'deal', 0),
      product('plain', '일반'),
      product('gone', '구독 (연간)', { custom: { fx: 'nowhere' } }),
      org('o1'),
      person('p1', { organization_id: 'o1' }),
      person('px', { organization_id: 'o1', custom: bad }),
      pipelineRecord('deal', 'd1', {
        people_id: 'p1',
        organization_id: 'o1',
        custom: { fd: 'px' },
      }),
      pipelineRecord('deal', 'dx', {
        people_id: 'p1',
        organization_id: 'o1',
        outcome: 'Won',
        custom: { fd: 'p1' },
      }),
      pipelineRecord('deal', 'dy', { people_id: 'p1', custom: { fd: 'nobody' } }),
      quote('qx', { deal_id: 'd1', is_main: true, custom: {} }),
      quoteLine('l1', 'qx', 'plain', 1),
      { ...quoteLine('l2', 'qx', 'plain', 2), custom: { fq: 'nobody' } },
      quoteLine('l3', 'qx', 'gone', 3),
      todo('t1', 'people', 'p1', 1, false),
      { ...todo('t2', 'people', 'p1', 0, false), custom: { ft: 'nowhere' } },
      enrollment('e1', 'q1', 'people', 'px', 1),
      enrollment('e2', 'q2', 'people', 'p1', 2),
      history('h1', 'people', 'px', { organization_id: 'o1' }),
    ];
    const result = await importLines(workspaceId, lines, true);
    expect(result.committed).toBe(true);
    expect(result.rejects.map((r) => r.reason).sort()).toEqual(
      [
        "person 'px': '추천 딜' 필드: no deal 'nowhere'",
        "product 'gone': '담당 딜' 필드: no deal 'nowhere'",
        "deal 'dy': '추천인' 필드: no person 'nobody'",
        "quoteLine 'l2': '담당 고객' 필드: no person 'nobody'",
        "todo 't2': '관련 딜' 필드: no deal 'nowhere'",
      ].sort(),
    );
    const imported = await bodies(store, workspaceId);
    expect(Object.keys(imported)).not.toContain('people px');
    expect(Object.keys(imported)).not.toContain('deal dy');
    expect(await rendered(store, workspaceId)).toEqual(imported);
    const p1 = JSON.parse(imported['people p1']!);
    expect(p1['딜 개수']).toBe(2);
    expect(p1['다음 TODO']).toBe('할 일 t1');
    const d1 = JSON.parse(imported['deal d1']!);
    expect(d1.추천인).toEqual({ id: 'px', name: '' });
    expect(d1['메인 견적 상품 리스트']).toEqual([
      { id: 'plain', name: '상품 plain' },
      { id: 'gone', name: '' },
    ]);
    expect(JSON.parse(imported['organization o1']!)['등록된 시퀀스 목록']).toEqual([
      { id: 'q2', name: '재구매' },
    ]);
  });

  it('shows an unpaired surrogate in text as the store reads it back', async () => {
    const workspaceId = await createWorkspace(store, 'w');
    const lines = [
      ...structure,
      org('o1', { name: '회사 \ud800' }),
      person('p1', { organization_id: 'o1', name: 'x\udc00y', job_title: '\ud83d\ude00' }),
      pipelineRecord('deal', 'd1', { people_id: 'p1', custom: { fd: 'p1' } }),
      note('n1', 'people', 'p1', 1, '\ud800 끝'),
      history('h1', 'people', 'p1', { organization_id: 'o1' }),
      history('h2', 'deal', 'd1', { people_id: 'p1' }),
    ];
    expect((await importLines(workspaceId, lines)).rejects).toEqual([]);
    const imported = await bodies(store, workspaceId);
    expect(await rendered(store, workspaceId)).toEqual(imported);
    expect(JSON.parse(imported['people p1']!).포지션).toBe('\ud83d\ude00');
  });

  it.skipIf(TEST_DIALECT === 'postgres')(
    'of a demo workspace exported with its lines reordered within each type',
    async () => {
      const demo = await createDemoWorkspace(store, { seed: 11, people: 200 });
      const file = join(dir, 'demo.ndjson');
      const { createWriteStream } = await import('node:fs');
      const { finished } = await import('node:stream/promises');
      const out = createWriteStream(file);
      await exportWorkspace(store.path, demo.workspaceId, out);
      out.end();
      await finished(out);
      const [header, ...lines] = readFileSync(file, 'utf8').trimEnd().split('\n');
      const byType = new Map<string, string[]>();
      for (const line of lines) {
        const type = JSON.parse(line).type as string;
        byType.set(type, [...(byType.get(type) ?? []), line]);
      }
      const reordered = [...byType.values()].flatMap((ls) => ls.reverse());
      writeFileSync(file, `${[header, ...reordered].join('\n')}\n`);
      const workspaceId = await createWorkspace(store, 'w');
      const result = await importFiles(store, { workspaceId, files: [file], actorId: '' });
      expect(result.rejects).toEqual([]);
      const imported = await bodies(store, workspaceId);
      expect(Object.keys(imported).length).toBeGreaterThan(500);
      expect(await rendered(store, workspaceId)).toEqual(imported);
    },
    60_000,
  );
});

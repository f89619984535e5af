/**
 * The search index's rows as migration 012 fills them, frozen: a copy of what
 * `src/domain/search-values.ts` and `src/store/read-model/search-index.ts` made of a
 * record's stored JSON when the index was built, so that the migration keeps its meaning
 * whatever those files become. Change nothing here: a new index needs a new migration.
 */
import { type Kysely, sql } from 'kysely';

/** The record types indexed, and their tables. */
export const INDEXED_TABLES = {
  people: 'people',
  organization: 'organizations',
  deal: 'deals',
  lead: 'leads',
} as const;
type IndexedType = keyof typeof INDEXED_TABLES;

/** A list of names, comma-separated (no name holds a comma). */
const list = (names: string): readonly string[] => names.split(',');

/** Built-in fields of each type: every name (a custom field never shadows one), and the dates held. */
const BUILT_IN: Record<IndexedType, { names: readonly string[]; dates: readonly string[] }> = {
  people: {
    names: list(
      'id,organizationId,이름,이메일,전화,포지션,프로필 사진,링크드인,리드 개수,딜 개수,' +
        '진행중 딜 개수,성사된 딜 개수,실패된 딜 개수,최근 작성된 노트,최근 노트 작성일,최근 노트 작성자,' +
        '최근 제출된 웹폼,최근 웹폼 제출 날짜,최근 등록한 시퀀스,최근 시퀀스 등록일,누적 시퀀스 등록수,' +
        '현재 진행중인 시퀀스 여부,수신 거부 여부,수신 거부 사유,담당자,생성 날짜,팀,수정 날짜,다음 TODO,' +
        '전체 TODO,완료 TODO,미완료 TODO,제출된 웹폼 목록,등록된 시퀀스 목록',
    ),
    dates: list('최근 노트 작성일,최근 웹폼 제출 날짜,최근 시퀀스 등록일,생성 날짜,수정 날짜'),
  },
  organization: {
    names: list(
      'id,이름,이메일,전화,프로필 사진,링크드인,리드 개수,딜 개수,진행중 딜 개수,성사된 딜 개수,' +
        '실패된 딜 개수,최근 작성된 노트,최근 노트 작성일,최근 노트 작성자,최근 제출된 웹폼,최근 웹폼 제출 날짜,' +
        '담당자,생성 날짜,팀,수정 날짜,다음 TODO,전체 TODO,완료 TODO,미완료 TODO,제출된 웹폼 목록,' +
        '등록된 시퀀스 목록',
    ),
    dates: list('최근 노트 작성일,최근 웹폼 제출 날짜,생성 날짜,수정 날짜'),
  },
  deal: {
    names: list(
      'id,peopleId,organizationId,이름,파이프라인,파이프라인 단계,메인 견적 상품 리스트,금액,' +
        '상태,마감일,수주 예정일,최근 이메일 오픈일,소스,최근 작성된 노트,최근 노트 작성일,최근 노트 작성자,' +
        '최근 제출된 웹폼,최근 웹폼 제출 날짜,최근 등록한 시퀀스,최근 시퀀스 등록일,누적 시퀀스 등록수,' +
        '현재 진행중인 시퀀스 여부,담당자,생성 날짜,팀,수정 날짜,다음 TODO,전체 TODO,완료 TODO,' +
        '미완료 TODO,등록된 시퀀스 목록,상담 일수,정체 일수,팔로워,참여자',
    ),
    dates: list(
      '마감일,수주 예정일,최근 이메일 오픈일,최근 노트 작성일,최근 웹폼 제출 날짜,최근 시퀀스 등록일,생성 날짜,' +
        '수정 날짜',
    ),
  },
  lead: {
    names: list(
      'id,peopleId,organizationId,이름,파이프라인,파이프라인 단계,메인 견적 상품 리스트,금액,' +
        '상태,마감일,수주 예정일,최근 이메일 오픈일,소스,최근 작성된 노트,최근 노트 작성일,최근 노트 작성자,' +
        '최근 제출된 웹폼,최근 웹폼 제출 날짜,최근 등록한 시퀀스,최근 시퀀스 등록일,누적 시퀀스 등록수,' +
        '현재 진행중인 시퀀스 여부,담당자,생성 날짜,팀,수정 날짜,다음 TODO,전체 TODO,완료 TODO,' +
        '미완료 TODO,등록된 시퀀스 목록',
    ),
    dates: list(
      '마감일,수주 예정일,최근 이메일 오픈일,최근 노트 작성일,최근 웹폼 제출 날짜,최근 시퀀스 등록일,생성 날짜,' +
        '수정 날짜',
    ),
  },
};

type Kind = 'text' | 'number' | 'boolean' | 'date' | 'textList';
interface Field {
  name: string;
  kind: Kind;
  key: string;
}

/** The held kind of a custom field's type (undefined: not held). */
function kindOf(type: string): Kind | undefined {
  switch (type) {
    case 'string':
    case 'singleSelect':
      return 'text';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'date':
    case 'dateTime':
      return 'date';
    case 'multiSelect':
      return 'textList';
    default:
      return undefined;
  }
}

const PLACED = 'p:';
const CREATED = '생성 날짜';

/** The indexed fields of a type with its custom fields (`id`, `name`, `type`) in order. */
function fieldsOf(
  type: IndexedType,
  customs: readonly { id: string; name: string; type: string }[],
): Field[] {
  const fields: Field[] = BUILT_IN[type].dates.map((name) => ({
    name,
    kind: 'date',
    key: `b:${name}`,
  }));
  for (const d of customs) {
    const kind = kindOf(d.type);
    if (!kind || BUILT_IN[type].names.includes(d.name)) continue;
    fields.push({ name: d.name, kind, key: d.id });
    if (d.type === 'singleSelect') fields.push({ name: d.name, kind, key: `${PLACED}${d.id}` });
  }
  fields.push({ name: '이름', kind: 'text', key: 'g:이름' });
  return fields;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function sortText(text: string): string {
  let cut = text.length > 200 ? text.slice(0, 200) : text;
  const last = cut.charCodeAt(cut.length - 1);
  if (cut.length < text.length && last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return /[\ud800-\udfff]/.test(cut) ? cut.replace(LONE_SURROGATE, '\ufffd') : cut;
}

function numberKey(n: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, n === 0 ? 0 : n);
  let bits = view.getBigUint64(0);
  bits = bits >> 63n ? ~bits & 0xffffffffffffffffn : bits | 0x8000000000000000n;
  return bits.toString(16).padStart(16, '0');
}

function pairsOf(text: string): string[] {
  const lower = text.toLowerCase();
  const whole = /[\ud800-\udfff]/.test(lower) ? lower.replace(LONE_SURROGATE, '\ufffd') : lower;
  const points = [...whole];
  const pairs = new Set<string>();
  for (let i = 0; i + 1 < points.length; i++) pairs.add(points[i]! + points[i + 1]!);
  return [...pairs];
}

function valuesOf(field: Field, value: unknown): string[] {
  if (field.key.startsWith('g:')) return typeof value === 'string' ? pairsOf(value) : [];
  switch (field.kind) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? [numberKey(value)] : [];
    case 'boolean':
      return typeof value === 'boolean' ? [value ? '1' : '0'] : [];
    case 'text':
    case 'date':
      return typeof value === 'string' ? [sortText(value)] : [];
    case 'textList':
      return Array.isArray(value)
        ? [...new Set(value.filter((v) => typeof v === 'string').map(sortText))]
        : [];
  }
}

/** The rows (`[field, value]`, distinct) of one record's stored JSON. */
function rowsOf(fields: readonly Field[], json: string): [string, string][] {
  const rows = new Map<string, [string, string]>();
  let record: unknown;
  try {
    record = JSON.parse(json);
  } catch {
    return [];
  }
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return [];
  const values = record as Record<string, unknown>;
  const created = values[CREATED];
  for (const field of fields) {
    if (!Object.hasOwn(values, field.name)) continue;
    const placed = field.key.startsWith(PLACED);
    if (placed && typeof created !== 'string') continue;
    for (const v of valuesOf(field, values[field.name])) {
      const value = placed ? `${v}\u0001${created}` : v;
      rows.set(`${field.key}\u0000${value}`, [field.key, value]);
    }
  }
  return [...rows.values()];
}

/** Indexes every record of every workspace from its stored JSON. */
export async function fillSearchIndex(untyped: Kysely<unknown>): Promise<void> {
  // biome-ignore lint/suspicious/noExplicitAny: the migration sees the tables untyped
  const db = untyped as Kysely<any>;
  const workspaces: { id: string }[] = await db.selectFrom('workspaces').select('id').execute();
  for (const { id: workspaceId } of workspaces) {
    const customs: { id: string; record_type: string; name: string; type: string }[] = await db
      .selectFrom('custom_fields')
      .select(['id', 'record_type', 'name', 'type'])
      .where('workspace_id', '=', workspaceId)
      .orderBy('position')
      .execute();
    for (const [type, table] of Object.entries(INDEXED_TABLES) as [IndexedType, string][]) {
      const fields = fieldsOf(
        type,
        customs.filter((d) => d.record_type === type),
      );
      await fillType(db, workspaceId, type, table, fields);
    }
  }
}

async function fillType(
  // biome-ignore lint/suspicious/noExplicitAny: the migration sees the tables untyped
  db: Kysely<any>,
  workspaceId: string,
  type: string,
  table: string,
  fields: readonly Field[],
): Promise<void> {
  await sql`delete from search_values where workspace_id = ${workspaceId} and record_type = ${type}`.execute(
    db,
  );
  let after = '';
  for (;;) {
    const { rows } = await sql<{ id: string; body: Buffer | string | null }>`
      select id, body from ${sql.table(table)} where workspace_id = ${workspaceId} and id > ${after}
      order by id limit 2000`.execute(db);
    if (rows.length === 0) return;
    const values: Record<string, string>[] = [];
    for (const { id, body } of rows) {
      if (body === null) continue;
      const json = typeof body === 'string' ? body : body.toString('utf8');
      for (const [field, value] of rowsOf(fields, json))
        values.push({ workspace_id: workspaceId, record_type: type, field, value, record_id: id });
    }
    for (let i = 0; i < values.length; i += 500)
      await db
        .insertInto('search_values')
        .values(values.slice(i, i + 500))
        .onConflict((oc) => oc.doNothing())
        .execute();
    after = rows[rows.length - 1]!.id;
  }
}

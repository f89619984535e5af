import { DomainError } from '../domain/errors.ts';

/** The field names a record type has in a workspace (built-in and custom). */
export type FieldNames = (workspaceId: string) => Promise<ReadonlySet<string>>;

/** Most names one `fieldList` may choose. */
const MAX_CHOSEN = 200;

/**
 * The fields `?fieldList=이름,이메일` chooses (comma-separated Korean field names), checked
 * against the record type's fields; undefined when the query has none. An empty list or an
 * unknown name is a 400 naming it.
 */
export async function readFieldChoice(
  raw: string | undefined,
  workspaceId: string,
  fieldNames: FieldNames,
): Promise<ReadonlySet<string> | undefined> {
  if (raw === undefined) return undefined;
  const names = raw
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0 || names.length > MAX_CHOSEN) {
    throw new DomainError(
      'invalid_parameter',
      `'fieldList' 값이 올바르지 않습니다. 쉼표로 나눈 필드 이름 1~${MAX_CHOSEN}개를 보내 주세요.`,
    );
  }
  const known = await fieldNames(workspaceId);
  const unknown = names.find((name) => !known.has(name));
  if (unknown !== undefined) {
    throw new DomainError(
      'invalid_parameter',
      `'fieldList' 값이 올바르지 않습니다: 알 수 없는 필드 '${unknown.slice(0, 100)}' (GET /v2/field/{type}가 필드 이름을 알려 줍니다)`,
    );
  }
  return new Set(names);
}

/**
 * An answer `{success, data: {<key>: [records], …}}` (or `{<key>: record}`, one object) with
 * each record cut down to its `id` and the chosen fields, in the record's own key order; the
 * rest of `data` (cursors) stays.
 */
export function chooseFields(answer: Buffer, key: string, chosen: ReadonlySet<string>): Buffer {
  const parsed = JSON.parse(answer.toString('utf8')) as { data: Record<string, unknown> };
  const choose = (record: Record<string, unknown>) => {
    const out: Record<string, unknown> = {};
    for (const name of Object.keys(record))
      if (name === 'id' || chosen.has(name)) out[name] = record[name];
    return out;
  };
  const value = parsed.data[key] as Record<string, unknown>[] | Record<string, unknown>;
  parsed.data[key] = Array.isArray(value) ? value.map(choose) : choose(value);
  return Buffer.from(JSON.stringify(parsed));
}

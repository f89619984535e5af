import type { Selectable } from 'kysely';
import {
  appendCustomFields,
  type CustomFieldDefinition,
  type NameOf,
} from '../domain/custom-fields.ts';
import type { Ref } from '../domain/records.ts';
import { subjectIds } from '../domain/subjects.ts';
import type { TodoTable } from '../model/tables.ts';

/** What a todo record is rendered from besides its row. */
export interface TodoFacts {
  /** The owner's Ref, or null without an owner. */
  owner: Ref | null;
  /** The owner's teams, in the order the store gives them. */
  teams: Ref[];
  customFields: readonly CustomFieldDefinition[];
  nameOf: NameOf;
}

/**
 * The todo record of `GET /v2/todo`: its subject's id key set (the others null), its own
 * fields, owner and the owner's teams, then the workspace's todo custom fields.
 */
export function renderTodo(row: Selectable<TodoTable>, facts: TodoFacts): Record<string, unknown> {
  const r: Record<string, unknown> = {
    id: row.id,
    ...subjectIds(row.subject_type, row.subject_id),
    내용: row.title,
    유형: row.kind,
    '시작 날짜': row.start_at,
    '마지막 날짜': row.due_at,
    완료: row.done === 1,
    '완료 날짜': row.done_at,
    담당자: facts.owner,
    팀: facts.teams,
    '생성 날짜': row.created_at,
    '수정 날짜': row.updated_at,
  };
  appendCustomFields(r, facts.customFields, JSON.parse(row.custom), facts.nameOf);
  return r;
}

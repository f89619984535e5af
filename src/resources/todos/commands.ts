import type { CreateTodoBody, UpdateTodoBody } from '../../api-schema/bodies/notes-todos.ts';
import { DomainError } from '../../domain/errors.ts';
import type { Written } from '../../domain/records.ts';
import { SUBJECT_ID_KEYS } from '../../domain/subjects.ts';
import type { WorkspaceWrite } from '../../store/write.ts';
import { ChangeSet, checkReferenced, customOnCreate, updateRow } from '../commands.ts';
import { insertActivities } from '../deal-activities/writes.ts';
import { checkRequired, type ResolvedFieldList, resolveFieldList } from '../fields/field-list.ts';
import { insertTodos, TODO_KINDS } from './writes.ts';

/** The record types a todo is written on, each with its body key. */
type TodoSubject = keyof typeof SUBJECT_ID_KEYS;

/** Columns of the todo fields that `fieldList` writes. */
const COLUMNS: Record<string, string> = {
  내용: 'title',
  유형: 'kind',
  '시작 날짜': 'start_at',
  '마지막 날짜': 'due_at',
  완료: 'done',
  담당자: 'owner_id',
};

/** The one record a create names (`dealId`, `leadId`, `peopleId` or `organizationId`). */
function subjectOf(body: CreateTodoBody): [TodoSubject, string, string] {
  const given = (Object.entries(SUBJECT_ID_KEYS) as [TodoSubject, keyof CreateTodoBody][])
    .filter(([, key]) => body[key] !== undefined)
    .map(([type, key]) => [type, body[key] as string, key] as [TodoSubject, string, string]);
  if (given.length !== 1) {
    throw new DomainError(
      'invalid_body',
      `할 일이 달릴 레코드를 'dealId', 'leadId', 'peopleId', 'organizationId' 중 하나로만 보내 주세요 (받은 것: ${given.length}개).`,
    );
  }
  return given[0]!;
}

/** Refuses a `유형` outside the todo types, and a `내용` that is cleared. */
function checkFixed(fields: ResolvedFieldList): void {
  const kind = fields.fixed.get('유형');
  if (fields.fixed.has('유형') && (kind === null || !TODO_KINDS.includes(kind as never))) {
    throw new DomainError(
      'invalid_body',
      `'유형' 필드는 ${TODO_KINDS.map((k) => `'${k}'`).join(', ')} 중 하나여야 합니다.`,
    );
  }
  if (fields.fixed.has('내용')) {
    const title = fields.fixed.get('내용');
    if (typeof title !== 'string' || title.trim() === '') {
      throw new DomainError('invalid_body', "'내용' 필드는 비울 수 없습니다.");
    }
  }
}

/**
 * `POST /v2/todo`: a todo on a deal, lead, person or organization, with its `todoCreate`
 * activity; the record's TODO group follows in the same write.
 */
export async function createTodo(
  w: WorkspaceWrite,
  actorId: string,
  body: CreateTodoBody,
): Promise<Written> {
  const [subjectType, subjectId, key] = subjectOf(body);
  const fields = await resolveFieldList(w, 'todo', body.fieldList);
  checkRequired(fields, undefined);
  if (!fields.fixed.has('내용')) {
    throw new DomainError(
      'invalid_body',
      "'내용' 필드는 필수입니다. fieldList로 값을 보내 주세요.",
    );
  }
  checkFixed(fields);
  await checkReferenced(w, subjectType, subjectId, key);
  const value = <T>(name: string) => (fields.fixed.get(name) ?? null) as T;
  const title = value<string>('내용');
  const [id] = await insertTodos(w, [
    {
      subjectType,
      subjectId,
      title,
      kind: value<string | null>('유형') ?? undefined,
      startAt: value('시작 날짜'),
      dueAt: value('마지막 날짜'),
      done: value<boolean | null>('완료') === true,
      ownerId: fields.fixed.has('담당자') ? value('담당자') : actorId,
      custom: customOnCreate(fields.custom),
    },
  ]);
  await insertActivities(w, [
    { subjectType, subjectId, type: 'todoCreate', todoId: id!, date: w.now },
  ]);
  return { id: id!, name: title, createdAt: w.now };
}

/** The todo a path names; not in this workspace is a 404. */
/** The todo `todoId` of the workspace, or a 404. */
export async function todoRow(w: WorkspaceWrite, todoId: string) {
  const row = await w.trx
    .selectFrom('todos')
    .selectAll()
    .where('workspace_id', '=', w.workspaceId)
    .where('id', '=', todoId)
    .executeTakeFirst();
  if (!row) throw new DomainError('not_found', `할 일을 찾을 수 없습니다: '${todoId}'`);
  return row;
}

/**
 * `POST /v2/todo/{todoId}`: a todo's fields; `완료` true completes it (`완료 날짜` now),
 * false opens it again. Its record's TODO group follows in the same write.
 */
export async function updateTodo(
  w: WorkspaceWrite,
  _actorId: string,
  todoId: string,
  body: UpdateTodoBody,
): Promise<Written> {
  const row = await todoRow(w, todoId);
  const fields = await resolveFieldList(w, 'todo', body.fieldList, todoId);
  checkRequired(fields, JSON.parse(row.custom));
  checkFixed(fields);
  const changes = new ChangeSet(row as unknown as Record<string, unknown>);
  changes.fixedFields(fields.fixed, COLUMNS).customValues(fields.definitions, fields.custom);
  if (changes.sets('done')) changes.columns.done_at = changes.columns.done === 1 ? w.now : null;
  await updateRow(w, 'todos', todoId, changes.update(w.now));
  if (!changes.isEmpty) w.touched.mark(row.subject_type as TodoSubject, row.subject_id);
  return {
    id: todoId,
    name: (changes.columns.title as string | undefined) ?? row.title,
    updatedAt: changes.isEmpty ? row.updated_at : w.now,
  };
}

/**
 * `POST /v2/todo/{todoId}/delete`: deletes a todo, its `todoCreate` activity, and the notes
 * written on it with their `memoCreate` activities (a reply to one of them stays, a note of
 * its own); its record's TODO and NOTE groups follow in the same write.
 */
export async function deleteTodo(w: WorkspaceWrite, todoId: string): Promise<void> {
  const row = await todoRow(w, todoId);
  const ws = w.workspaceId;
  const notes = w.trx
    .selectFrom('notes')
    .select('id')
    .where('workspace_id', '=', ws)
    .where('todo_id', '=', todoId);
  await w.trx
    .deleteFrom('activities')
    .where('workspace_id', '=', ws)
    .where((eb) => eb.or([eb('todo_id', '=', todoId), eb('memo_id', 'in', notes)]))
    .execute();
  await w.trx
    .updateTable('notes')
    .set({ parent_id: null })
    .where('workspace_id', '=', ws)
    .where('parent_id', 'in', notes)
    .execute();
  await w.trx
    .deleteFrom('notes')
    .where('workspace_id', '=', ws)
    .where('todo_id', '=', todoId)
    .execute();
  await w.trx
    .deleteFrom('todos')
    .where('workspace_id', '=', w.workspaceId)
    .where('id', '=', todoId)
    .execute();
  w.touched.mark(row.subject_type as TodoSubject, row.subject_id);
}

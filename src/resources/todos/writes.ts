import type { StoredCustomValues } from '../../domain/custom-fields.ts';
import { newId } from '../../domain/ids.ts';
import type { SubjectType } from '../../model/tables.ts';
import { insertMany } from '../../store/insert.ts';
import type { WorkspaceWrite } from '../../store/write.ts';

/** Todo `유형`s seen in practice. */
export const TODO_KINDS = ['전화', '미팅', '이메일', '할 일', '점심'] as const;

/** A todo on a record. */
export interface NewTodo {
  id?: string;
  subjectType: 'people' | 'organization' | 'deal' | 'lead';
  subjectId: string;
  title: string;
  kind?: string;
  startAt?: string | null;
  dueAt?: string | null;
  done?: boolean;
  doneAt?: string | null;
  ownerId: string | null;
  /** Custom values by field id (Ref fields hold ids). */
  custom?: StoredCustomValues;
  createdAt?: string;
}

/** Adds todos; their records' TODO groups follow. */
export async function insertTodos(w: WorkspaceWrite, todos: NewTodo[]): Promise<string[]> {
  const rows = todos.map((t) => ({
    workspace_id: w.workspaceId,
    id: t.id ?? newId(),
    subject_type: t.subjectType,
    subject_id: t.subjectId,
    title: t.title,
    kind: t.kind ?? '할 일',
    start_at: t.startAt ?? null,
    due_at: t.dueAt ?? null,
    done: t.done ? 1 : 0,
    done_at: t.done ? (t.doneAt ?? t.createdAt ?? w.now) : null,
    owner_id: t.ownerId,
    created_at: t.createdAt ?? w.now,
    updated_at: t.createdAt ?? w.now,
    custom: JSON.stringify(t.custom ?? {}),
  }));
  await insertMany(w.trx, 'todos', rows);
  for (const t of todos) w.touched.mark(t.subjectType, t.subjectId);
  return rows.map((r) => r.id);
}

/** Marks a todo done or open again. */
export async function setTodoDone(w: WorkspaceWrite, todoId: string, done: boolean): Promise<void> {
  const todo = await w.trx
    .updateTable('todos')
    .set({ done: done ? 1 : 0, done_at: done ? w.now : null, updated_at: w.now })
    .where('workspace_id', '=', w.workspaceId)
    .where('id', '=', todoId)
    .returning(['subject_type', 'subject_id'])
    .executeTakeFirstOrThrow();
  w.touched.mark(todo.subject_type as SubjectType, todo.subject_id);
}

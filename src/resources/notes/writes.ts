import { newId } from '../../domain/ids.ts';
import type { SubjectType } from '../../model/tables.ts';
import { insertMany } from '../../store/insert.ts';
import type { WorkspaceWrite } from '../../store/write.ts';

/** A note on a record. */
export interface NewNote {
  id?: string;
  subjectType: SubjectType;
  subjectId: string;
  text: string;
  authorId: string | null;
  /** One of the note types (`GET /v2/memo/type-list`); none when not given. */
  typeId?: string | null;
  /** The note as HTML, when it was written so. */
  htmlBody?: string | null;
  /** The note it answers (of the same record). */
  parentId?: string | null;
  /** The todo (of the same record) it was written on. */
  todoId?: string | null;
  createdAt?: string;
}

/** Adds notes; the records they are attached to show the newest one. */
export async function insertNotes(w: WorkspaceWrite, notes: NewNote[]): Promise<string[]> {
  const rows = notes.map((n) => ({
    workspace_id: w.workspaceId,
    id: n.id ?? newId(),
    subject_type: n.subjectType,
    subject_id: n.subjectId,
    text: n.text,
    author_id: n.authorId,
    type_id: n.typeId ?? null,
    html_body: n.htmlBody ?? null,
    parent_id: n.parentId ?? null,
    todo_id: n.todoId ?? null,
    created_at: n.createdAt ?? w.now,
    updated_at: n.createdAt ?? w.now,
  }));
  await insertMany(w.trx, 'notes', rows);
  for (const n of notes) w.touched.mark(n.subjectType, n.subjectId);
  return rows.map((r) => r.id);
}

/** Deletes a note; its record falls back to the note before it. */
export async function deleteNote(w: WorkspaceWrite, noteId: string): Promise<boolean> {
  const note = await w.trx
    .deleteFrom('notes')
    .where('workspace_id', '=', w.workspaceId)
    .where('id', '=', noteId)
    .returning(['subject_type', 'subject_id'])
    .executeTakeFirst();
  if (!note) return false;
  w.touched.mark(note.subject_type as SubjectType, note.subject_id);
  return true;
}

/**
 * The demo's notes beyond a record's own: notes written on todos (on the todo's record too)
 * and colleagues' replies to notes on deals and leads, kept as HTML as the web editor writes
 * them. Drawn after everything else, so that adding them left every record drawn before as
 * it was.
 */
import { type DemoContext, fill } from './context.ts';
import { escapeHtml } from './emails.ts';
import { HOUR, iso } from './random.ts';
import * as words from './words.ts';

export function generateNoteThreads(ctx: DemoContext): void {
  const { r } = ctx;
  for (const todo of ctx.out.todos) {
    if (!r.chance(0.15)) continue;
    const created = Date.parse(todo.createdAt!);
    const ms = Math.min(ctx.base, created + r.int(HOUR, 48 * HOUR));
    ctx.out.notes.push({
      id: ctx.ids.next(ms),
      subjectType: todo.subjectType,
      subjectId: todo.subjectId,
      todoId: todo.id!,
      text: fill(r.pick(words.TODO_NOTE_TEXTS), { title: todo.title }),
      authorId: todo.ownerId ?? ctx.ownerId(),
      createdAt: iso(ms),
    });
  }
  const parents = ctx.out.notes.filter(
    (n) => (n.subjectType === 'deal' || n.subjectType === 'lead') && n.todoId === undefined,
  );
  for (const parent of parents) {
    if (!r.chance(0.2)) continue;
    const ms = Math.min(ctx.base, Date.parse(parent.createdAt!) + r.int(HOUR, 72 * HOUR));
    const text = r.pick(words.NOTE_REPLY_TEXTS);
    const authors = ctx.userIds.filter((id) => id !== parent.authorId);
    ctx.out.notes.push({
      id: ctx.ids.next(ms),
      subjectType: parent.subjectType,
      subjectId: parent.subjectId,
      parentId: parent.id!,
      text,
      htmlBody: `<p>${escapeHtml(text)}</p>`,
      authorId: authors.length > 0 ? r.pick(authors) : parent.authorId,
      createdAt: iso(ms),
    });
  }
}

import type { Selectable } from 'kysely';
import { collectRefIds, type NamedTarget } from '../../domain/custom-fields.ts';
import type { Ref } from '../../domain/records.ts';
import type { TodoTable } from '../../model/tables.ts';
import type { TodoFacts } from '../../render/todos.ts';
import type { Executor, Store } from '../../store/database.ts';
import { keysetRows } from '../../store/keyset-rows.ts';
import { Lookups } from '../../store/read-model/lookups.ts';

/** A todo row, every column. */
export type TodoRow = Selectable<TodoTable>;

const TODO_COLUMNS = [
  'workspace_id',
  'id',
  'subject_type',
  'subject_id',
  'title',
  'kind',
  'start_at',
  'due_at',
  'done',
  'done_at',
  'owner_id',
  'created_at',
  'updated_at',
  'custom',
] as const satisfies readonly (keyof TodoRow)[];

/** Keyset pages of a workspace's todos, oldest first. */
export function todoPages(store: Store) {
  return keysetRows<TodoRow>(store, 'todos', TODO_COLUMNS);
}

/** Keyset pages of the todos of one 담당자 (`ownerId`), oldest first: the owner index's range. */
export function ownedTodoPages(store: Store) {
  return keysetRows<TodoRow, 'ownerId'>(store, 'todos', TODO_COLUMNS, (qb, param) =>
    qb.where('owner_id', '=', param('ownerId')),
  );
}

/**
 * What a page of todos is rendered with, read now rather than stored: owners' and teams'
 * names change without the todos changing, so a stored todo would go stale on a rename.
 */
export async function todoFactsOf(
  db: Executor,
  workspaceId: string,
  rows: readonly TodoRow[],
): Promise<(row: TodoRow) => TodoFacts> {
  const l = await Lookups.load(db, workspaceId);
  const customFields = l.definitions('todo');
  if (customFields.length > 0) {
    const targets = new Map<NamedTarget, Set<string>>();
    for (const row of rows) collectRefIds(customFields, JSON.parse(row.custom), targets);
    await l.ensure(targets);
  }
  const owners = [...new Set(rows.flatMap((r) => (r.owner_id === null ? [] : [r.owner_id])))];
  const teams = new Map<string, Ref[]>();
  if (owners.length > 0) {
    const memberships = await db
      .selectFrom('team_members')
      .select(['user_id', 'team_id'])
      .where('workspace_id', '=', workspaceId)
      .where('user_id', 'in', owners)
      .orderBy('user_id')
      .orderBy('team_id')
      .execute();
    for (const m of memberships) {
      const list = teams.get(m.user_id) ?? [];
      list.push(l.ref('team', m.team_id));
      teams.set(m.user_id, list);
    }
  }
  return (row) => ({
    owner: l.userRef(row.owner_id),
    teams: row.owner_id === null ? [] : (teams.get(row.owner_id) ?? []),
    customFields,
    nameOf: l.nameOf,
  });
}

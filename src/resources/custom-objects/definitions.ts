import type { Selectable } from 'kysely';
import { DomainError } from '../../domain/errors.ts';
import type { CustomObjectDefinitionTable } from '../../model/tables.ts';
import type { Executor } from '../../store/database.ts';

/** A custom object definition's row. */
export type DefinitionRow = Selectable<CustomObjectDefinitionTable>;

/** The live API's text for a definition that is not there (docs/decisions.md, Other resources). */
export const DEFINITION_NOT_FOUND = '커스텀 객체 정의를 찾을 수 없습니다';

/** A definition that the workspace does not have: 404 naming what was asked for. */
export function definitionNotFound(what: string): DomainError {
  return new DomainError('not_found', `${DEFINITION_NOT_FOUND}: '${what.slice(0, 100)}'`);
}

/** The workspace's custom object definitions, in their order. */
export async function definitionsOf(db: Executor, workspaceId: string): Promise<DefinitionRow[]> {
  return db
    .selectFrom('custom_object_definitions')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

/**
 * The definition named by id and/or name (docs/decisions.md, Other resources: when both are given
 * they must name the same one); undefined when neither is given. One that the workspace does not
 * have, or an id and a name of two different definitions, is a 404.
 */
export async function definitionNamed(
  db: Executor,
  workspaceId: string,
  id: string | undefined,
  name: string | undefined,
): Promise<DefinitionRow | undefined> {
  if (id === undefined && name === undefined) return undefined;
  let query = db
    .selectFrom('custom_object_definitions')
    .selectAll()
    .where('workspace_id', '=', workspaceId);
  if (id !== undefined) query = query.where('id', '=', id);
  if (name !== undefined) query = query.where('name', '=', name);
  const row = await query.executeTakeFirst();
  if (!row) throw definitionNotFound(id ?? name ?? '');
  return row;
}

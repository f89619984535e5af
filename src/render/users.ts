import type { Selectable } from 'kysely';
import type { Ref } from '../domain/records.ts';
import type { UserTable } from '../model/tables.ts';

/** A user row as the user queries read it. */
export type UserRow = Omit<Selectable<UserTable>, 'workspace_id'>;

/** A user of `GET /v2/user`. */
export function renderUser(row: UserRow): Record<string, unknown> {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    email: row.email,
    role: row.role,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The token's user of `GET /v2/user/me`, with its workspace as `room`. */
export function renderMe(row: UserRow, room: Ref): Record<string, unknown> {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    room: { id: room.id, name: room.name },
  };
}

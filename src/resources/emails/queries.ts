import type { EmailTable } from '../../model/tables.ts';
import type { Executor } from '../../store/database.ts';

/** A sent e-mail of the workspace (not one still being sent), or undefined. */
export async function sentEmail(
  db: Executor,
  workspaceId: string,
  id: string,
): Promise<EmailTable | undefined> {
  return db
    .selectFrom('emails')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .where('status', '!=', 'sending')
    .executeTakeFirst();
}

/** The e-mail sent (or being sent) under an `Idempotency-Key`, or undefined. */
export async function emailByKey(
  db: Executor,
  workspaceId: string,
  key: string,
): Promise<Pick<EmailTable, 'id' | 'status' | 'message_id' | 'request_hash'> | undefined> {
  return db
    .selectFrom('emails')
    .select(['id', 'status', 'message_id', 'request_hash'])
    .where('workspace_id', '=', workspaceId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

/** The sender's name and address: the token's user. */
export async function senderOf(
  db: Executor,
  workspaceId: string,
  userId: string,
): Promise<{ name: string; email: string } | undefined> {
  return db
    .selectFrom('users')
    .select(['name', 'email'])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', userId)
    .executeTakeFirst();
}

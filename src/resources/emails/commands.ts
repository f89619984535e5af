import { uniqueKey } from '../../domain/field-values.ts';
import type { EmailAddress } from '../../render/emails.ts';
import type { Store } from '../../store/database.ts';
import type { WorkspaceWrite } from '../../store/write.ts';
import { insertActivities } from '../deal-activities/writes.ts';

/** An e-mail about to be sent, as its row is claimed. */
export interface NewEmail {
  id: string;
  subject: string;
  from: EmailAddress;
  to: EmailAddress[];
  cc: EmailAddress[];
  bcc: EmailAddress[];
  html: string;
  text: string;
  attachmentIds: string[];
  senderId: string;
  idempotencyKey: string | undefined;
  requestHash: string;
  createdAt: string;
}

/**
 * Claims an e-mail's row (`sending`) before it is sent: with an `Idempotency-Key`, only one
 * request of the workspace gets it (the key is unique); answers false when another took it.
 */
export async function claimEmail(
  store: Store,
  workspaceId: string,
  email: NewEmail,
): Promise<boolean> {
  try {
    await store.db
      .insertInto('emails')
      .values({
        workspace_id: workspaceId,
        id: email.id,
        status: 'sending',
        subject: email.subject,
        from_address: JSON.stringify(email.from),
        to_list: JSON.stringify(email.to),
        cc_list: JSON.stringify(email.cc),
        bcc_list: JSON.stringify(email.bcc),
        html_body: email.html,
        text_body: email.text,
        attachment_ids: JSON.stringify(email.attachmentIds),
        message_id: null,
        sender_id: email.senderId,
        idempotency_key: email.idempotencyKey ?? null,
        request_hash: email.requestHash,
        created_at: email.createdAt,
      })
      .execute();
    return true;
  } catch (error) {
    if (email.idempotencyKey !== undefined && isUniqueViolation(error)) return false;
    throw error;
  }
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown };
  return e.code === '23505' || e.code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** Gives up a claimed e-mail that could not be sent: the key may be used again. */
export async function releaseEmail(store: Store, workspaceId: string, id: string): Promise<void> {
  await store.db
    .deleteFrom('emails')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .where('status', '=', 'sending')
    .execute();
}

/**
 * How long an e-mail may stay `sending` before its key may be used again: longer than a send
 * can take (nodemailer gives up on a silent server after 10 minutes), so that only the row of
 * a process that stopped between sending and recording is taken back.
 */
export const STALE_SENDING_MS = 60 * 60 * 1000;

/**
 * Takes back the key of an e-mail left `sending` for longer than `STALE_SENDING_MS` (its
 * process stopped before it recorded the send): removes the row, and answers whether it did.
 * The message may have gone out; sending it again is the lesser harm than a key refused forever.
 */
export async function reclaimStaleEmail(
  store: Store,
  workspaceId: string,
  id: string,
): Promise<boolean> {
  const before = new Date(Date.now() - STALE_SENDING_MS).toISOString();
  const removed = await store.db
    .deleteFrom('emails')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .where('status', '=', 'sending')
    .where('created_at', '<', before)
    .returning('id')
    .executeTakeFirst();
  return removed !== undefined;
}

/**
 * Records a sent e-mail: its Message-ID and status, and an `email` activity of each person of
 * the workspace whose address it went to (to, cc or bcc; once a person), whose
 * `emailMessageId` is the e-mail's id.
 */
export async function recordSent(
  w: WorkspaceWrite,
  email: NewEmail,
  messageId: string,
): Promise<void> {
  await w.trx
    .updateTable('emails')
    .set({ status: 'delivery', message_id: messageId })
    .where('workspace_id', '=', w.workspaceId)
    .where('id', '=', email.id)
    .execute();
  const keys = [
    ...new Set([...email.to, ...email.cc, ...email.bcc].map((a) => uniqueKey(a.email))),
  ];
  const people = await w.trx
    .selectFrom('people')
    .select('id')
    .where('workspace_id', '=', w.workspaceId)
    .where('email_key', 'in', keys)
    .orderBy('id')
    .execute();
  if (people.length === 0) return;
  await insertActivities(
    w,
    people.map((p) => ({
      subjectType: 'people' as const,
      subjectId: p.id,
      type: 'email' as const,
      emailMessageId: email.id,
    })),
  );
}

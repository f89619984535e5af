import type { EmailAddress } from '../../render/emails.ts';
import { insertMany } from '../../store/insert.ts';
import type { WorkspaceWrite } from '../../store/write.ts';

/** An e-mail that went out before it was recorded here (the demo's), to store as sent. */
export interface SentEmail {
  id: string;
  subject: string;
  from: EmailAddress;
  to: EmailAddress[];
  html: string;
  text: string;
  /** The Message-ID it went out with. */
  messageId: string;
  senderId: string | null;
  createdAt: string;
}

/**
 * Adds sent e-mails (`delivery`, no copies, no attachments) in bulk, so that the activities
 * that name them can be read through `GET /v2/email/{id}`. They were sent by no request:
 * no idempotency key, and an empty request hash.
 */
export async function insertSentEmails(w: WorkspaceWrite, emails: SentEmail[]): Promise<void> {
  await insertMany(
    w.trx,
    'emails',
    emails.map((e) => ({
      workspace_id: w.workspaceId,
      id: e.id,
      status: 'delivery',
      subject: e.subject,
      from_address: JSON.stringify(e.from),
      to_list: JSON.stringify(e.to),
      cc_list: '[]',
      bcc_list: '[]',
      html_body: e.html,
      text_body: e.text,
      attachment_ids: '[]',
      message_id: e.messageId,
      sender_id: e.senderId,
      idempotency_key: null,
      request_hash: '',
      created_at: e.createdAt,
    })),
  );
}

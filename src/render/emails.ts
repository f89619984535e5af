import { snippetOf } from '../domain/email-text.ts';
import type { EmailTable } from '../model/tables.ts';

/** An address as stored and shown. */
export interface EmailAddress {
  email: string;
  name: string | null;
}

/**
 * `data.email` of `GET /v2/email/{emailId}` (docs/decisions.md, Other resources), keys in its
 * order.
 */
export function renderEmail(row: EmailTable): Record<string, unknown> {
  const text = row.text_body;
  return {
    id: row.id,
    subject: row.subject,
    from: JSON.parse(row.from_address) as EmailAddress,
    to: JSON.parse(row.to_list) as EmailAddress[],
    cc: JSON.parse(row.cc_list) as EmailAddress[],
    bcc: JSON.parse(row.bcc_list) as EmailAddress[],
    status: row.status,
    messageId: row.message_id ?? '',
    date: row.created_at,
    snippet: snippetOf(text),
    htmlBody: row.html_body,
    text,
  };
}

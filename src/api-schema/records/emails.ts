/** E-mails (docs/decisions.md, Other resources): what a send answers, and a sent e-mail. */
import { type Static, Type } from '@sinclair/typebox';
import { Id, Nullable, Timestamp } from '../primitives.ts';
import { Closed } from './common.ts';

/** A sender or recipient. */
const Address = Closed(
  { email: Type.String(), name: Nullable(Type.String()) },
  'An address and its display name (null when none)',
);

/** The answer of `POST /v2/email`. */
export const SentEmail = Closed(
  {
    id: Id,
    messageId: Type.String({ description: 'The Message-ID the message went out with' }),
  },
  'The sent e-mail: its id (for `GET /v2/email/{emailId}`) and Message-ID',
);
export type SentEmail = Static<typeof SentEmail>;

/** `GET /v2/email/{emailId}`. */
export const EmailRecord = Closed(
  {
    id: Id,
    subject: Type.String(),
    from: Address,
    to: Type.Array(Address),
    cc: Type.Array(Address),
    bcc: Type.Array(Address),
    status: Type.String({
      description: '`delivery` once the SMTP server took it',
      examples: ['delivery'],
    }),
    messageId: Type.String(),
    date: Timestamp,
    snippet: Type.String({ description: 'The start of the text, up to 200 characters' }),
    htmlBody: Type.String(),
    text: Type.String({ description: 'The HTML body as plain text' }),
  },
  'A sent e-mail',
);
export type EmailRecord = Static<typeof EmailRecord>;

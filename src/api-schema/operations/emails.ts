/**
 * E-mail (tag Email, docs/decisions.md, Other resources): send through the server's SMTP, read a
 * sent one.
 */
import { Type } from '@sinclair/typebox';
import { SendEmailBody } from '../bodies/emails.ts';
import { ObjectEnvelope } from '../envelopes.ts';
import { EmailRecord, SentEmail } from '../records/emails.ts';
import { type Operation, read, write } from './operation.ts';

const TAG = 'Email';

/** `{success, data: {id, messageId}}`. */
const SentAnswer = Type.Object(
  { success: Type.Literal(true), data: SentEmail },
  { additionalProperties: false },
);

/** In the order the OpenAPI document lists them. */
export const EMAIL_OPERATIONS: readonly Operation[] = [
  {
    ...write(
      '/v2/email',
      'sendEmail',
      'Send an e-mail through the SMTP server of SMTP_URL (attachments from uploaded files); recorded as an activity of the people it went to',
      TAG,
      201,
      SendEmailBody,
      SentAnswer,
    ),
    notFound: true,
    conflict: true,
    badGateway: true,
    headers: [
      {
        name: 'Idempotency-Key',
        schema: Type.String({ minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' }),
        description:
          'A key of yours (printable ASCII, up to 255): a send repeated with it answers the first result and sends nothing (409 while the first is still sending, or with another body)',
      },
    ],
  },
  read(
    '/v2/email/{emailId}',
    'getEmail',
    'Get a sent e-mail (an unknown id is a 400 `이메일을 찾을 수 없습니다.`, as the live API)',
    TAG,
    ObjectEnvelope('email', EmailRecord),
  ),
];

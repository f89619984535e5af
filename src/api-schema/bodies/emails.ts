import { type Static, Type } from '@sinclair/typebox';
import { Id, OneOf } from '../primitives.ts';

const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
/** An address as SMTP takes it: a dot-atom local part, and a domain of two labels or more. */
export const ADDRESS_PATTERN = `^${ATOM}(?:\\.${ATOM})*@${LABEL}(?:\\.${LABEL})+$`;

/** The most recipients of one e-mail (to, cc and bcc together are checked by the route). */
export const MAX_RECIPIENTS = 50;

const address = Type.Object(
  {
    email: Type.String({
      minLength: 3,
      maxLength: 320,
      // RFC 5321's dot-atom (ASCII): what every SMTP server takes; it goes into headers as it is.
      pattern: ADDRESS_PATTERN,
      description: 'An ASCII address: dots only between characters of the local part',
      examples: ['kim@example.com'],
    }),
    name: Type.Optional(
      Type.String({ maxLength: 200, pattern: '^[^\\r\\n]*$', examples: ['김철수'] }),
    ),
  },
  { additionalProperties: false },
);
const addressList = (description: string, minItems = 0) =>
  Type.Array(address, { minItems, maxItems: MAX_RECIPIENTS, description });

/** Body of `POST /v2/email` (docs/decisions.md, Other resources). */
export const SendEmailBody = Type.Object({
  emailProvider: OneOf(['gmail', 'outlook'] as const),
  toAddressList: addressList('Recipients (1 to 50)', 1),
  ccAddressList: Type.Optional(addressList('Copies')),
  bccAddressList: Type.Optional(addressList('Blind copies')),
  subject: Type.String({ minLength: 1, maxLength: 998, pattern: '^[^\\r\\n]*$' }),
  htmlBody: Type.String({ minLength: 1, maxLength: 512 * 1024 }),
  attachmentIdList: Type.Optional(
    Type.Array(Id, {
      maxItems: 20,
      uniqueItems: true,
      description: 'Ids of uploaded files (`POST /v2/file`), at most 25 MB together',
    }),
  ),
});
export type SendEmailBody = Static<typeof SendEmailBody>;

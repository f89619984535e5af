import { type Static, Type } from '@sinclair/typebox';
import { Id, OneOf } from '../primitives.ts';

/** The most recipients of one e-mail (to, cc and bcc together are checked by the route). */
export const MAX_RECIPIENTS = 50;

const address = Type.Object(
  {
    email: Type.String({
      minLength: 3,
      maxLength: 320,
      // No spaces, angle brackets, quotes or line breaks: it goes into a header as it is.
      pattern: '^[^\\s@<>",;]+@[^\\s@<>",;]+\\.[^\\s@<>",;]+$',
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

/** Body of `POST /v2/email` (LIVE-API.md 1.7.15). */
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

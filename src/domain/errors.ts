/**
 * What can go wrong in the CRM's own terms, whoever asked (an API request, an import, the
 * CLI): a bad value, a record that is not there, a duplicate. The HTTP layer maps each code
 * to a status and a body shape in one place (`src/http/errors.ts`).
 */
export const DOMAIN_ERROR_CODES = [
  'invalid_parameter',
  'invalid_cursor',
  'invalid_body',
  'unknown_pipeline',
  'duplicate_record',
  'conflict',
  'not_found',
  'deal_not_found',
  'lead_not_found',
  'people_not_found',
  'organization_not_found',
  'cursor_expired',
  'unsupported_file_type',
] as const;
export type DomainErrorCode = (typeof DOMAIN_ERROR_CODES)[number];

/** A domain error: its code, a message for people (Korean, as the API's), and what it carries. */
export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    /** What the answer carries besides the message: the record a duplicate collides with. */
    readonly data?: unknown,
    /** Shape A's `reason` when it must say more than the message (which record is in the way). */
    readonly reason?: string,
  ) {
    super(message);
  }
}

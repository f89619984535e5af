import type { Selectable } from 'kysely';
import { QUOTE } from '../domain/record-types/quotes.ts';
import type { QuoteTable } from '../model/tables.ts';
import { type DeclaredFacts, type LineFacts, renderDeclared } from './declared.ts';
import type { QuoteLine } from './quote-lines.ts';

/** What a quote record is rendered from: its lines, their custom fields and its own facts. */
export type QuoteFacts = Pick<
  DeclaredFacts,
  'note' | 'owner' | 'teams' | 'customFields' | 'nameOf'
> & {
  lines: readonly QuoteLine[];
  lineCustomFields: NonNullable<LineFacts['lineCustomFields']>;
};

/**
 * The quote record (docs/decisions.md, Record keys), with its quote-product objects, as
 * `src/domain/record-types/quotes.ts` declares it.
 */
export function renderQuote(
  row: Selectable<QuoteTable>,
  facts: QuoteFacts,
): Record<string, unknown> {
  return renderDeclared(QUOTE, row, facts);
}

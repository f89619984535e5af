import { z } from 'zod';

/** Record types with search, batch reads, a timeline, updates and notes. */
export const CORE_TYPES = ['people', 'organization', 'deal', 'lead'] as const;
export type CoreType = (typeof CORE_TYPES)[number];

/** Record types with a plain list (`GET /v2/{type}`). */
export const LISTED_TYPES = [...CORE_TYPES, 'product', 'custom-object'] as const;
export type ListedType = (typeof LISTED_TYPES)[number];

/** Record types read by id (`get_records`). */
export const READ_TYPES = [...CORE_TYPES, 'custom-object'] as const;

/** Record types created by `create_record`. */
export const CREATED_TYPES = [...CORE_TYPES, 'product', 'todo', 'custom-object'] as const;

/** Record types changed by `update_record`. */
export const UPDATED_TYPES = [...CORE_TYPES, 'todo', 'custom-object'] as const;

/** Record types a note is added to. */
export const NOTED_TYPES = [...CORE_TYPES, 'custom-object'] as const;

/** What `delete_record` deletes: records, a person's enrollment in a sequence, files, webhooks. */
export const DELETABLE_TYPES = [
  'deal',
  'lead',
  'todo',
  'custom-object',
  'enrollment',
  'file',
  'webhook',
] as const;

/** Record types with a field list (`GET /v2/field/{type}`). */
export const FIELD_TYPES = [
  'people',
  'organization',
  'deal',
  'lead',
  'product',
  'quote',
  'quote-product',
  'todo',
  'custom-object',
] as const;

/** What a model may do with each record type (`list_fields` without a type says so). */
export const TYPE_OPERATIONS: Record<(typeof FIELD_TYPES)[number], string> = {
  people:
    '사람 (contacts): search, list, get, timeline, create, update, notes, todos, files, e-mails, enroll_in_sequence',
  organization:
    '회사 (companies): search, list, get, timeline, create, update, notes, todos, files',
  deal: '딜 (deals, in a deal pipeline): search, list, get, timeline, create, update, notes, delete, quotes, todos, files',
  lead: '리드 (leads, in a lead pipeline): search, list, get, timeline, create, update, notes, delete, quotes, todos, files',
  product: '상품 (products): list, create, files',
  quote: '견적 (quotes of a deal or lead): list_quotes, create_quote, files',
  'quote-product': "견적 상품 (a quote's product lines): written inside create_quote",
  todo: '할 일 (todos on a person, organization, deal or lead): list_todos, create, update (완료 true completes), delete',
  'custom-object':
    '커스텀 오브젝트 (records of the definitions listed below; definition: id or name): list, get, create, update, notes, delete, files',
};

/** A record id argument. */
export const recordId = z.string().min(1).max(200);

/** A list's cursor argument: the `nextCursor` of the previous answer. */
export const cursorArg = z.string().min(1).optional().describe('nextCursor of the previous page');

/** The list key of `GET /v2/{type}`. */
export function listKeyOf(type: ListedType): string {
  return type === 'custom-object' ? 'customObjectList' : `${type}List`;
}

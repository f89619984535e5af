/** The product record (상품), declared once (docs/architecture.md, Record types). */
import { PRODUCT_KINDS } from '../quotes.ts';
import { column, declareRecordType, group } from './declaration.ts';

export const PRODUCT = declareRecordType({
  type: 'product',
  keys: [
    column('id', 'id', 'id', 'service'),
    column('이름', 'name', 'text', 'body', { bodyKey: 'name', required: true }),
    column('코드', 'code', 'optionalText', 'fieldList'),
    column('유형', 'kind', 'productKind', 'fieldList', {
      field: 'singleSelect',
      options: PRODUCT_KINDS,
    }),
    column('금액', 'price', 'number', 'body', { bodyKey: 'price', required: true }),
    column('단위', 'unit', 'optionalText', 'fieldList'),
    group('note'),
    group('ownership'),
  ],
  facts: ['note'],
  customFields: true,
});

/**
 * The demo's custom fields of every record type; `ctx.field` keeps their ids by a key of
 * the demo's own.
 */
import type { NewCustomField } from '../../resources/custom-fields/writes.ts';
import type { DemoContext } from './context.ts';
import { DAY } from './random.ts';
import * as words from './words.ts';

export function generateCustomFields(ctx: DemoContext): void {
  const o = words.FIELD_OPTIONS;
  const defs: [key: string, field: Omit<NewCustomField, 'id'>][] = [
    [
      'grade',
      {
        recordType: 'people',
        name: '고객 등급',
        type: 'singleSelect',
        options: [...o.customerGrade],
      },
    ],
    ['birthday', { recordType: 'people', name: '생일', type: 'date' }],
    [
      'interests',
      { recordType: 'people', name: '관심 제품', type: 'multiSelect', options: [...o.interests] },
    ],
    [
      'industry',
      {
        recordType: 'organization',
        name: '업종',
        type: 'singleSelect',
        options: [...o.industries],
      },
    ],
    ['employees', { recordType: 'organization', name: '직원 수', type: 'number' }],
    [
      'contractType',
      {
        recordType: 'deal',
        name: '계약 유형',
        type: 'singleSelect',
        options: [...o.contractTypes],
      },
    ],
    ['urgent', { recordType: 'deal', name: '긴급', type: 'boolean' }],
    ['referrer', { recordType: 'deal', name: '추천인', type: 'people' }],
    ['channel', { recordType: 'lead', name: '유입 경로', type: 'string' }],
    ['budget', { recordType: 'lead', name: '예상 예산', type: 'number' }],
    [
      'category',
      {
        recordType: 'product',
        name: '카테고리',
        type: 'singleSelect',
        options: [...o.productCategories],
      },
    ],
    ['stock', { recordType: 'product', name: '재고 관리', type: 'boolean' }],
    ['validDays', { recordType: 'quote', name: '유효 기간(일)', type: 'number' }],
    ['discountReason', { recordType: 'quote', name: '할인 사유', type: 'string' }],
    ['discountRate', { recordType: 'quoteProduct', name: '할인율', type: 'number' }],
    ['remark', { recordType: 'quoteProduct', name: '비고', type: 'string' }],
    [
      'priority',
      {
        recordType: 'todo',
        name: '우선순위',
        type: 'singleSelect',
        options: [...o.todoPriorities],
      },
    ],
    ['minutes', { recordType: 'todo', name: '예상 소요 시간(분)', type: 'number' }],
  ];
  const ms = ctx.start - 70 * DAY;
  for (const [key, def] of defs) {
    const id = ctx.ids.next(ms);
    ctx.field[key] = id;
    ctx.out.customFields.push({ id, ...def });
  }
}

import { describe, expect, it } from 'vitest';
import { BUILT_IN_FIELDS } from '../domain/field-catalogue.ts';
import { renderFieldList } from './fields.ts';

describe('renderFieldList', () => {
  it('lists built-in fields by key, then custom ones; optionList on select fields only', () => {
    const out = renderFieldList(BUILT_IN_FIELDS.product, [
      {
        id: 'cf1',
        recordType: 'product',
        name: '카테고리',
        type: 'singleSelect',
        required: true,
        options: [{ id: 'o1', value: '교육' }],
      },
      {
        id: 'cf2',
        recordType: 'product',
        name: '비고',
        type: 'string',
        required: false,
        options: null,
      },
      {
        id: 'cf3',
        recordType: 'product',
        name: '태그',
        type: 'multiSelect',
        required: false,
        options: null,
      },
    ]);
    expect(out.map((f) => f.id)).toEqual([
      ...BUILT_IN_FIELDS.product.map((f) => f.name),
      'cf1',
      'cf2',
      'cf3',
    ]);
    expect(out.find((f) => f.name === '유형')).toEqual({
      id: '유형',
      name: '유형',
      type: 'singleSelect',
      required: false,
      optionList: [
        { id: '일반', value: '일반' },
        { id: '구독 (월간)', value: '구독 (월간)' },
        { id: '구독 (연간)', value: '구독 (연간)' },
      ],
    });
    expect(out.find((f) => f.name === '이름')).toEqual({
      id: '이름',
      name: '이름',
      type: 'string',
      required: true,
    });
    expect(JSON.stringify(out.slice(-3))).toBe(
      JSON.stringify([
        {
          id: 'cf1',
          name: '카테고리',
          type: 'singleSelect',
          required: true,
          optionList: [{ id: 'o1', value: '교육' }],
        },
        { id: 'cf2', name: '비고', type: 'string', required: false },
        { id: 'cf3', name: '태그', type: 'multiSelect', required: false, optionList: [] },
      ]),
    );
  });
});

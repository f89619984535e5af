import { describe, expect, it } from 'vitest';
import { subjectIds } from '../domain/subjects.ts';
import { renderTodo } from './todos.ts';

const row = {
  workspace_id: 'w',
  id: 't1',
  subject_type: 'lead',
  subject_id: 'l1',
  title: '전화하기',
  kind: '전화',
  start_at: null,
  due_at: '2024-05-01T01:00:00.000Z',
  done: 1,
  done_at: '2024-05-01T02:00:00.000Z',
  owner_id: 'u1',
  created_at: '2024-04-01T00:00:00.000Z',
  updated_at: '2024-04-02T00:00:00.000Z',
  custom: '{"cf1":"높음","cf2":"p1"}',
};

describe('renderTodo', () => {
  it('writes the keys in order, the subject under its key, then the custom fields', () => {
    const record = renderTodo(row, {
      owner: { id: 'u1', name: '김영업' },
      teams: [{ id: 'team1', name: '영업1팀' }],
      customFields: [
        {
          id: 'cf1',
          recordType: 'todo',
          name: '우선순위',
          type: 'string',
          required: false,
          options: null,
        },
        {
          id: 'cf2',
          recordType: 'todo',
          name: '고객',
          type: 'people',
          required: false,
          options: null,
        },
        {
          id: 'cf3',
          recordType: 'todo',
          name: '비고',
          type: 'string',
          required: false,
          options: null,
        },
      ],
      nameOf: (target, id) => (target === 'people' && id === 'p1' ? '홍길동' : undefined),
    });
    expect(JSON.stringify(record)).toBe(
      JSON.stringify({
        id: 't1',
        dealId: null,
        leadId: 'l1',
        peopleId: null,
        organizationId: null,
        내용: '전화하기',
        유형: '전화',
        '시작 날짜': null,
        '마지막 날짜': '2024-05-01T01:00:00.000Z',
        완료: true,
        '완료 날짜': '2024-05-01T02:00:00.000Z',
        담당자: { id: 'u1', name: '김영업' },
        팀: [{ id: 'team1', name: '영업1팀' }],
        '생성 날짜': '2024-04-01T00:00:00.000Z',
        '수정 날짜': '2024-04-02T00:00:00.000Z',
        우선순위: '높음',
        고객: { id: 'p1', name: '홍길동' },
        비고: null,
      }),
    );
  });

  it('leaves every id key null for a subject type without one', () => {
    expect(subjectIds('product', 'x')).toEqual({
      dealId: null,
      leadId: null,
      peopleId: null,
      organizationId: null,
    });
  });
});

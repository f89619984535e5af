import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { customObjectOfTodos, definitionLines } from './content-lines.ts';
import { Spool } from './spool.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function spoolWith(reads: Record<string, unknown[]>): Spool {
  const parent = mkdtempSync(join(tmpdir(), 'salescrm-content-'));
  dirs.push(parent);
  const dir = join(parent, 'state');
  const spool = Spool.create(dir, {
    from: 'f',
    sourceRoomId: 'r',
    sourceUserId: 'u',
    startedAt: 't',
  });
  for (const [name, values] of Object.entries(reads)) spool.append(name, values, () => {});
  return spool;
}

const object = (id: string, done: number, open: number, next: string | null) => ({
  id,
  customObjectDefinitionId: 'd1',
  '전체 TODO': done + open,
  '완료 TODO': done,
  '미완료 TODO': open,
  '다음 TODO': next,
});

describe('customObjectOfTodos', () => {
  it("places a todo by its todoCreate activity, the others by the objects' TODO keys", () => {
    const spool = spoolWith({
      customObjects: [object('o1', 1, 1, '계약서 검토'), object('o2', 0, 2, '서명 받기')],
      customObjectActivities: [
        { id: 'a1', type: 'todoCreate', customObjectId: 'o2', todoId: 't4' },
      ],
    });
    const todos = [
      { id: 't1', 내용: '서명 받기', 완료: false },
      { id: 't2', 내용: '계약서 검토', 완료: false },
      { id: 't3', 내용: '초안 작성', 완료: true },
      { id: 't4', 내용: '일정 잡기', 완료: false },
      { id: 't5', 내용: '남는 할 일', 완료: true },
    ];
    expect(Object.fromEntries(customObjectOfTodos(spool, todos))).toEqual({
      t4: 'o2',
      t1: 'o2',
      t2: 'o1',
      t3: 'o1',
    });
  });
});

describe('definitionLines', () => {
  it("gives each definition its records' pipeline, else one no records are on", () => {
    const spool = spoolWith({
      customObjectDefinitions: [
        { id: 'd1', name: '계약서' },
        { id: 'd2', name: '티켓' },
        { id: 'd3', name: '설문' },
      ],
      customObjects: [{ id: 'o1', customObjectDefinitionId: 'd2', 파이프라인: { id: 'p2' } }],
    });
    let n = 0;
    const lines = definitionLines(spool, ['p1', 'p2'], () => `t${n++}`);
    expect(lines.map((l) => [l.id, l.pipeline_id, l.position, l.created_at])).toEqual([
      ['d1', 'p1', 0, 't0'],
      ['d2', 'p2', 1, 't1'],
      ['d3', null, 2, 't2'],
    ]);
  });
});

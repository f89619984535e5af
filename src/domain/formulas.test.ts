import { describe, expect, it } from 'vitest';
import {
  checkFormula,
  evaluateFormula,
  FormulaError,
  type FormulaKind,
  type FormulaResultType,
  parseFormula,
  referencesOf,
  renamedInFormula,
} from './formulas.ts';

const KINDS: Record<string, FormulaKind> = {
  금액: 'number',
  할인: 'number',
  이름: 'text',
  담당자: 'text',
  마감일: 'date',
  시작일: 'date',
  완료: 'boolean',
};

function run(formula: string, type: FormulaResultType, record: Record<string, unknown>): unknown {
  const node = parseFormula(formula);
  checkFormula(node, (r) => KINDS[r.field]!);
  return evaluateFormula(
    node,
    type,
    (f) => record[f],
    (f) => KINDS[f],
  );
}

function errorOf(fn: () => unknown): FormulaError {
  try {
    fn();
  } catch (error) {
    if (error instanceof FormulaError) return error;
    throw error;
  }
  throw new Error('no FormulaError');
}

describe('formulas', () => {
  it('computes numbers with precedence, parentheses, unary minus, and rounds float noise', () => {
    expect(run('1 + 2 * 3', 'number', {})).toBe(7);
    expect(run('(1 + 2) * 3', 'number', {})).toBe(9);
    expect(run('-{{딜.금액}} - -2', 'number', { 금액: 5 })).toBe(-3);
    expect(run('0.1 + 0.2', 'number', {})).toBe(0.3);
    expect(run('{{딜.금액}} / {{딜.할인}}', 'number', { 금액: 5, 할인: 0 })).toBeNull();
    expect(run('{{딜.금액}} + 1', 'number', { 금액: null })).toBeNull();
  });

  it('joins text with + and &, reads Refs by name, and computes with dates in days', () => {
    expect(run('{{딜.이름}} + "!"', 'string', { 이름: '딜' })).toBe('딜!');
    expect(
      run('{{딜.담당자}} & " " & 2 * 1.5 & {{딜.완료}}', 'string', {
        담당자: { id: 'u1', name: '김' },
        완료: true,
      }),
    ).toBe('김 3true');
    const record = { 마감일: '2024-04-10T12:00:00.000Z', 시작일: '2024-04-08T00:00:00.000Z' };
    expect(run('{{딜.마감일}} + 1', 'dateTime', record)).toBe('2024-04-11T12:00:00.000Z');
    expect(run('{{딜.마감일}} - 0.5', 'date', record)).toBe('2024-04-10T00:00:00.000Z');
    expect(run('{{딜.마감일}} - {{딜.시작일}}', 'number', record)).toBe(2.5);
    expect(run('{{딜.완료}}', 'boolean', { 완료: false })).toBe(false);
  });

  it('gives null for a text longer than a string field holds, however it was joined', () => {
    const long = 'x'.repeat(6_000);
    expect(run('{{딜.이름}} & "!"', 'string', { 이름: long })).toBe(`${long}!`);
    expect(run('{{딜.이름}} & {{딜.이름}}', 'string', { 이름: long })).toBeNull();
    expect(run('{{딜.이름}} + {{딜.이름}}', 'string', { 이름: long })).toBeNull();
    // 200 references to one 10,000-character field: 2 MB per record without the bound.
    const many = Array.from({ length: 200 }, () => '{{딜.이름}}').join('&');
    expect(run(many, 'string', { 이름: 'y'.repeat(10_000) })).toBeNull();
    expect(run(many, 'string', { 이름: 'y' })).toBe('y'.repeat(200));
  });

  it('names the position of syntax errors and type mismatches', () => {
    expect(errorOf(() => parseFormula('1 +')).position).toBe(4);
    expect(errorOf(() => parseFormula('(1 + 2')).position).toBe(7);
    expect(errorOf(() => parseFormula('1 2')).position).toBe(3);
    expect(errorOf(() => parseFormula('{{딜}}')).position).toBe(1);
    expect(errorOf(() => parseFormula('"a\\n"')).position).toBe(3);
    expect(errorOf(() => parseFormula('#')).message).toContain('#');
    const mismatch = errorOf(() =>
      checkFormula(parseFormula('1 + {{딜.이름}}'), (r) => KINDS[r.field]!),
    );
    expect(mismatch.position).toBe(3);
    expect(errorOf(() => parseFormula('('.repeat(500))).message).toContain('중첩');
    expect(errorOf(() => parseFormula(`${'-('.repeat(1000)}`)).message).toContain('중첩');
    expect(errorOf(() => parseFormula(`${'-'.repeat(1999)}1`)).message).toContain('중첩');
    // A long flat chain nests nothing: 2,000 characters parse and compute.
    expect(run(`${'1+'.repeat(999)}1`, 'number', {})).toBe(1000);
    expect(run(`${'8/'.repeat(999)}8`, 'number', {})).toBe(0);
  });

  it('compares, combines booleans with && and ||, and takes min and max of numbers', () => {
    const deal = { 금액: 1200, 할인: 200, 이름: '큰 딜', 완료: false };
    expect(run('{{딜.금액}} >= 1000', 'boolean', deal)).toBe(true);
    expect(run('{{딜.금액}} - {{딜.할인}} < 1000', 'boolean', deal)).toBe(false);
    expect(run('{{딜.금액}} <= 1200 && {{딜.할인}} > 100', 'boolean', deal)).toBe(true);
    expect(run('{{딜.이름}} == "큰 딜"', 'boolean', deal)).toBe(true);
    expect(run('{{딜.이름}} != "큰 딜" || {{딜.완료}}', 'boolean', deal)).toBe(false);
    expect(run('{{딜.완료}} == false || 1 > 2 && 3 > 1', 'boolean', deal)).toBe(true);
    expect(run('0.1 + 0.2 == 0.3', 'boolean', {})).toBe(true);
    const dates = { 마감일: '2024-04-10T00:00:00.000Z', 시작일: '2024-04-10T00:00:00.000Z' };
    expect(run('{{딜.마감일}} == {{딜.시작일}}', 'boolean', dates)).toBe(true);
    expect(run('min({{딜.금액}}, {{딜.할인}} * 10, 5000)', 'number', deal)).toBe(1200);
    expect(run('max (20, 10) + min(1, 2)', 'number', {})).toBe(21);
    expect(run('true && (false || {{딜.금액}} > 0)', 'boolean', deal)).toBe(true);
    expect(run('(max({{딜.금액}}, 1) > 1000) & "!"', 'string', deal)).toBe('true!');
    // A missing value: null, as everywhere.
    expect(run('{{딜.금액}} > 1', 'boolean', { 금액: null })).toBeNull();
    expect(run('max({{딜.금액}}, 1)', 'number', { 금액: null })).toBeNull();
    expect(run('{{딜.완료}} || true', 'boolean', { 완료: null })).toBeNull();
  });

  it('refuses comparisons and functions of the wrong kinds, naming the position', () => {
    const check = (formula: string) =>
      errorOf(() => checkFormula(parseFormula(formula), (r) => KINDS[r.field]!));
    expect(check('{{딜.이름}} < 3').position).toBe(10);
    expect(check('{{딜.금액}} == "1"').message).toContain('==');
    expect(check('1 && 2').message).toContain('&&');
    expect(check('min(1, {{딜.이름}})').message).toContain('min');
    expect(errorOf(() => parseFormula('min(1)')).message).toContain('둘 이상');
    expect(errorOf(() => parseFormula('sum(1, 2)')).message).toContain('sum');
    expect(errorOf(() => parseFormula('MIN(1, 2)')).message).toContain('MIN');
    expect(errorOf(() => parseFormula('true(1, 2)')).position).toBe(5);
    expect(errorOf(() => parseFormula('max 1')).position).toBe(5);
    expect(errorOf(() => parseFormula('1 < 2 < 3')).message).toContain('하나만');
    expect(errorOf(() => parseFormula('1 ||')).position).toBe(5);
    expect(
      errorOf(() => parseFormula(`${'min(1,'.repeat(200)}1${')'.repeat(200)}`)).message,
    ).toContain('중첩');
    expect(
      referencesOf(parseFormula('max({{딜.금액}}, {{딜.할인}}) > 1 && {{딜.완료}}')).map(
        (r) => r.field,
      ),
    ).toEqual(['금액', '할인', '완료']);
  });

  it('lists references and renames them in the text as written', () => {
    const formula = '{{딜.금액}}*2 + {{ 딜 . 할인 }}';
    expect(referencesOf(parseFormula(formula)).map((r) => [r.object, r.field])).toEqual([
      ['딜', '금액'],
      ['딜', '할인'],
    ]);
    expect(renamedInFormula(formula, '할인', '할인율')).toBe('{{딜.금액}}*2 + {{딜.할인율}}');
    expect(renamedInFormula(formula, '없음', 'x')).toBe(formula);
  });
});

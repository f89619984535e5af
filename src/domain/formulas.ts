/**
 * Formula fields: a small expression language over a record's own fields, computed when the
 * record renders (so the stored JSON is always that of the record's current fields). Pure:
 * parsed by hand, never evaluated as code.
 *
 *   formula   := or
 *   or        := and ('||' and)*
 *   and       := compare ('&&' compare)*
 *   compare   := expr (('==' | '!=' | '<=' | '>=' | '<' | '>') expr)?
 *   expr      := term (('+' | '-' | '&') term)*
 *   term      := unary (('*' | '/') unary)*
 *   unary     := '-' unary | primary
 *   primary   := number | string | boolean | reference | call | '(' or ')'
 *   call      := ('min' | 'max') '(' or (',' or)+ ')'
 *   number    := digits ('.' digits)?            e.g. 1000, 0.1
 *   string    := '"' text '"'                    `\"` and `\\` escape
 *   boolean   := 'true' | 'false'
 *   reference := '{{' 대상명 '.' 필드명 '}}'        e.g. {{딜.금액}}
 *
 * Values are numbers, text, dates and booleans. `+ - * /` take numbers; `+` also joins two
 * texts and adds days to a date (`-` takes them off; date − date is days between); `&` joins
 * any two values as text. `< > <= >=` compare two numbers, `==` and `!=` two values of one
 * kind (numbers, texts, dates or booleans), and give a boolean; `&&` and `||` take booleans
 * (`true`, `false`);
 * `min` and `max` the smallest and largest of two or more numbers (the live API's calculated
 * fields have these operators and functions). A missing value (null) makes the result null,
 * as does a division by zero, and a text longer than a string field holds
 * (`MAX_TEXT_LENGTH`).
 */
import type { CustomFieldDefinition, CustomFieldRecordType } from './custom-fields.ts';
import { BUILT_IN_FIELDS, type BuiltInFieldType } from './field-catalogue.ts';
import { MAX_TEXT_LENGTH } from './field-values.ts';
import { DEAL } from './record-types/deals.ts';

/** The kinds of value a formula computes with. */
export type FormulaKind = 'number' | 'text' | 'date' | 'boolean';

/** The field types a formula field may have: the type of its result. */
export const FORMULA_RESULT_TYPES = ['string', 'number', 'date', 'dateTime', 'boolean'] as const;
export type FormulaResultType = (typeof FORMULA_RESULT_TYPES)[number];

/** A reference `{{대상명.필드명}}`: `at` its first character, `end` past its last (0-based). */
export interface FormulaReference {
  object: string;
  field: string;
  at: number;
  end: number;
}

/** The comparison operators: they give a boolean. */
const COMPARISONS = ['==', '!=', '<=', '>=', '<', '>'] as const;
type Comparison = (typeof COMPARISONS)[number];

/** The functions a formula may call, each of two or more numbers. */
const FUNCTIONS = ['min', 'max'] as const;
type FormulaFunction = (typeof FUNCTIONS)[number];

type Node =
  | { kind: 'number'; value: number; at: number }
  | { kind: 'text'; value: string; at: number }
  | { kind: 'boolean'; value: boolean; at: number }
  | ({ kind: 'ref' } & FormulaReference)
  | { kind: 'neg'; operand: Node; at: number }
  | { kind: 'binary'; op: '+' | '-' | '*' | '/' | '&'; left: Node; right: Node; at: number }
  | { kind: 'compare'; op: Comparison; left: Node; right: Node; at: number }
  | { kind: 'logic'; op: '&&' | '||'; left: Node; right: Node; at: number }
  | { kind: 'call'; name: FormulaFunction; args: Node[]; at: number };

/** A formula that does not parse or check; `position` is 1-based, in characters. */
export class FormulaError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
  }
}

/** Longest formula text. */
export const MAX_FORMULA_LENGTH = 2000;
/** Deepest nesting of parentheses and operators (keeps the parser's stack small). */
const MAX_DEPTH = 100;

/** Parses a formula; a syntax error is a `FormulaError` at its position. */
export function parseFormula(text: string): Node {
  let i = 0;
  let depth = 0;
  const fail = (message: string, at = i): never => {
    throw new FormulaError(message, at + 1);
  };
  const space = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  // One level of nesting per parenthesis, call argument or unary minus: `or` is where each
  // starts.
  const or = (): Node => {
    if (++depth > MAX_DEPTH) fail('수식이 너무 깊게 중첩되어 있습니다.');
    let left = and();
    for (;;) {
      space();
      if (!text.startsWith('||', i)) break;
      const at = i;
      i += 2;
      left = { kind: 'logic', op: '||', left, right: and(), at };
    }
    depth--;
    return left;
  };
  const and = (): Node => {
    let left = compare();
    for (;;) {
      space();
      if (!text.startsWith('&&', i)) break;
      const at = i;
      i += 2;
      left = { kind: 'logic', op: '&&', left, right: compare(), at };
    }
    return left;
  };
  const compare = (): Node => {
    const left = expr();
    space();
    const op = COMPARISONS.find((c) => text.startsWith(c, i));
    if (op === undefined) return left;
    const at = i;
    i += op.length;
    const node: Node = { kind: 'compare', op, left, right: expr(), at };
    space();
    if (COMPARISONS.some((c) => text.startsWith(c, i)))
      fail('비교는 한 번에 하나만 쓸 수 있습니다: 괄호와 && 또는 ||로 나눠 주세요.');
    return node;
  };
  const expr = (): Node => {
    let left = term();
    for (;;) {
      space();
      const op = text[i];
      // `&&` is the logical and, not a join.
      if (op !== '+' && op !== '-' && op !== '&') break;
      if (text.startsWith('&&', i)) break;
      const at = i++;
      left = { kind: 'binary', op, left, right: term(), at };
    }
    return left;
  };
  const term = (): Node => {
    let left = unary();
    for (;;) {
      space();
      const op = text[i];
      if (op !== '*' && op !== '/') break;
      const at = i++;
      left = { kind: 'binary', op, left, right: unary(), at };
    }
    return left;
  };
  const unary = (): Node => {
    space();
    if (text[i] === '-') {
      const at = i++;
      if (++depth > MAX_DEPTH) fail('수식이 너무 깊게 중첩되어 있습니다.');
      const operand = unary();
      depth--;
      return { kind: 'neg', operand, at };
    }
    return primary();
  };
  const primary = (): Node => {
    space();
    const at = i;
    const c = text[i];
    if (c === undefined) return fail('값이 와야 할 자리에서 수식이 끝났습니다.');
    if (c === '(') {
      i++;
      const inner = or();
      space();
      if (text[i] !== ')') fail("')'가 와야 합니다.");
      i++;
      return inner;
    }
    if (/[A-Za-z]/.test(c)) {
      const name = /^[A-Za-z]+/.exec(text.slice(i))![0];
      if (name === 'true' || name === 'false') {
        i += name.length;
        return { kind: 'boolean', value: name === 'true', at };
      }
      if (!(FUNCTIONS as readonly string[]).includes(name))
        fail(`없는 함수입니다: '${name.slice(0, 50)}' (${FUNCTIONS.join(', ')} 중 하나)`);
      i += name.length;
      space();
      if (text[i] !== '(') fail(`'${name}' 뒤에는 '('가 와야 합니다.`);
      i++;
      const args = [or()];
      for (;;) {
        space();
        if (text[i] !== ',') break;
        i++;
        args.push(or());
      }
      if (text[i] !== ')') fail("')'가 와야 합니다.");
      i++;
      if (args.length < 2) fail(`'${name}'에는 숫자가 둘 이상 있어야 합니다.`, at);
      return { kind: 'call', name: name as FormulaFunction, args, at };
    }
    if (/[0-9]/.test(c)) {
      const m = /^[0-9]+(\.[0-9]+)?/.exec(text.slice(i))!;
      i += m[0].length;
      return { kind: 'number', value: Number(m[0]), at };
    }
    if (c === '"') {
      let value = '';
      i++;
      for (;;) {
        const ch = text[i];
        if (ch === undefined) return fail('문자열이 닫히지 않았습니다.', at);
        i++;
        if (ch === '"') break;
        if (ch === '\\') {
          const next = text[i];
          if (next !== '"' && next !== '\\')
            fail('문자열에는 \\" 와 \\\\ 만 쓸 수 있습니다.', i - 1);
          value += next;
          i++;
        } else value += ch;
      }
      return { kind: 'text', value, at };
    }
    if (text.startsWith('{{', i)) {
      const close = text.indexOf('}}', i + 2);
      if (close < 0) return fail("참조가 '}}'로 닫히지 않았습니다.", at);
      const inside = text.slice(i + 2, close);
      const dot = inside.indexOf('.');
      const object = dot < 0 ? '' : inside.slice(0, dot).trim();
      const field = dot < 0 ? '' : inside.slice(dot + 1).trim();
      if (object === '' || field === '') fail('참조는 {{대상명.필드명}} 형식이어야 합니다.', at);
      i = close + 2;
      return { kind: 'ref', object, field, at, end: i };
    }
    return fail(`여기에 '${c}'는 올 수 없습니다.`);
  };
  if (text.trim() === '') fail('수식이 비어 있습니다.', 0);
  const node = or();
  space();
  if (i < text.length) fail(`여기에 '${text[i]}'는 올 수 없습니다.`);
  return node;
}

/** The references of a formula, in the order written. */
export function referencesOf(node: Node): FormulaReference[] {
  switch (node.kind) {
    case 'ref':
      return [{ object: node.object, field: node.field, at: node.at, end: node.end }];
    case 'neg':
      return referencesOf(node.operand);
    case 'binary':
    case 'compare':
    case 'logic':
      return [...referencesOf(node.left), ...referencesOf(node.right)];
    case 'call':
      return node.args.flatMap(referencesOf);
    default:
      return [];
  }
}

/** What a value of a field type is in a formula; undefined for list values (not usable). */
export function formulaKindOfType(type: BuiltInFieldType): FormulaKind | undefined {
  switch (type) {
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'date':
    case 'dateTime':
      return 'date';
    default:
      // Text, select, ids and single Refs (read by name); lists (multi…) have no one value.
      return type.startsWith('multi') ? undefined : 'text';
  }
}

/** The kind a result type holds. */
export function kindOfResultType(type: FormulaResultType): FormulaKind {
  return type === 'string' ? 'text' : formulaKindOfType(type)!;
}

/**
 * The kind of a formula's result, given the kind of each reference (its checks' outcome:
 * `kindOf` throws for a reference it refuses). A type mismatch is a `FormulaError` at the
 * operator.
 */
export function checkFormula(
  node: Node,
  kindOf: (ref: FormulaReference) => FormulaKind,
): FormulaKind {
  switch (node.kind) {
    case 'number':
      return 'number';
    case 'text':
      return 'text';
    case 'boolean':
      return 'boolean';
    case 'ref':
      return kindOf(node);
    case 'neg': {
      const k = checkFormula(node.operand, kindOf);
      if (k !== 'number')
        throw new FormulaError(`'-'는 숫자에만 쓸 수 있습니다 (${NAMES[k]}).`, node.at + 1);
      return 'number';
    }
    case 'binary':
    case 'compare':
    case 'logic': {
      const l = checkFormula(node.left, kindOf);
      const r = checkFormula(node.right, kindOf);
      const out = operatorKind(node, l, r);
      if (!out)
        throw new FormulaError(
          `'${node.op}'를 ${NAMES[l]}와(과) ${NAMES[r]}에 쓸 수 없습니다.`,
          node.at + 1,
        );
      return out;
    }
    case 'call': {
      for (const arg of node.args) {
        const k = checkFormula(arg, kindOf);
        if (k !== 'number')
          throw new FormulaError(
            `'${node.name}'는 숫자에만 쓸 수 있습니다 (${NAMES[k]}).`,
            node.at + 1,
          );
      }
      return 'number';
    }
  }
}

/** The kind an operator gives for operands of kinds `l` and `r`; undefined: not allowed. */
function operatorKind(
  node: Extract<Node, { kind: 'binary' | 'compare' | 'logic' }>,
  l: FormulaKind,
  r: FormulaKind,
): FormulaKind | undefined {
  if (node.kind === 'binary') return binaryKind(node.op, l, r);
  if (node.kind === 'logic') return l === 'boolean' && r === 'boolean' ? 'boolean' : undefined;
  if (node.op === '==' || node.op === '!=') return l === r ? 'boolean' : undefined;
  return l === 'number' && r === 'number' ? 'boolean' : undefined;
}

const NAMES: Record<FormulaKind, string> = {
  number: '숫자',
  text: '문자열',
  date: '날짜',
  boolean: '참/거짓',
};

function binaryKind(op: string, l: FormulaKind, r: FormulaKind): FormulaKind | undefined {
  if (op === '&') return 'text';
  if (l === 'number' && r === 'number') return 'number';
  if (op === '+') {
    if (l === 'text' && r === 'text') return 'text';
    if ((l === 'date' && r === 'number') || (l === 'number' && r === 'date')) return 'date';
  }
  if (op === '-') {
    if (l === 'date' && r === 'number') return 'date';
    if (l === 'date' && r === 'date') return 'number';
  }
  return undefined;
}

const DAY_MS = 86_400_000;

/** A value while a formula is computed: dates as epoch milliseconds. */
type Value = number | string | boolean | null;

/**
 * Computes a formula over one record: `readField` gives a referenced field's rendered value and
 * `kindOf` its kind (as the formula was checked with). The result in the record's form for
 * `type`: a number, text, a Timestamp (`date`: the UTC day's start), a boolean, or null.
 */
export function evaluateFormula(
  node: Node,
  type: FormulaResultType,
  readField: (field: string) => unknown,
  kindOf: (field: string) => FormulaKind | undefined,
): unknown {
  const [kind, value] = evaluate(node, readField, kindOf);
  if (value === null || kind !== kindOfResultType(type)) return null;
  switch (kind) {
    case 'number':
      return rounded(value as number);
    case 'date': {
      const ms =
        type === 'date' ? Math.floor((value as number) / DAY_MS) * DAY_MS : (value as number);
      return timestamp(ms);
    }
    default:
      return value;
  }
}

function evaluate(
  node: Node,
  readField: (field: string) => unknown,
  kindOf: (field: string) => FormulaKind | undefined,
): [FormulaKind, Value] {
  switch (node.kind) {
    case 'number':
      return ['number', node.value];
    case 'text':
      return ['text', node.value];
    case 'boolean':
      return ['boolean', node.value];
    case 'ref': {
      const kind = kindOf(node.field);
      if (!kind) return ['text', null];
      return [kind, fieldValue(kind, readField(node.field))];
    }
    case 'neg': {
      const [, v] = evaluate(node.operand, readField, kindOf);
      return ['number', typeof v === 'number' ? -v : null];
    }
    case 'binary': {
      const [lk, lv] = evaluate(node.left, readField, kindOf);
      const [rk, rv] = evaluate(node.right, readField, kindOf);
      const kind = binaryKind(node.op, lk, rk) ?? 'text';
      if (lv === null || rv === null || !binaryKind(node.op, lk, rk)) return [kind, null];
      return [kind, apply(node.op, lk, lv, rk, rv)];
    }
    case 'compare':
    case 'logic': {
      const [lk, lv] = evaluate(node.left, readField, kindOf);
      const [rk, rv] = evaluate(node.right, readField, kindOf);
      // A field whose kind changed since the formula was checked gives null, as a missing one.
      if (lv === null || rv === null || !operatorKind(node, lk, rk)) return ['boolean', null];
      return [
        'boolean',
        node.kind === 'logic' ? logic(node.op, lv, rv) : compared(node.op, lv, rv),
      ];
    }
    case 'call': {
      const values: number[] = [];
      for (const arg of node.args) {
        const [k, v] = evaluate(arg, readField, kindOf);
        if (k !== 'number' || v === null) return ['number', null];
        values.push(v as number);
      }
      return ['number', node.name === 'min' ? Math.min(...values) : Math.max(...values)];
    }
  }
}

/** `&&` or `||` of two booleans. */
function logic(op: '&&' | '||', l: Value, r: Value): boolean {
  return op === '&&' ? l === true && r === true : l === true || r === true;
}

/** A comparison of two values of one kind (dates as milliseconds). */
function compared(op: Comparison, left: Value, right: Value): boolean {
  // Numbers as they show, to 15 significant digits: `0.1 + 0.2 == 0.3` holds.
  const l = typeof left === 'number' ? rounded(left) : left;
  const r = typeof right === 'number' ? rounded(right) : right;
  switch (op) {
    case '==':
      return l === r;
    case '!=':
      return l !== r;
    case '<':
      return (l as number) < (r as number);
    case '>':
      return (l as number) > (r as number);
    case '<=':
      return (l as number) <= (r as number);
    case '>=':
      return (l as number) >= (r as number);
  }
}

function apply(op: string, lk: FormulaKind, lv: Value, rk: FormulaKind, rv: Value): Value {
  if (op === '&') return boundedText(asText(lk, lv), asText(rk, rv));
  if (lk === 'text') return boundedText(lv as string, rv as string);
  const l = lv as number;
  const r = rv as number;
  let out: number;
  // Dates count in days: date ± days, days + date, date − date.
  if (lk === 'date' && rk === 'number') out = op === '+' ? l + r * DAY_MS : l - r * DAY_MS;
  else if (lk === 'number' && rk === 'date') out = l * DAY_MS + r;
  else if (lk === 'date' && rk === 'date') out = (l - r) / DAY_MS;
  else if (op === '+') out = l + r;
  else if (op === '-') out = l - r;
  else if (op === '*') out = l * r;
  else {
    if (r === 0) return null;
    out = l / r;
  }
  return Number.isFinite(out) ? out : null;
}

/**
 * Two texts joined, or null past `MAX_TEXT_LENGTH`: a formula joining a long field to itself
 * (or a formula over such formulas) would otherwise grow its value, and every record's JSON,
 * by a factor per reference.
 */
function boundedText(left: string, right: string): string | null {
  return left.length + right.length > MAX_TEXT_LENGTH ? null : left + right;
}

/** A field's rendered value as the formula reads it (null: missing or not of its kind). */
function fieldValue(kind: FormulaKind, raw: unknown): Value {
  if (raw === null || raw === undefined) return null;
  switch (kind) {
    case 'number':
      return typeof raw === 'number' && Number.isFinite(raw) ? raw : null;
    case 'boolean':
      return typeof raw === 'boolean' ? raw : null;
    case 'date': {
      const ms = typeof raw === 'string' ? Date.parse(raw) : Number.NaN;
      return Number.isNaN(ms) ? null : ms;
    }
    default:
      if (typeof raw === 'string') return raw;
      if (typeof raw === 'object' && typeof (raw as { name?: unknown }).name === 'string')
        return (raw as { name: string }).name;
      return typeof raw === 'number' || typeof raw === 'boolean' ? String(raw) : null;
  }
}

function asText(kind: FormulaKind, value: Value): string {
  if (kind === 'number') return String(rounded(value as number));
  if (kind === 'date') return timestamp(value as number) ?? '';
  return String(value);
}

/** 15 significant digits: `0.1 + 0.2` is 0.3. */
function rounded(n: number): number {
  return Number(n.toPrecision(15));
}

function timestamp(ms: number): string | null {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** Keys of the single-deal response computed at read time: not in the stored record. */
const READ_TIME_KEYS: ReadonlySet<string> = new Set(
  (DEAL.singleRecordKeys ?? []).map((k) => k.key),
);

/**
 * The kind of a field of `recordType` that a formula may read, by name: a built-in field
 * the stored record shows, or one of `definitions` (a formula field by its result type).
 * Undefined for an unknown field and for list values.
 */
export function fieldKindOf(
  recordType: CustomFieldRecordType,
  definitions: readonly CustomFieldDefinition[],
  name: string,
): { kind: FormulaKind | undefined; type: string } | undefined {
  const builtIn = BUILT_IN_FIELDS[recordType].find((f) => f.name === name);
  if (builtIn && !(recordType === 'deal' && READ_TIME_KEYS.has(name)))
    return { kind: formulaKindOfType(builtIn.type), type: builtIn.type };
  const def = definitions.find((d) => d.name === name);
  if (!def) return undefined;
  return { kind: formulaKindOfType(def.type), type: def.type };
}

/** Parsed formulas by text (formulas are few; each parses once per process). */
const parsed = new Map<string, Node | null>();

/**
 * The value of a formula field on a record rendered so far (`record`: its keys before the
 * field's, formulas before it computed): null when the formula no longer parses.
 */
export function formulaValue(
  def: Pick<CustomFieldDefinition, 'recordType' | 'type'> & { formula: string },
  definitions: readonly CustomFieldDefinition[],
  record: Record<string, unknown>,
): unknown {
  let node = parsed.get(def.formula);
  if (node === undefined) {
    try {
      node = parseFormula(def.formula);
    } catch {
      node = null;
    }
    if (parsed.size > 10_000) parsed.clear();
    parsed.set(def.formula, node);
  }
  if (node === null) return null;
  return evaluateFormula(
    node,
    def.type as FormulaResultType,
    (field) => record[field],
    kindsOf(def.recordType, definitions),
  );
}

/** The kinds of fields by record type and name, per list of definitions (a catalog's). */
const kindsByDefinitions = new WeakMap<
  readonly CustomFieldDefinition[],
  Map<CustomFieldRecordType, Map<string, FormulaKind | undefined>>
>();

/**
 * `fieldKindOf`'s kind, looked up once per list of definitions: a record's formulas may hold
 * thousands of references, and each lookup scans the definitions.
 */
function kindsOf(
  recordType: CustomFieldRecordType,
  definitions: readonly CustomFieldDefinition[],
): (field: string) => FormulaKind | undefined {
  let byType = kindsByDefinitions.get(definitions);
  if (!byType) {
    byType = new Map();
    kindsByDefinitions.set(definitions, byType);
  }
  let kinds = byType.get(recordType);
  if (!kinds) {
    kinds = new Map();
    byType.set(recordType, kinds);
  }
  const known = kinds;
  return (field) => {
    if (known.has(field)) return known.get(field);
    const kind = fieldKindOf(recordType, definitions, field)?.kind;
    known.set(field, kind);
    return kind;
  };
}

/** Whether a stored formula reads field `field` (false when it does not parse). */
export function formulaReads(formula: string, field: string): boolean {
  try {
    return referencesOf(parseFormula(formula)).some((r) => r.field === field);
  } catch {
    return false;
  }
}

/**
 * Whether `{{대상명.name}}` reads a field named `name`: not when the name holds `}}` or ends
 * with `}` (the reference would close early), nor when it starts or ends with a space
 * (references are trimmed).
 */
export function isReferenceableName(name: string): boolean {
  return name === name.trim() && !name.includes('}}') && !name.endsWith('}');
}

/**
 * A formula with its references to field `from` now naming `to` (a field renamed): the text
 * as written, each such `{{대상명.필드명}}` replaced.
 */
export function renamedInFormula(formula: string, from: string, to: string): string {
  let node: Node;
  try {
    node = parseFormula(formula);
  } catch {
    return formula;
  }
  let out = formula;
  const refs = referencesOf(node).filter((r) => r.field === from);
  for (const r of refs.reverse())
    out = `${out.slice(0, r.at)}{{${r.object}.${to}}}${out.slice(r.end)}`;
  return out;
}

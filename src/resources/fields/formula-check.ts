import type { CreateFieldBody } from '../../api-schema/bodies/fields.ts';
import {
  type CustomFieldDefinition,
  type CustomFieldRecordType,
  fieldsOfDefinition,
} from '../../domain/custom-fields.ts';
import { DomainError } from '../../domain/errors.ts';
import {
  checkFormula,
  FORMULA_RESULT_TYPES,
  FormulaError,
  type FormulaKind,
  type FormulaReference,
  type FormulaResultType,
  fieldKindOf,
  kindOfResultType,
  parseFormula,
  referencesOf,
} from '../../domain/formulas.ts';
import type { WorkspaceWrite } from '../../store/write.ts';
import { customFieldsOf } from './field-list.ts';

/** The name a formula calls the record by (`{{딜.금액}}`), per record type but custom objects. */
const OBJECT_NAMES: Record<Exclude<CustomFieldRecordType, 'customObject'>, string> = {
  people: '고객',
  organization: '회사',
  deal: '딜',
  lead: '리드',
  product: '상품',
  quote: '견적',
  quoteProduct: '견적 상품',
  todo: 'TODO',
};

const KIND_NAMES: Record<FormulaKind, string> = {
  number: 'number',
  text: 'string',
  date: 'date/dateTime',
  boolean: 'boolean',
};

const invalid = (message: string) => new DomainError('invalid_body', message);

/**
 * Checks a new formula field of `recordType` (custom objects: of definition `definitionId`):
 * its type is a result type, it has no options, is not required, not in the create form,
 * not kept unique; its formula parses, reads only fields the record itself shows (existing
 * ones, no list values, not itself, no cycle through other formulas), and yields its type.
 * Any failure is a 400 naming `formula` (and the position) or the key at fault.
 */
export async function checkNewFormula(
  w: WorkspaceWrite,
  recordType: CustomFieldRecordType,
  definitionId: string | undefined,
  body: CreateFieldBody & { formula: string },
): Promise<void> {
  const type = body.type;
  if (!(FORMULA_RESULT_TYPES as readonly string[]).includes(type))
    throw invalid(
      `'type': 수식 필드의 형식은 결과의 형식이어야 합니다 (${FORMULA_RESULT_TYPES.join(', ')} 중 하나, 받은 값: '${type.slice(0, 100)}').`,
    );
  for (const key of ['required', 'showInCreateForm', 'preventDuplicates'] as const) {
    if (body[key]) throw invalid(`'${key}'는 수식 필드에 쓸 수 없습니다 (값은 계산됩니다).`);
  }
  if (body.options !== undefined && body.options.length > 0)
    throw invalid("'options'는 수식 필드에 쓸 수 없습니다.");
  const all = await customFieldsOf(w.trx, w.workspaceId, recordType);
  const definitions = definitionId === undefined ? all : fieldsOfDefinition(all, definitionId);
  const definitionNames = await w.trx
    .selectFrom('custom_object_definitions')
    .select(['id', 'name'])
    .where('workspace_id', '=', w.workspaceId)
    .execute();
  const own =
    recordType === 'customObject'
      ? definitionNames.find((d) => d.id === definitionId)!.name
      : OBJECT_NAMES[recordType];
  const others = new Set([...Object.values(OBJECT_NAMES), ...definitionNames.map((d) => d.name)]);
  const refuseCycle = cycleCheck(body.name, definitions);
  try {
    const node = parseFormula(body.formula);
    const kindOf = (ref: FormulaReference): FormulaKind => {
      const at = ref.at + 1;
      if (ref.object !== own) {
        if (others.has(ref.object))
          throw new FormulaError(
            `다른 대상 '${ref.object}'의 필드는 참조할 수 없습니다. 수식은 이 ${own} 레코드 자신의 필드만 읽습니다 ({{${own}.필드명}}).`,
            at,
          );
        throw new FormulaError(
          `알 수 없는 대상입니다: '${ref.object}' (이 필드의 대상: '${own}')`,
          at,
        );
      }
      if (ref.field === body.name)
        throw new FormulaError(`수식이 자기 자신('${body.name}')을 참조합니다 (순환 참조).`, at);
      const field = fieldKindOf(recordType, definitions, ref.field);
      if (!field) throw new FormulaError(`'${own}'에 없는 필드입니다: '${ref.field}'`, at);
      if (!field.kind)
        throw new FormulaError(
          `'${ref.field}'는 목록 값 필드(${field.type})라 수식에 쓸 수 없습니다.`,
          at,
        );
      refuseCycle(ref);
      return field.kind;
    };
    const kind = checkFormula(node, kindOf);
    if (kind !== kindOfResultType(type as FormulaResultType))
      throw invalid(
        `'formula'의 결과는 ${KIND_NAMES[kind]}인데 'type'은 ${type}입니다. 'type'을 결과의 형식으로 보내 주세요.`,
      );
  } catch (error) {
    if (error instanceof FormulaError)
      throw invalid(`'formula' ${error.position}번째 글자: ${error.message}`);
    throw error;
  }
}

/**
 * The check of each reference of the new formula field `name`: a reference that leads back
 * to it through other formula fields is a `FormulaError` (a field deleted and defined again
 * under a formula's name could close a loop). Each formula field is parsed and followed once
 * for all the references: a formula of hundreds of references over a chain of hundreds of
 * formula fields would otherwise parse the chain again for each reference (seconds).
 */
function cycleCheck(
  name: string,
  definitions: readonly CustomFieldDefinition[],
): (ref: FormulaReference) => void {
  const formulaOf = new Map(
    definitions.flatMap((d) => (d.formula === undefined ? [] : [[d.name, d.formula] as const])),
  );
  const referencesOfField = new Map<string, FormulaReference[]>();
  /** Fields followed to the end without reaching `name`. */
  const clear = new Set<string>();
  return (ref) => {
    const path: string[] = [];
    const onPath = new Set<string>();
    const reaches = (field: string): boolean => {
      if (field === name) return true;
      const formula = formulaOf.get(field);
      if (formula === undefined || clear.has(field) || onPath.has(field)) return false;
      path.push(field);
      onPath.add(field);
      let refs = referencesOfField.get(field);
      if (refs === undefined) {
        refs = referencesIn(formula);
        referencesOfField.set(field, refs);
      }
      for (const next of refs) if (reaches(next.field)) return true;
      path.pop();
      onPath.delete(field);
      // A field on the path that reaches `name` would have thrown before this returns.
      clear.add(field);
      return false;
    };
    if (reaches(ref.field))
      throw new FormulaError(
        `순환 참조입니다: ${[name, ...path, name].map((n) => `'${n}'`).join(' → ')}`,
        ref.at + 1,
      );
  };
}

/** The references of a stored formula; none if it does not parse (an imported one may not). */
function referencesIn(formula: string): FormulaReference[] {
  try {
    return referencesOf(parseFormula(formula));
  } catch {
    return [];
  }
}

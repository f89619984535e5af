import { Kind, type Static, type TObject, type TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { ValueErrorType } from '@sinclair/typebox/errors';
import { DomainError } from '../domain/errors.ts';
import { unstorableMessage, unstorableText } from './nul-text.ts';

/** A request body that passed its schema, with the top-level keys the schema does not know. */
export interface ReadBody<T> {
  value: T;
  /** Unknown top-level keys: ignored, as the live API ignores them, and named in a header. */
  ignored: string[];
}

/**
 * A reader of JSON request bodies for one schema: checks the body, and on the first
 * mismatch answers 400 with a Korean message naming the field (`quoteProductList[0].price`)
 * and what it must be; text holding U+0000 or a surrogate without its pair anywhere is
 * refused the same way (the stores do not keep it alike, so neither takes it). Unknown top-level keys are allowed and reported as ignored.
 */
export function bodyReader<S extends TObject>(schema: S): (body: unknown) => ReadBody<Static<S>> {
  const check = TypeCompiler.Compile(schema);
  const known = new Set(Object.keys(schema.properties));
  return (body) => {
    const value = body ?? {};
    if (typeof value !== 'object' || Array.isArray(value)) {
      throw new DomainError('invalid_body', '요청 본문은 JSON 객체여야 합니다.');
    }
    if (!check.Check(value)) {
      const error = check.Errors(value).First()!;
      throw new DomainError('invalid_body', describeError(error.path, error.type, error.schema));
    }
    const bad = unstorableText(value);
    if (bad !== undefined)
      throw new DomainError('invalid_body', unstorableMessage(bad.path, bad.char));
    const ignored = Object.keys(value).filter((k) => !known.has(k));
    return { value: value as Static<S>, ignored };
  };
}

/** `/quoteProductList/0/price` → `quoteProductList[0].price`. */
export function fieldPath(pointer: string): string {
  let out = '';
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(part) ? `[${part}]` : out === '' ? part : `.${part}`;
  }
  return out;
}

function describeError(pointer: string, type: ValueErrorType, schema: TSchema): string {
  const name = fieldPath(pointer);
  if (type === ValueErrorType.ObjectRequiredProperty) return `'${name}' 값이 필요합니다.`;
  return `'${name}' 값이 올바르지 않습니다. 필요한 값: ${expected(schema)}.`;
}

/** What a schema asks for, in words. */
export function expected(schema: TSchema): string {
  if (schema.anyOf) {
    const options = (schema.anyOf as TSchema[]).map(expected);
    return options.join(' 또는 ');
  }
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  switch (schema[Kind]) {
    case 'String': {
      const limits = [];
      if (schema.minLength) limits.push(`${schema.minLength}자 이상`);
      if (schema.maxLength) limits.push(`${schema.maxLength.toLocaleString('en-US')}자 이하`);
      const text = schema.pattern ? '공백만은 아닌 문자열' : '문자열';
      return limits.length > 0 ? `${limits.join(' ')}의 ${text}` : text;
    }
    case 'Number':
    case 'Integer': {
      const noun = schema[Kind] === 'Integer' ? '정수' : '숫자';
      if (schema.exclusiveMinimum !== undefined) return `${schema.exclusiveMinimum}보다 큰 ${noun}`;
      if (schema.minimum !== undefined && schema.maximum !== undefined) {
        return `${schema.minimum} 이상 ${schema.maximum} 이하의 ${noun}`;
      }
      if (schema.minimum !== undefined) return `${schema.minimum} 이상의 ${noun}`;
      return noun;
    }
    case 'Boolean':
      return 'true 또는 false';
    case 'Null':
      return 'null';
    case 'Array': {
      const limits = [];
      if (schema.minItems) limits.push(`${schema.minItems}개 이상`);
      if (schema.maxItems !== undefined) limits.push(`${schema.maxItems}개 이하`);
      const text = schema.uniqueItems ? '중복 없는 배열' : '배열';
      return limits.length > 0 ? `항목 ${limits.join(' ')}의 ${text}` : text;
    }
    case 'Object':
      return '객체';
    default:
      return '올바른 값';
  }
}

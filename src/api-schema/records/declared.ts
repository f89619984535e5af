/**
 * A declared record type's fixed keys as TypeBox properties, in its wire order
 * (docs/architecture.md, Record types): each wire kind of `src/domain/record-types/` is one type
 * here, each shared group the properties of `field-groups.ts`. The static type follows the
 * declaration's literal keys, so the client's record types stay exact.
 */
import { type TArray, type TObject, type TSchema, Type } from '@sinclair/typebox';
import { PRODUCT_KINDS } from '../../domain/quotes.ts';
import type {
  KeyDeclaration,
  KeyGroup,
  RecordTypeDeclaration,
  SingleRecordKey,
  WireKind,
} from '../../domain/record-types/declaration.ts';
import { Id, Nullable, OneOf, Ref, Timestamp } from '../primitives.ts';
import { count, optionalText, text } from './common.ts';
import {
  dealCounters,
  noteGroup,
  ownership,
  sequenceGroup,
  todoGroup,
  webFormGroup,
} from './field-groups.ts';

/** The TypeBox type of each wire kind. */
const WIRE = {
  id: Id,
  optionalId: Nullable(Id),
  text,
  optionalText,
  flag: Type.Boolean(),
  productKind: OneOf(PRODUCT_KINDS),
  number: Type.Number(),
  optionalNumber: Nullable(Type.Number()),
  optionalDate: Nullable(Timestamp),
  timestamp: Timestamp,
  optionalTimestamp: Nullable(Timestamp),
  optionalRef: Nullable(Ref),
  refs: Type.Array(Ref),
  optionalRefs: Nullable(Type.Array(Ref)),
  positiveInteger: Type.Integer({ minimum: 1 }),
  count,
} as const satisfies Record<WireKind, unknown>;
type Wire = typeof WIRE;

/** The properties of each shared field group. */
const GROUPS = {
  dealCounters,
  note: noteGroup,
  webForm: webFormGroup,
  sequence: sequenceGroup,
  ownership,
  todo: todoGroup,
} as const satisfies Record<KeyGroup, unknown>;
type Groups = typeof GROUPS;

/** The properties one key declaration adds; `R` is the record schema of the lines. */
type PropertiesOf<K, R extends TObject> = K extends { group: infer G extends KeyGroup }
  ? Groups[G]
  : K extends { key: infer N extends string; wire: infer W extends WireKind }
    ? { [P in N]: Wire[W] }
    : K extends { key: infer N extends string; lines: unknown }
      ? { [P in N]: TArray<R> }
      : never;

type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void
  ? I
  : never;
type Flat<T> = { [P in keyof T]: T[P] };

/** The TypeBox properties of a declaration's keys; `R` is the record schema of its lines. */
export type DeclaredProperties<
  K extends readonly KeyDeclaration[],
  R extends TObject = TObject,
> = Flat<Intersection<PropertiesOf<K[number], R>>>;

/**
 * The type of a key's wire kind, with the key's description when it has one (placed as TypeBox
 * places a description given among a type's options: before `type`).
 */
function typeOf(k: { wire: WireKind; description?: string }): TSchema {
  const schema: TSchema = WIRE[k.wire];
  if (k.description === undefined) return schema;
  const { type, ...options } = schema;
  return { ...options, description: k.description, type } as TSchema;
}

/**
 * A declared record type's fixed keys, as TypeBox properties in wire order; `lineRecord` is the
 * record schema of its lines, for a type with a key listing them (one schema, which the OpenAPI
 * document names once).
 */
export function declaredProperties<
  K extends readonly KeyDeclaration[],
  R extends TObject = TObject,
>(declaration: RecordTypeDeclaration<K>, lineRecord?: R): DeclaredProperties<K, R> {
  const properties: Record<string, unknown> = {};
  for (const k of declaration.keys) {
    if ('group' in k) Object.assign(properties, GROUPS[k.group]);
    else if ('lines' in k) {
      if (lineRecord === undefined) throw new Error(`${k.key}: the schema of its lines is needed`);
      properties[k.key] = Type.Array(lineRecord);
    } else properties[k.key] = typeOf(k);
  }
  return properties as DeclaredProperties<K, R>;
}

/** The TypeBox properties of the keys the single record's read adds. */
export type SingleRecordProperties<S extends readonly SingleRecordKey[]> = Flat<
  Intersection<PropertiesOf<S[number], TObject>>
>;

/**
 * The single record's keys (`GET /v2/deal/{dealId}`): the fixed keys, then the ones its read
 * adds, as TypeBox properties in wire order.
 */
export function singleRecordProperties<
  K extends readonly KeyDeclaration[],
  S extends readonly SingleRecordKey[],
>(declaration: RecordTypeDeclaration<K, S>): DeclaredProperties<K> & SingleRecordProperties<S> {
  const properties: Record<string, unknown> = { ...declaredProperties(declaration) };
  for (const k of declaration.singleRecordKeys ?? []) properties[k.key] = typeOf(k);
  return properties as DeclaredProperties<K> & SingleRecordProperties<S>;
}

/**
 * A declared record type's fixed keys as TypeBox properties, in its wire order
 * (docs/architecture.md, Record types): each wire kind of `src/domain/record-types/` is one type
 * here, each shared group the properties of `field-groups.ts`. The static type follows the
 * declaration's literal keys, so the client's record types stay exact.
 */
import { type TSchema, Type } from '@sinclair/typebox';
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

/** The properties one key declaration adds. */
type PropertiesOf<K> = K extends { group: infer G extends KeyGroup }
  ? Groups[G]
  : K extends { key: infer N extends string; wire: infer W extends WireKind }
    ? { [P in N]: Wire[W] }
    : never;

type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void
  ? I
  : never;
type Flat<T> = { [P in keyof T]: T[P] };

/** The TypeBox properties of a declaration's keys. */
export type DeclaredProperties<K extends readonly KeyDeclaration[]> = Flat<
  Intersection<PropertiesOf<K[number]>>
>;

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

/** A declared record type's fixed keys, as TypeBox properties in wire order. */
export function declaredProperties<K extends readonly KeyDeclaration[]>(
  declaration: RecordTypeDeclaration<K>,
): DeclaredProperties<K> {
  const properties: Record<string, unknown> = {};
  for (const k of declaration.keys) {
    if ('group' in k) Object.assign(properties, GROUPS[k.group]);
    else properties[k.key] = typeOf(k);
  }
  return properties as DeclaredProperties<K>;
}

/** The TypeBox properties of the keys the single record's read adds. */
export type SingleRecordProperties<S extends readonly SingleRecordKey[]> = Flat<
  Intersection<PropertiesOf<S[number]>>
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

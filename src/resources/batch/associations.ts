/**
 * `POST /v3/association/list`: the record types a record type can be associated with, and
 * what links them, read off the data model: the primary links (`peopleId` and
 * `organizationId` of people, deals and leads), then the reference fields of the type
 * itself (built-in such as a deal's `참여자`, and custom ones), then the custom reference
 * fields of other types that point at it. Custom objects are one type here (the records of
 * every definition): their `customObject` and `multiCustomObject` fields link them to the
 * others and to each other.
 */
import {
  ASSOCIATION_TYPES,
  type AssociationRecord,
  type AssociationType,
  type BatchObjectType,
} from '../../api-schema/bodies/batch.ts';
import { type CustomFieldDefinition, refTargetOf } from '../../domain/custom-fields.ts';
import { BUILT_IN_FIELDS } from '../../domain/field-catalogue.ts';

/** A link held by a record type: the linked type and the key that holds its id. */
interface PrimaryLink {
  fieldOn: BatchObjectType;
  name: BatchObjectType;
  fieldName: 'peopleId' | 'organizationId';
}

/** The links the records hold themselves: a person's organization, a deal's or lead's person and organization. */
const PRIMARY_LINKS: readonly PrimaryLink[] = [
  { fieldOn: 'people', name: 'organization', fieldName: 'organizationId' },
  { fieldOn: 'deal', name: 'people', fieldName: 'peopleId' },
  { fieldOn: 'deal', name: 'organization', fieldName: 'organizationId' },
  { fieldOn: 'lead', name: 'people', fieldName: 'peopleId' },
  { fieldOn: 'lead', name: 'organization', fieldName: 'organizationId' },
];

/** A reference field's target among the association types, if it has one. */
function batchTarget(type: string): { name: AssociationType; multi: boolean } | undefined {
  const ref = refTargetOf(type as CustomFieldDefinition['type']);
  if (!ref || !(ASSOCIATION_TYPES as readonly string[]).includes(ref.target)) return undefined;
  return { name: ref.target as AssociationType, multi: ref.multi };
}

/**
 * The associations of `type`. `custom` holds the workspace's custom fields of each
 * association type, in definition order (a custom object's: every definition's).
 */
export function associationsOf(
  type: AssociationType,
  custom: ReadonlyMap<AssociationType, readonly CustomFieldDefinition[]>,
): AssociationRecord[] {
  const out: AssociationRecord[] = [];
  for (const link of PRIMARY_LINKS) {
    if (link.fieldOn === type) {
      out.push({
        name: link.name,
        fieldName: link.fieldName,
        fieldOn: type,
        multiple: false,
        writeWith: 'association',
      });
    } else if (link.name === type) {
      out.push({
        name: link.fieldOn,
        fieldName: link.fieldName,
        fieldOn: link.fieldOn,
        multiple: true,
        writeWith: null,
      });
    }
  }
  const ownFields = [
    ...BUILT_IN_FIELDS[type].filter((f) => f.access === 'fieldList'),
    ...(custom.get(type) ?? []),
  ];
  for (const field of ownFields) {
    const target = batchTarget(field.type);
    if (!target) continue;
    out.push({
      name: target.name,
      fieldName: field.name,
      fieldOn: type,
      multiple: target.multi,
      // The batch writes do not take custom objects: their own v2 write's `fieldList` does.
      writeWith: type === 'customObject' ? 'fieldList' : 'data',
    });
  }
  for (const other of ASSOCIATION_TYPES) {
    // A field of the type's own is listed once, above.
    if (other === type) continue;
    for (const field of custom.get(other) ?? []) {
      if (batchTarget(field.type)?.name !== type) continue;
      // A record can be named by the field on any number of records of `other`.
      out.push({
        name: other,
        fieldName: field.name,
        fieldOn: other,
        multiple: true,
        writeWith: null,
      });
    }
  }
  return out;
}

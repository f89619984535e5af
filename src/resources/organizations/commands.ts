import type {
  CreateOrganizationBody,
  UpdateOrganizationBody,
} from '../../api-schema/bodies/organizations.ts';
import { uniqueKey } from '../../domain/field-values.ts';
import { fieldListColumns } from '../../domain/record-types/declaration.ts';
import { ORGANIZATION } from '../../domain/record-types/organizations.ts';
import type { Written } from '../../domain/records.ts';
import type { WorkspaceWrite } from '../../store/write.ts';
import {
  addMemo,
  afterCreate,
  ChangeSet,
  fieldsOnCreate,
  markReferrers,
  pathRecord,
  refuseDuplicate,
  updateRow,
} from '../commands.ts';
import { checkRequired, resolveFieldList } from '../fields/field-list.ts';
import { recordFieldEdits } from '../record-history/writes.ts';
import { insertOrganizations } from './writes.ts';

/** Columns of the organization fields that `fieldList` writes. */
const COLUMNS = fieldListColumns(ORGANIZATION);

/** `POST /v2/organization`: a new organization, its name unique in the workspace. */
export async function createOrganization(
  w: WorkspaceWrite,
  actorId: string,
  body: CreateOrganizationBody,
): Promise<Written> {
  await refuseDuplicateName(w, body.name, undefined);
  const fields = await fieldsOnCreate(w, 'organization', body.fieldList, actorId);
  const [id] = await insertOrganizations(w, [
    {
      name: body.name,
      ownerId: fields.ownerId,
      custom: fields.custom,
      columns: fields.columns(COLUMNS),
    },
  ]);
  await afterCreate(w, 'organization', id!, body.memo, actorId);
  return { id: id!, name: body.name, createdAt: w.now };
}

/** `POST /v2/organization/{organizationId}`: each changed field an `editField` history row. */
export async function updateOrganization(
  w: WorkspaceWrite,
  actorId: string,
  organizationId: string,
  body: UpdateOrganizationBody,
): Promise<Written> {
  const row = await pathRecord(w, 'organization', organizationId);
  const fields = await resolveFieldList(w, 'organization', body.fieldList, organizationId);
  checkRequired(fields, JSON.parse(String(row.custom)));
  const changes = new ChangeSet(row);
  if (body.name !== undefined) changes.field('이름', 'name', body.name);
  changes.fixedFields(fields.fixed, COLUMNS).customValues(fields.definitions, fields.custom);
  if (changes.sets('name')) {
    await refuseDuplicateName(w, body.name!, organizationId);
    changes.columns.name_key = uniqueKey(body.name!);
  }
  await updateRow(w, 'organizations', organizationId, changes.update(w.now));
  if (changes.sets('name')) await markReferrers(w, 'organization', organizationId);
  await recordFieldEdits(w, 'organization', organizationId, changes.changes, actorId);
  await addMemo(w, 'organization', organizationId, body.memo, actorId);
  w.touched.mark('organization', organizationId);
  return { id: organizationId, name: body.name ?? String(row.name), updatedAt: w.now };
}

/** An organization's name is unique in the workspace (`uniqueKey`): a 400 carrying the holder. */
function refuseDuplicateName(w: WorkspaceWrite, name: string, exceptId: string | undefined) {
  return refuseDuplicate(w, {
    table: 'organizations',
    keyColumn: 'name_key',
    value: name,
    exceptId,
    message: `이미 존재하는 이름입니다: '${name}'`,
  });
}

import type { CreatePersonBody, UpdatePersonBody } from '../../api-schema/bodies/people.ts';
import { uniqueKey } from '../../domain/field-values.ts';
import { fieldListColumns } from '../../domain/record-types/declaration.ts';
import { PEOPLE } from '../../domain/record-types/people.ts';
import type { Written } from '../../domain/records.ts';
import type { WorkspaceWrite } from '../../store/write.ts';
import {
  addMemo,
  afterCreate,
  ChangeSet,
  checkReferenced,
  fieldsOnCreate,
  markReferrers,
  pathRecord,
  refuseDuplicate,
  updateRow,
} from '../commands.ts';
import { checkRequired, resolveFieldList } from '../fields/field-list.ts';
import { recordPeopleHistory } from '../people-history/writes.ts';
import { insertPeople, setPersonOrganization } from './writes.ts';

/** Columns of the people fields that `fieldList` writes. */
const COLUMNS = fieldListColumns(PEOPLE);

/**
 * `POST /v2/people`: a new person owned by the acting user unless `담당자` says otherwise,
 * with its custom values, its note and its `create` activity.
 */
export async function createPerson(
  w: WorkspaceWrite,
  actorId: string,
  body: CreatePersonBody,
): Promise<Written> {
  if (body.organizationId)
    await checkReferenced(w, 'organization', body.organizationId, 'organizationId');
  const fields = await fieldsOnCreate(w, 'people', body.fieldList, actorId);
  const email = fields.value('이메일') as string | null;
  if (email) await refuseDuplicateEmail(w, email, undefined);
  const [id] = await insertPeople(w, [
    {
      name: body.name,
      organizationId: body.organizationId ?? null,
      ownerId: fields.ownerId,
      custom: fields.custom,
      columns: fields.columns(COLUMNS),
    },
  ]);
  await afterCreate(w, 'people', id!, body.memo, actorId);
  return { id: id!, name: body.name, createdAt: w.now };
}

/**
 * `POST /v2/people/{peopleId}`: changes the fields the body names, each changed field an
 * `editField` history row (the organization link an `editOrganizationConnect` row).
 */
export async function updatePerson(
  w: WorkspaceWrite,
  actorId: string,
  personId: string,
  body: UpdatePersonBody,
): Promise<Written> {
  const row = await pathRecord(w, 'people', personId);
  if (body.organizationId)
    await checkReferenced(w, 'organization', body.organizationId, 'organizationId');
  const fields = await resolveFieldList(w, 'people', body.fieldList, personId);
  checkRequired(fields, JSON.parse(String(row.custom)));
  const changes = new ChangeSet(row);
  if (body.name !== undefined) changes.field('이름', 'name', body.name);
  changes.fixedFields(fields.fixed, COLUMNS).customValues(fields.definitions, fields.custom);
  if (changes.sets('email')) {
    const email = changes.columns.email as string | null;
    if (email) await refuseDuplicateEmail(w, email, personId);
    changes.columns.email_key = email ? uniqueKey(email) : null;
  }
  await updateRow(w, 'people', personId, changes.update(w.now));
  if (changes.sets('name')) await markReferrers(w, 'people', personId);
  await recordPeopleHistory(
    w,
    changes.changes.map((c) => ({
      peopleId: personId,
      type: 'editField' as const,
      fieldName: c.fieldName,
      fieldValue: c.text,
      ownerId: actorId,
    })),
  );
  if (body.organizationId !== undefined) {
    await setPersonOrganization(w, personId, body.organizationId, actorId);
  }
  await addMemo(w, 'people', personId, body.memo, actorId);
  w.touched.mark('people', personId);
  return { id: personId, name: body.name ?? String(row.name), updatedAt: w.now };
}

/** A person's e-mail is unique in the workspace (`uniqueKey`): a 400 carrying the holder. */
function refuseDuplicateEmail(w: WorkspaceWrite, email: string, exceptId: string | undefined) {
  return refuseDuplicate(w, {
    table: 'people',
    keyColumn: 'email_key',
    value: email,
    exceptId,
    message: `이미 존재하는 이메일입니다: '${email}'`,
  });
}

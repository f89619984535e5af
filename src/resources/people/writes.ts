import { uniqueKey } from '../../domain/field-values.ts';
import { insertRecords, type WorkspaceWrite } from '../../store/write.ts';
import { type OwnedInput, ownedColumns, SOURCE_API } from '../owned.ts';
import { recordPeopleHistory } from '../people-history/writes.ts';

/** A person to add. */
export interface NewPerson extends OwnedInput {
  name: string;
  organizationId?: string | null;
  email?: string | null;
  phone?: string | null;
  jobTitle?: string | null;
  profileImage?: string | null;
  linkedin?: string | null;
  unsubscribed?: boolean;
  unsubscribeReason?: string | null;
  source?: string;
  /**
   * Column values of the fields a create's `fieldList` gave (`CreateFields.columns`), over the
   * ones above.
   */
  columns?: Record<string, unknown>;
}

/**
 * Adds people. Returns ids in order. Their organizations are not rendered again: nothing of
 * an organization's JSON comes from a person but the sequences its people are enrolled in,
 * which a new person is not yet (an enrollment marks the organization itself).
 */
export async function insertPeople(w: WorkspaceWrite, people: NewPerson[]): Promise<string[]> {
  const rows = [];
  for (const p of people) {
    const row = Object.assign(
      await ownedColumns(w, p),
      {
        organization_id: p.organizationId ?? null,
        name: p.name,
        email: p.email ?? null,
        phone: p.phone ?? null,
        job_title: p.jobTitle ?? null,
        profile_image: p.profileImage ?? null,
        linkedin: p.linkedin ?? null,
        unsubscribed: p.unsubscribed ? 1 : 0,
        unsubscribe_reason: p.unsubscribeReason ?? null,
        source: p.source ?? SOURCE_API,
      },
      p.columns,
    );
    row.unsubscribed = row.unsubscribed === 1 ? 1 : 0;
    rows.push(Object.assign(row, { email_key: row.email ? uniqueKey(row.email) : null }));
  }
  await insertRecords(w, 'people', rows);
  return rows.map((r) => r.id);
}

/**
 * Links a person to an organization (or unlinks with null): an `editOrganizationConnect`
 * history row, and the person re-rendered; the old and the new organization too when the
 * person is enrolled in a sequence (an organization shows its people's sequences, and
 * nothing else of them).
 */
export async function setPersonOrganization(
  w: WorkspaceWrite,
  personId: string,
  organizationId: string | null,
  actorId: string | null,
): Promise<void> {
  const before = await w.trx
    .selectFrom('people')
    .select('organization_id')
    .where('workspace_id', '=', w.workspaceId)
    .where('id', '=', personId)
    .executeTakeFirstOrThrow();
  if (before.organization_id === organizationId) return;
  await w.trx
    .updateTable('people')
    .set({ organization_id: organizationId, updated_at: w.now })
    .where('workspace_id', '=', w.workspaceId)
    .where('id', '=', personId)
    .execute();
  await recordPeopleHistory(w, [
    {
      peopleId: personId,
      type: 'editOrganizationConnect',
      organizationId,
      fieldName: 'organizationId',
      fieldValue: organizationId,
      ownerId: actorId,
    },
  ]);
  w.touched.mark('people', personId);
  const enrolled = await w.trx
    .selectFrom('sequence_enrollments')
    .select('id')
    .where('workspace_id', '=', w.workspaceId)
    .where('subject_type', '=', 'people')
    .where('subject_id', '=', personId)
    .limit(1)
    .executeTakeFirst();
  if (enrolled) {
    w.touched.mark('organization', before.organization_id).mark('organization', organizationId);
  }
}

import { uniqueKey } from '../../domain/field-values.ts';
import { insertRecords, type WorkspaceWrite } from '../../store/write.ts';
import { type OwnedInput, ownedColumns, SOURCE_API } from '../owned.ts';

/** An organization to add. */
export interface NewOrganization extends OwnedInput {
  name: string;
  email?: string | null;
  phone?: string | null;
  profileImage?: string | null;
  linkedin?: string | null;
  source?: string;
  /**
   * Column values of the fields a create's `fieldList` gave (`CreateFields.columns`), over the
   * ones above.
   */
  columns?: Record<string, unknown>;
}

/** Adds organizations; returns their ids in order. */
export async function insertOrganizations(
  w: WorkspaceWrite,
  orgs: NewOrganization[],
): Promise<string[]> {
  const rows = [];
  for (const o of orgs) {
    rows.push(
      Object.assign(
        await ownedColumns(w, o),
        {
          name: o.name,
          email: o.email ?? null,
          phone: o.phone ?? null,
          profile_image: o.profileImage ?? null,
          linkedin: o.linkedin ?? null,
          source: o.source ?? SOURCE_API,
        },
        o.columns,
        { name_key: uniqueKey(o.name) },
      ),
    );
  }
  await insertRecords(w, 'organization', rows);
  return rows.map((r) => r.id);
}

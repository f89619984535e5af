import type { MergeBody } from '../../api-schema/bodies/merges.ts';
import type { Written } from '../../domain/records.ts';
import type { WorkspaceWrite } from '../../store/write.ts';
import { updateRow } from '../commands.ts';
import { customFieldsOf } from '../fields/field-list.ts';
import { recordFieldEdits } from '../record-history/writes.ts';
import { moveAttached, moveLinks } from './attached.ts';
import { repointCustomRefs } from './custom-refs.ts';
import { fillEmpty } from './fill.ts';
import { mergeEntry, mergePair, pairAgain, removeMerged } from './pair.ts';

/** The organization fields a kept organization takes from the merged one when its own is empty. */
const COLUMNS: Record<string, string> = {
  이메일: 'email',
  전화: 'phone',
  '프로필 사진': 'profile_image',
  링크드인: 'linkedin',
  담당자: 'owner_id',
};

/**
 * `POST /v2/organization/{organizationId}/merge` (docs/decisions.md, Merges): the organization
 * `mergedId` is merged into the path's organization and deleted. Its people, deals, leads,
 * notes, todos, activities, history, web-form submissions and the custom Ref values naming
 * it move to the kept organization, whose empty fields take its values. The kept
 * organization's history gets an `editField` of `병합` valued the merged id, then one entry
 * per field taken. Its name stays, so its unique key does too.
 */
export async function mergeOrganization(
  w: WorkspaceWrite,
  actorId: string,
  keptId: string,
  body: MergeBody,
): Promise<Written> {
  const mergedId = body.mergedId;
  await mergePair(w, 'organization', keptId, mergedId);
  await moveAttached(w, 'organization', mergedId, keptId);
  await moveLinks(w, 'people', 'organization_id', mergedId, keptId);
  await moveLinks(w, 'deals', 'organization_id', mergedId, keptId);
  await moveLinks(w, 'leads', 'organization_id', mergedId, keptId);
  await repointCustomRefs(w, 'organization', mergedId, keptId);
  const { kept, merged } = await pairAgain(w, 'organization', keptId, mergedId);
  await removeMerged(w, 'organization', keptId, mergedId);
  const definitions = await customFieldsOf(w.trx, w.workspaceId, 'organization');
  const changes = fillEmpty(kept, merged, COLUMNS, definitions);
  await updateRow(w, 'organizations', keptId, { ...changes.update(w.now), updated_at: w.now });
  await recordFieldEdits(
    w,
    'organization',
    keptId,
    [mergeEntry(mergedId), ...changes.changes],
    actorId,
  );
  w.touched.mark('organization', keptId);
  return { id: keptId, name: String(kept.name), updatedAt: w.now };
}

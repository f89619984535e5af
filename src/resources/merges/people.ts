import { sql } from 'kysely';
import type { MergeBody } from '../../api-schema/bodies/merges.ts';
import { uniqueKey } from '../../domain/field-values.ts';
import type { Written } from '../../domain/records.ts';
import type { WorkspaceWrite } from '../../store/write.ts';
import { idPattern, updateRow } from '../commands.ts';
import { customFieldsOf } from '../fields/field-list.ts';
import { setPersonOrganization } from '../people/writes.ts';
import { recordPeopleHistory } from '../people-history/writes.ts';
import { moveAttached, moveLinks } from './attached.ts';
import { repointCustomRefs } from './custom-refs.ts';
import { fillEmpty } from './fill.ts';
import { mergeEntry, mergePair, pairAgain, removeMerged } from './pair.ts';

/** The people fields a kept person takes from the merged one when its own is empty. */
const COLUMNS: Record<string, string> = {
  이메일: 'email',
  전화: 'phone',
  포지션: 'job_title',
  '프로필 사진': 'profile_image',
  링크드인: 'linkedin',
  '수신 거부 사유': 'unsubscribe_reason',
  담당자: 'owner_id',
};

/**
 * `POST /v2/people/{peopleId}/merge` (docs/decisions.md, Merges): the person `mergedId` is merged
 * into the path's person and deleted. Its notes, todos, activities, history, enrollments, web-form
 * submissions, deals and leads, the deals it takes part in and the custom Ref values naming it move
 * to the kept person; the kept person's empty fields take its values (its e-mail with its unique
 * key, its organization as an `editOrganizationConnect`), and `수신 거부 여부` is true when either person
 * opted out. The kept person's history gets an `editField` of `병합` valued the merged id, then one
 * entry per field taken.
 */
export async function mergePeople(
  w: WorkspaceWrite,
  actorId: string,
  keptId: string,
  body: MergeBody,
): Promise<Written> {
  const mergedId = body.mergedId;
  await mergePair(w, 'people', keptId, mergedId);
  await moveAttached(w, 'people', mergedId, keptId);
  await moveLinks(w, 'deals', 'people_id', mergedId, keptId);
  await moveLinks(w, 'leads', 'people_id', mergedId, keptId);
  await moveParticipants(w, mergedId, keptId);
  await repointCustomRefs(w, 'people', mergedId, keptId);
  const { kept, merged } = await pairAgain(w, 'people', keptId, mergedId);
  await removeMerged(w, 'people', keptId, mergedId);
  const definitions = await customFieldsOf(w.trx, w.workspaceId, 'people');
  const changes = fillEmpty(kept, merged, COLUMNS, definitions);
  // An opt-out is kept: the two records are one person, who asked not to be contacted.
  if (kept.unsubscribed !== 1 && merged.unsubscribed === 1) {
    changes.field('수신 거부 여부', 'unsubscribed', 1, 'true');
  }
  if (changes.sets('email')) changes.columns.email_key = uniqueKey(String(merged.email));
  await updateRow(w, 'people', keptId, { ...changes.update(w.now), updated_at: w.now });
  await recordPeopleHistory(
    w,
    [mergeEntry(mergedId), ...changes.changes].map((c) => ({
      peopleId: keptId,
      type: 'editField' as const,
      fieldName: c.fieldName,
      fieldValue: c.text,
      ownerId: actorId,
    })),
  );
  const organizationId = kept.organization_id as string | null;
  const mergedOrganizationId = merged.organization_id as string | null;
  if (!organizationId && mergedOrganizationId) {
    await setPersonOrganization(w, keptId, mergedOrganizationId, actorId);
  }
  w.touched
    .mark('people', keptId)
    .mark('organization', organizationId)
    .mark('organization', mergedOrganizationId);
  return { id: keptId, name: String(kept.name), updatedAt: w.now };
}

/**
 * Deals whose `참여자` name the merged person name the kept one instead (once, where both
 * took part); the deals are rendered again.
 */
async function moveParticipants(w: WorkspaceWrite, mergedId: string, keptId: string) {
  const deals = await w.trx
    .selectFrom('deals')
    .select(['id', 'participant_ids'])
    .where('workspace_id', '=', w.workspaceId)
    .where(sql<boolean>`participant_ids like ${idPattern(mergedId)} escape '\\'`)
    .execute();
  for (const deal of deals) {
    const ids = JSON.parse(deal.participant_ids) as string[];
    if (!ids.includes(mergedId)) continue;
    const moved = [...new Set(ids.map((id) => (id === mergedId ? keptId : id)))];
    await w.trx
      .updateTable('deals')
      .set({ participant_ids: JSON.stringify(moved) })
      .where('workspace_id', '=', w.workspaceId)
      .where('id', '=', deal.id)
      .execute();
    w.touched.mark('deal', deal.id);
  }
}

import type { MergeBody } from '../../api-schema/bodies/merges.ts';
import type { Written } from '../../domain/records.ts';
import type { WorkspaceWrite } from '../../store/write.ts';
import { mergePipelineRecord } from './pipeline-records.ts';

/** The deal fields a kept deal takes from the merged one when its own is empty. */
const COLUMNS: Record<string, string> = {
  금액: 'amount',
  '수주 예정일': 'expected_close_at',
  담당자: 'owner_id',
  팔로워: 'follower_ids',
  참여자: 'participant_ids',
};

/**
 * `POST /v2/deal/{dealId}/merge` (docs/decisions.md, Merges): the deal `mergedId` is merged into
 * the path's deal and deleted. The kept deal's outcome, `상태` and `마감일` stay its own.
 */
export function mergeDeal(
  w: WorkspaceWrite,
  actorId: string,
  dealId: string,
  body: MergeBody,
): Promise<Written> {
  return mergePipelineRecord(w, 'deal', actorId, dealId, body.mergedId, COLUMNS);
}

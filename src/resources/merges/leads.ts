import type { MergeBody } from '../../api-schema/bodies/merges.ts';
import type { Written } from '../../domain/records.ts';
import type { WorkspaceWrite } from '../../store/write.ts';
import { mergePipelineRecord } from './pipeline-records.ts';

/** The lead fields a kept lead takes from the merged one when its own is empty. */
const COLUMNS: Record<string, string> = {
  금액: 'amount',
  '수주 예정일': 'expected_close_at',
  담당자: 'owner_id',
};

/**
 * `POST /v2/lead/{leadId}/merge` (docs/decisions.md, Merges): the lead `mergedId` is merged into
 * the path's lead and deleted. The kept lead's `상태` stays its own (`New` when it has none).
 */
export function mergeLead(
  w: WorkspaceWrite,
  actorId: string,
  leadId: string,
  body: MergeBody,
): Promise<Written> {
  return mergePipelineRecord(w, 'lead', actorId, leadId, body.mergedId, COLUMNS);
}

import type { StoredCustomValues } from '../domain/custom-fields.ts';
import { newId } from '../domain/ids.ts';
import type { WorkspaceWrite } from '../store/write.ts';
import { teamsOfUser } from './workspaces/writes.ts';

/** Fields every owned record (people, organization, deal, lead, product, quote) takes. */
export interface OwnedInput {
  id?: string;
  ownerId?: string | null;
  /** Defaults to the owner's teams. */
  teamIds?: string[];
  /** Custom values by field id (Ref fields hold ids). */
  custom?: StoredCustomValues;
  createdAt?: string;
  updatedAt?: string;
}

const teamCache = new WeakMap<WorkspaceWrite, Map<string, string[]>>();

async function defaultTeams(w: WorkspaceWrite, ownerId: string | null): Promise<string[]> {
  if (!ownerId) return [];
  if (w.catalog) return [...((await w.catalog()).teamsOfUser.get(ownerId) ?? [])];
  let cache = teamCache.get(w);
  if (!cache) {
    cache = new Map();
    teamCache.set(w, cache);
  }
  let teams = cache.get(ownerId);
  if (!teams) {
    teams = await teamsOfUser(w.trx, w.workspaceId, ownerId);
    cache.set(ownerId, teams);
  }
  return teams;
}

/** The owned columns of a new row, with defaults: a new id, the owner's teams, now. */
export async function ownedColumns(w: WorkspaceWrite, input: OwnedInput) {
  const ownerId = input.ownerId ?? null;
  const createdAt = input.createdAt ?? w.now;
  return {
    workspace_id: w.workspaceId,
    id: input.id ?? newId(),
    owner_id: ownerId,
    team_ids: JSON.stringify(input.teamIds ?? (await defaultTeams(w, ownerId))),
    custom: JSON.stringify(input.custom ?? {}),
    created_at: createdAt,
    updated_at: input.updatedAt ?? createdAt,
    body: null,
  };
}

/** `소스` of records created through the API. */
export const SOURCE_API = '직접 생성';
/** `소스` of imported records. */
export const SOURCE_IMPORT = '데이터 업로드';

import type { Ref } from '../domain/records.ts';

/** A team row as the team list reads it. */
export interface TeamRow {
  id: string;
  name: string;
  description: string | null;
  created_at: string;
}

/** A team of `GET /v2/team`, its members as user Refs in member order. */
export function renderTeam(row: TeamRow, teammates: readonly Ref[]): Record<string, unknown> {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    teammateList: teammates.map((t) => ({ id: t.id, name: t.name })),
  };
}

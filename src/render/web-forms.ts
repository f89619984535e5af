import type { Selectable } from 'kysely';
import type { WebFormSubmissionTable, WebFormTable } from '../model/tables.ts';

/** A web form row as the list reads it. */
export type WebFormRow = Omit<Selectable<WebFormTable>, 'workspace_id'>;

/** A submission row as the list reads it. */
export type SubmissionRow = Omit<
  Selectable<WebFormSubmissionTable>,
  'workspace_id' | 'web_form_id'
>;

/** A web form of `GET /v2/webForm`, with the number of its submissions. */
export function renderWebForm(row: WebFormRow, submitCount: number): Record<string, unknown> {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    status: row.status,
    viewCount: row.view_count,
    submitCount,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** A submission of `GET /v2/webForm/{webFormId}/submit`: its links, answers and time. */
export function renderSubmission(row: SubmissionRow): Record<string, unknown> {
  const contents = JSON.parse(row.contents) as { label: string; value: unknown }[];
  return {
    peopleId: row.people_id,
    organizationId: row.organization_id,
    dealId: row.deal_id,
    leadId: row.lead_id,
    contents: contents.map((c) => ({ label: c.label, value: c.value ?? null })),
    createdAt: row.created_at,
  };
}

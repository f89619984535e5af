import { newId } from '../../domain/ids.ts';
import { insertMany } from '../../store/insert.ts';
import type { WorkspaceWrite } from '../../store/write.ts';

/** A web form. */
export interface NewWebForm {
  id?: string;
  name: string;
  description?: string | null;
  status?: string;
  viewCount?: number;
  createdAt?: string;
}

/** Adds web forms; returns their ids. */
export async function insertWebForms(w: WorkspaceWrite, forms: NewWebForm[]): Promise<string[]> {
  const rows = forms.map((f) => ({
    workspace_id: w.workspaceId,
    id: f.id ?? newId(),
    name: f.name,
    description: f.description ?? null,
    status: f.status ?? 'active',
    view_count: f.viewCount ?? 0,
    created_at: f.createdAt ?? w.now,
    updated_at: f.createdAt ?? w.now,
  }));
  await insertMany(w.trx, 'web_forms', rows);
  return rows.map((r) => r.id);
}

/** A submission of a web form, linked to the records it created or matched. */
export interface NewSubmission {
  id?: string;
  webFormId: string;
  peopleId?: string | null;
  organizationId?: string | null;
  dealId?: string | null;
  leadId?: string | null;
  contents: { label: string; value: string }[];
  createdAt?: string;
}

/** Adds submissions; every linked record's WEBFORM fields follow. */
export async function insertSubmissions(
  w: WorkspaceWrite,
  submissions: NewSubmission[],
): Promise<string[]> {
  const rows = submissions.map((s) => ({
    workspace_id: w.workspaceId,
    id: s.id ?? newId(),
    web_form_id: s.webFormId,
    people_id: s.peopleId ?? null,
    organization_id: s.organizationId ?? null,
    deal_id: s.dealId ?? null,
    lead_id: s.leadId ?? null,
    contents: JSON.stringify(s.contents),
    created_at: s.createdAt ?? w.now,
  }));
  await insertMany(w.trx, 'web_form_submissions', rows);
  for (const r of rows) {
    w.touched
      .mark('people', r.people_id)
      .mark('organization', r.organization_id)
      .mark('deal', r.deal_id)
      .mark('lead', r.lead_id);
  }
  return rows.map((r) => r.id);
}

import type { SubmissionRow, WebFormRow } from '../../render/web-forms.ts';
import type { Store } from '../../store/database.ts';
import { keysetRows } from '../../store/keyset-rows.ts';
import { prepareQuery } from '../../store/prepared.ts';

/** Keyset pages of a workspace's web forms, oldest first. */
export function webFormPages(store: Store) {
  return keysetRows<WebFormRow>(store, 'web_forms', [
    'id',
    'name',
    'description',
    'status',
    'view_count',
    'created_at',
    'updated_at',
  ]);
}

/** Keyset pages of one web form's submissions, oldest first (one range of the form index). */
export function submissionPages(store: Store) {
  return keysetRows<SubmissionRow, 'form'>(
    store,
    'web_form_submissions',
    ['id', 'people_id', 'organization_id', 'deal_id', 'lead_id', 'contents', 'created_at'],
    (qb, param) => qb.where('web_form_id', '=', param('form')),
  );
}

/** Submission counts of the given forms (absent: none), counted on the form index. */
export async function submitCounts(
  store: Store,
  workspaceId: string,
  formIds: readonly string[],
): Promise<Map<string, number>> {
  if (formIds.length === 0) return new Map();
  const rows = await store.reader
    .selectFrom('web_form_submissions')
    .select((eb) => ['web_form_id', eb.fn.countAll<number>().as('n')])
    .where('workspace_id', '=', workspaceId)
    .where('web_form_id', 'in', formIds)
    .groupBy('web_form_id')
    .execute();
  return new Map(rows.map((r) => [r.web_form_id, Number(r.n)]));
}

/** Whether the workspace has a web form with this id. */
export function webFormExists(store: Store) {
  const query = prepareQuery<'ws' | 'id'>((p) =>
    store.reader
      .selectFrom('web_forms')
      .select('id')
      .where('workspace_id', '=', p('ws'))
      .where('id', '=', p('id')),
  );
  return async (workspaceId: string, id: string): Promise<boolean> =>
    (await store.rows(query({ ws: workspaceId, id }))).length > 0;
}

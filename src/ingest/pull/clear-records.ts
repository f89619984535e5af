/**
 * Empties a workspace of its records, in the caller's transaction, before a pull imports the
 * source's again: the same commit takes out the old records and puts in the new, so a reader
 * sees the copy before or after, never between. Kept: the workspace itself, its tokens, its
 * webhooks and their deliveries, and its event feed (the import adds its events to it).
 */
import type { Executor } from '../../store/database.ts';

/** The tables of a workspace's records, those that refer to others first. */
export const RECORD_TABLES = [
  'search_values',
  'history',
  'activities',
  'recordings',
  'sequence_timeline',
  'sequence_steps',
  'sequence_enrollments',
  'sequences',
  'web_form_submissions',
  'web_forms',
  'todos',
  'notes',
  'emails',
  'file_chunks',
  'files',
  'custom_objects',
  'quote_products',
  'quotes',
  'leads',
  'deals',
  'people',
  'organizations',
  'products',
  'custom_fields',
  'custom_object_definitions',
  'pipeline_stages',
  'pipelines',
  'team_members',
  'teams',
  'users',
] as const;

/** Deletes every record of the workspace (not its tokens, webhooks or events). */
export async function clearRecords(trx: Executor, workspaceId: string): Promise<void> {
  for (const table of RECORD_TABLES) {
    await trx.deleteFrom(table).where('workspace_id', '=', workspaceId).execute();
  }
}

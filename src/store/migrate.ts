import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { Database } from '../model/tables.ts';
import { initialSchema } from './migrations/001-initial.ts';
import { activitySubjectBodies } from './migrations/002-activity-subject-bodies.ts';
import { workspaceReads } from './migrations/003-workspace-reads.ts';
import { uniqueKeys } from './migrations/004-unique-keys.ts';
import { importedUniqueKeys } from './migrations/005-imported-unique-keys.ts';
import { eventsAndWebhooks } from './migrations/006-events-webhooks.ts';
import { pendingDeliveries } from './migrations/007-pending-deliveries.ts';
import { catalogVersion } from './migrations/008-catalog-version.ts';
import { searchIndexes } from './migrations/009-search-indexes.ts';
import { readOnlyTokens } from './migrations/010-read-only-tokens.ts';
import { fieldSettings } from './migrations/011-field-settings.ts';
import { searchIndex } from './migrations/012-search-index.ts';
import { customObjects } from './migrations/013-custom-objects.ts';
import { sequenceSteps } from './migrations/014-sequence-steps.ts';
import { files } from './migrations/015-files.ts';
import { emails } from './migrations/016-emails.ts';
import { todosStages } from './migrations/017-todos-stages.ts';
import { fieldFormulas } from './migrations/018-field-formulas.ts';
import { placedSelectValues } from './migrations/019-placed-select-values.ts';
import { activityEmailIds } from './migrations/020-activity-email-ids.ts';
import { noteThreads } from './migrations/021-note-threads.ts';
import { listFilterIndexes } from './migrations/022-list-filter-indexes.ts';
import { tokenWorkspaces } from './migrations/023-token-workspaces.ts';
import { catalogVersionByWrites } from './migrations/024-catalog-version-by-writes.ts';
import { dueWorkspaces } from './migrations/025-due-workspaces.ts';
import { changeNotifications } from './migrations/026-change-notifications.ts';
import { recordings } from './migrations/027-recordings.ts';
import { dueMarksUnannounced } from './migrations/028-due-marks-unannounced.ts';
import { versionsNotified } from './migrations/029-versions-notified.ts';
import { notifyWithoutJson } from './migrations/030-notify-without-json.ts';
import { webhookStreams } from './migrations/031-webhook-streams.ts';
import { dueDeliveriesNotified } from './migrations/032-due-deliveries-notified.ts';

/** The schema's migrations for `dialect`, by name, in their order. */
export function schemaMigrations(dialect: 'sqlite' | 'postgres'): Record<string, Migration> {
  return {
    '001-initial': initialSchema({ dialect }),
    '002-activity-subject-bodies': activitySubjectBodies({ dialect }),
    '003-workspace-reads': workspaceReads({ dialect }),
    '004-unique-keys': uniqueKeys,
    '005-imported-unique-keys': importedUniqueKeys,
    '006-events-webhooks': eventsAndWebhooks({ dialect }),
    '007-pending-deliveries': pendingDeliveries,
    '008-catalog-version': catalogVersion({ dialect }),
    '009-search-indexes': searchIndexes,
    '010-read-only-tokens': readOnlyTokens,
    '011-field-settings': fieldSettings,
    '012-search-index': searchIndex({ dialect }),
    '013-custom-objects': customObjects({ dialect }),
    '014-sequence-steps': sequenceSteps({ dialect }),
    '015-files': files({ dialect }),
    '016-emails': emails({ dialect }),
    '017-todos-stages': todosStages,
    '018-field-formulas': fieldFormulas,
    '019-placed-select-values': placedSelectValues({ dialect }),
    '020-activity-email-ids': activityEmailIds({ dialect }),
    '021-note-threads': noteThreads({ dialect }),
    '022-list-filter-indexes': listFilterIndexes,
    '023-token-workspaces': tokenWorkspaces({ dialect }),
    '024-catalog-version-by-writes': catalogVersionByWrites({ dialect }),
    '025-due-workspaces': dueWorkspaces({ dialect }),
    '026-change-notifications': changeNotifications({ dialect }),
    '027-recordings': recordings({ dialect }),
    '028-due-marks-unannounced': dueMarksUnannounced({ dialect }),
    '029-versions-notified': versionsNotified({ dialect }),
    '030-notify-without-json': notifyWithoutJson({ dialect }),
    '031-webhook-streams': webhookStreams({ dialect }),
    '032-due-deliveries-notified': dueDeliveriesNotified({ dialect }),
  };
}

/** Runs every migration not yet applied to `db`. */
export async function migrateToLatest(
  db: Kysely<Database>,
  dialect: 'sqlite' | 'postgres',
): Promise<void> {
  const migrations = schemaMigrations(dialect);
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  // Branches merge in any order, so a database may have run a later migration (017) before an
  // earlier one (015) was added: the missing ones then run after it, in their order.
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const what = failed ? `migration ${failed.migrationName}` : 'migrating';
    throw new Error(`${what} failed: ${String(error)}`, {
      cause: error,
    });
  }
}

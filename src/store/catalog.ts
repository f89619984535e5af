import type { CompiledQuery, Selectable } from 'kysely';
import { BudgetCache } from '../cache/budget-cache.ts';
import { heapBytes } from '../cache/heap-size.ts';
import { catalogCacheBytes } from '../config.ts';
import type {
  CustomFieldDefinition,
  CustomFieldRecordType,
  CustomFieldType,
  SelectOption,
} from '../domain/custom-fields.ts';
import { type StageKeys, stageKeysOf } from '../domain/stage-times.ts';
import type { CustomFieldTable } from '../model/tables.ts';
import type { Executor, Store } from './database.ts';
import { dueAtLeast } from './outbox/due-workspaces.ts';
import { prepareQuery } from './prepared.ts';
import { inKysely } from './sql-text.ts';
import { sqliteStatementOf } from './sqlite-executors.ts';

/** What a catalogued name belongs to. */
export type CatalogTarget =
  | 'user'
  | 'team'
  | 'pipeline'
  | 'pipelineStage'
  | 'webForm'
  | 'sequence'
  | 'product';

/**
 * An active webhook, as an event's fan-out reads it and as a write hands its new deliveries
 * to its process's dispatcher (`outbox/handover.ts`): what it wants, and where and how its
 * deliveries are sent.
 */
export interface Subscription {
  id: string;
  objectTypes: ReadonlySet<string>;
  events: ReadonlySet<string>;
  /** Field names whose `수정` fire; undefined for all. */
  fields: ReadonlySet<string> | undefined;
  url: string;
  secret: string;
  /** The secret rotated out, which signs beside the new one until `previousSecretUntil`. */
  previousSecret: string | null;
  previousSecretUntil: string | null;
}

/**
 * A workspace's catalog: the small tables every write reads whole (the names of its users,
 * teams, pipelines, stages, web forms, sequences and products; its custom field
 * definitions; who is in which team; its active webhooks). It is read once and kept while
 * `workspaces.catalog_version` stays the same: a write reads one number instead of ten
 * tables. The writes that change those tables bump it themselves (`bumpCatalogVersion`; a
 * write of the API through `WriteWatch`, in its last statement), in the workspace's own row,
 * so no statement of theirs reaches past their workspace (docs/deploy.md).
 * Immutable: a write that needs more names adds them on its own `Lookups`.
 */
export interface Catalog {
  readonly version: number;
  readonly names: ReadonlyMap<CatalogTarget, ReadonlyMap<string, string>>;
  /** Custom field definitions of each record type, in definition order. */
  readonly fields: ReadonlyMap<CustomFieldRecordType, readonly CustomFieldDefinition[]>;
  /** The teams of each user, by team id. */
  readonly teamsOfUser: ReadonlyMap<string, readonly string[]>;
  /** The workspace's active webhooks. */
  readonly subscriptions: readonly Subscription[];
  /** The stage timing keys of deals and of leads: every stage of every pipeline, in order. */
  readonly stageKeys: ReadonlyMap<'deal' | 'lead', readonly StageKeys[]>;
}

const NAMED_TABLES = [
  ['user', 'users'],
  ['team', 'teams'],
  ['pipeline', 'pipelines'],
  ['pipelineStage', 'pipeline_stages'],
  ['webForm', 'web_forms'],
  ['sequence', 'sequences'],
  ['product', 'products'],
] as const;

/**
 * The tables of the catalog, which `WriteWatch` watches in a write. (A product's body,
 * written apart, is not watched: only its name is catalogued.)
 */
export const CATALOG_TABLES: ReadonlySet<string> = new Set([
  ...NAMED_TABLES.map(([, table]) => table),
  'team_members',
  'custom_fields',
  'webhooks',
]);

/**
 * The columns of a catalog table that the catalog holds, where it holds only some: an update
 * of other columns (a product's price, a webhook's failure streak) leaves the catalog as it was.
 */
export const CATALOG_COLUMNS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['products', new Set(['name'])],
  [
    'webhooks',
    new Set([
      'object_types',
      'events',
      'fields',
      'status',
      'url',
      'secret',
      'previous_secret',
      'previous_secret_until',
    ]),
  ],
]);

/**
 * Marks the workspace's catalog changed (`catalog_version` + 1), in the transaction of the
 * change: every process reads the catalog again at its next write of the workspace. Its
 * webhooks may have changed too, so the dispatchers look at it again (its due mark, now).
 */
export async function bumpCatalogVersion(trx: Executor, workspaceId: string): Promise<void> {
  await trx
    .updateTable('workspaces')
    .set((eb) => ({
      catalog_version: eb('catalog_version', '+', 1),
      deliveries_due_at: inKysely<string>(dueAtLeast(new Date().toISOString())),
    }))
    .where('id', '=', workspaceId)
    .execute();
}

/** A `custom_fields` row as the definition the renderers and checks read. */
export function customFieldOfRow(d: Selectable<CustomFieldTable>): CustomFieldDefinition {
  return {
    id: d.id,
    recordType: d.record_type as CustomFieldRecordType,
    name: d.name,
    type: d.type as CustomFieldType,
    required: d.required === 1,
    options: d.options ? (JSON.parse(d.options) as SelectOption[]) : null,
    preventDuplicates: Number(d.prevent_duplicates) === 1,
    isSensitive: Number(d.is_sensitive) === 1,
    ...(d.custom_object_definition_id
      ? { customObjectDefinitionId: d.custom_object_definition_id }
      : {}),
    ...(d.formula != null ? { formula: d.formula } : {}),
  };
}

/** The named tables read as such; pipelines and their stages are read with their order. */
const PLAIN_NAMED = NAMED_TABLES.filter(
  ([target]) => target !== 'pipeline' && target !== 'pipelineStage',
);

/**
 * The catalog's queries, compiled once: a workspace's first write reads its catalog, and
 * Kysely building and compiling each query anew, with the stage keys reading pipelines and
 * stages a second time, was a third of that write's CPU (docs/benchmarks.md, many
 * workspaces).
 */
function compileCatalogQueries(db: Executor) {
  return {
    names: new Map(
      PLAIN_NAMED.map(([target, table]) => [
        target,
        prepareQuery<'ws'>((p) =>
          db.selectFrom(table).select(['id', 'name']).where('workspace_id', '=', p('ws')),
        ),
      ]),
    ),
    pipelines: prepareQuery<'ws'>((p) =>
      db
        .selectFrom('pipelines')
        .select(['id', 'name', 'kind'])
        .where('workspace_id', '=', p('ws'))
        .orderBy('position')
        .orderBy('id'),
    ),
    stages: prepareQuery<'ws'>((p) =>
      db
        .selectFrom('pipeline_stages')
        .select(['id', 'name', 'pipeline_id'])
        .where('workspace_id', '=', p('ws'))
        .orderBy('position')
        .orderBy('id'),
    ),
    fields: prepareQuery<'ws'>((p) =>
      db
        .selectFrom('custom_fields')
        .selectAll()
        .where('workspace_id', '=', p('ws'))
        .orderBy('record_type')
        .orderBy('position')
        .orderBy('id'),
    ),
    members: prepareQuery<'ws'>((p) =>
      db
        .selectFrom('team_members')
        .select(['user_id', 'team_id'])
        .where('workspace_id', '=', p('ws'))
        .orderBy('user_id')
        .orderBy('team_id'),
    ),
    subscriptions: prepareQuery<'ws'>((p) =>
      db
        .selectFrom('webhooks')
        .select([
          'id',
          'object_types',
          'events',
          'fields',
          'url',
          'secret',
          'previous_secret',
          'previous_secret_until',
        ])
        .where('workspace_id', '=', p('ws'))
        .where('status', '=', 'active')
        .orderBy('id'),
    ),
  };
}
type CatalogQueries = ReturnType<typeof compileCatalogQueries>;

/** The catalog's compiled queries of each dialect (by its adapter's class). */
const compiledQueries = new WeakMap<object, CatalogQueries>();

function catalogQueries(db: Executor): CatalogQueries {
  const dialect = db.getExecutor().adapter.constructor;
  let queries = compiledQueries.get(dialect);
  if (!queries) {
    queries = compileCatalogQueries(db);
    compiledQueries.set(dialect, queries);
  }
  return queries;
}

/** Runs one of the catalog's compiled queries for `workspaceId` on `db`. */
async function rowsOf<R>(
  db: Executor,
  query: (values: { ws: string }) => CompiledQuery<unknown>,
  workspaceId: string,
): Promise<R[]> {
  return (await db.executeQuery(query({ ws: workspaceId }) as CompiledQuery<R>)).rows;
}

interface PipelineRow {
  id: string;
  name: string;
  kind: string;
}
interface StageRow {
  id: string;
  name: string;
  pipeline_id: string;
}

/** A workspace's pipelines, in their order, and its stages, in theirs. */
async function pipelinesAndStages(
  db: Executor,
  workspaceId: string,
): Promise<{ pipelines: PipelineRow[]; stages: StageRow[] }> {
  const queries = catalogQueries(db);
  const pipelines = await rowsOf<PipelineRow>(db, queries.pipelines, workspaceId);
  const stages = await rowsOf<StageRow>(db, queries.stages, workspaceId);
  return { pipelines, stages };
}

/**
 * The stage timing keys of deals and of leads: the pipelines in their order (position, id),
 * each one's stages in theirs (position, id); a stage of no pipeline has none.
 */
function stageKeysFrom(
  pipelines: readonly PipelineRow[],
  stages: readonly StageRow[],
): Map<'deal' | 'lead', StageKeys[]> {
  const stagesOf = new Map<string, StageRow[]>();
  for (const s of stages) {
    const list = stagesOf.get(s.pipeline_id);
    if (list) list.push(s);
    else stagesOf.set(s.pipeline_id, [s]);
  }
  const out = new Map<'deal' | 'lead', StageKeys[]>([
    ['deal', []],
    ['lead', []],
  ]);
  for (const p of pipelines) {
    const keys = out.get(p.kind as 'deal' | 'lead');
    if (!keys) continue;
    for (const s of stagesOf.get(p.id) ?? []) keys.push(stageKeysOf(s.id, s.name, p.name));
  }
  return out;
}

/** Reads a workspace's catalog (at `version`, the number it was read with). */
export async function loadCatalog(
  db: Executor,
  workspaceId: string,
  version: number,
): Promise<Catalog> {
  const queries = catalogQueries(db);
  const names = new Map<CatalogTarget, Map<string, string>>();
  for (const [target, query] of queries.names) {
    const rows = await rowsOf<{ id: string; name: string }>(db, query, workspaceId);
    names.set(target, new Map(rows.map((r) => [r.id, r.name])));
  }
  const { pipelines, stages } = await pipelinesAndStages(db, workspaceId);
  names.set('pipeline', new Map(pipelines.map((r) => [r.id, r.name])));
  names.set('pipelineStage', new Map(stages.map((r) => [r.id, r.name])));
  const fields = new Map<CustomFieldRecordType, CustomFieldDefinition[]>();
  const defs = await rowsOf<Selectable<CustomFieldTable>>(db, queries.fields, workspaceId);
  for (const d of defs) {
    const recordType = d.record_type as CustomFieldRecordType;
    const def = customFieldOfRow(d);
    const list = fields.get(recordType);
    if (list) list.push(def);
    else fields.set(recordType, [def]);
  }
  const teamsOfUser = new Map<string, string[]>();
  const members = await rowsOf<{ user_id: string; team_id: string }>(
    db,
    queries.members,
    workspaceId,
  );
  for (const m of members) {
    const list = teamsOfUser.get(m.user_id);
    if (list) list.push(m.team_id);
    else teamsOfUser.set(m.user_id, [m.team_id]);
  }
  const subscriptions = await activeSubscriptions(db, workspaceId);
  const stageKeys = stageKeysFrom(pipelines, stages);
  return { version, names, fields, teamsOfUser, subscriptions, stageKeys };
}

/**
 * The stage timing keys of each record type: its pipelines in their order, each one's stages
 * in theirs.
 */
export async function stageKeysOfWorkspace(
  db: Executor,
  workspaceId: string,
): Promise<Map<'deal' | 'lead', StageKeys[]>> {
  const { pipelines, stages } = await pipelinesAndStages(db, workspaceId);
  return stageKeysFrom(pipelines, stages);
}

/**
 * The catalogs each store keeps, within `CATALOG_CACHE_BYTES` (a demo workspace's takes about
 * 31 KiB of heap, so the default of a machine of 8 GiB or more, 512 MiB, holds those of about
 * 16,000 workspaces). Past the budget, the catalogs in use keep their place (`BudgetCache`):
 * writes spread evenly over more workspaces than it holds read the catalogs of those it does
 * not, not of every one.
 */
const kept = new WeakMap<Store, BudgetCache<Catalog>>();

/** Keeps the catalogs of `store` within `maxBytes` from now on (0: none is kept). */
export function keepCatalogs(store: Store, maxBytes: number): void {
  kept.set(store, new BudgetCache(maxBytes));
}

/**
 * The workspace's catalog at `version` (its `catalog_version`, read in the transaction
 * `db` belongs to): the one kept from an earlier write when the version is the same, else
 * read and kept. Read under the workspace's write lock, the version is the committed one.
 */
export async function catalogAt(
  store: Store,
  db: Executor,
  workspaceId: string,
  version: number,
): Promise<Catalog> {
  let byWorkspace = kept.get(store);
  if (!byWorkspace) {
    byWorkspace = new BudgetCache(catalogCacheBytes());
    kept.set(store, byWorkspace);
  }
  // Marks it the most recently used.
  const known = byWorkspace.get(workspaceId);
  if (known?.version === version) return known;
  const catalog = await loadCatalog(db, workspaceId, version);
  byWorkspace.set(workspaceId, catalog, heapBytes(catalog));
  return catalog;
}

/**
 * The workspace's `catalog_version` as `db` sees it (0 for an unknown workspace). Every write
 * reads it: in a SQLite write transaction, through the writer's cached statement.
 */
export async function readCatalogVersion(db: Executor, workspaceId: string): Promise<number> {
  const cached = sqliteStatementOf(db, CATALOG_VERSION_SQL);
  if (cached) return Number(cached.pluck().get(workspaceId) ?? 0);
  const row = await db
    .selectFrom('workspaces')
    .select('catalog_version')
    .where('id', '=', workspaceId)
    .executeTakeFirst();
  return Number(row?.catalog_version ?? 0);
}

/** The workspace's active webhooks, as an event's fan-out reads them. */
export async function activeSubscriptions(
  db: Executor,
  workspaceId: string,
): Promise<Subscription[]> {
  const rows = await rowsOf<SubscriptionRow>(db, catalogQueries(db).subscriptions, workspaceId);
  return rows.map(subscriptionOf);
}

/** The columns of a webhook's row that make its subscription. */
type SubscriptionRow = {
  id: string;
  object_types: string;
  events: string;
  fields: string | null;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: string | null;
};

/** A webhook's row as the events it wants and where and how they go. */
export function subscriptionOf(r: SubscriptionRow): Subscription {
  return {
    id: r.id,
    objectTypes: new Set(JSON.parse(r.object_types) as string[]),
    events: new Set(JSON.parse(r.events) as string[]),
    fields: r.fields === null ? undefined : new Set(JSON.parse(r.fields) as string[]),
    url: r.url,
    secret: r.secret,
    previousSecret: r.previous_secret,
    previousSecretUntil: r.previous_secret_until,
  };
}

const CATALOG_VERSION_SQL = 'select catalog_version from workspaces where id = ?';

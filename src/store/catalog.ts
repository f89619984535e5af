import type { Selectable } from 'kysely';
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

/** A webhook's subscription, as an event's fan-out reads it. */
export interface Subscription {
  id: string;
  objectTypes: ReadonlySet<string>;
  events: ReadonlySet<string>;
  /** Field names whose `수정` fire; undefined for all. */
  fields: ReadonlySet<string> | undefined;
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
  ['webhooks', new Set(['object_types', 'events', 'fields', 'status'])],
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
      deliveries_due_at: dueAtLeast(new Date().toISOString()),
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

/** Reads a workspace's catalog (at `version`, the number it was read with). */
export async function loadCatalog(
  db: Executor,
  workspaceId: string,
  version: number,
): Promise<Catalog> {
  const names = new Map<CatalogTarget, Map<string, string>>();
  for (const [target, table] of NAMED_TABLES) {
    const rows = await db
      .selectFrom(table)
      .select(['id', 'name'])
      .where('workspace_id', '=', workspaceId)
      .execute();
    names.set(target, new Map(rows.map((r) => [r.id, r.name])));
  }
  const fields = new Map<CustomFieldRecordType, CustomFieldDefinition[]>();
  const defs = await db
    .selectFrom('custom_fields')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .orderBy('record_type')
    .orderBy('position')
    .orderBy('id')
    .execute();
  for (const d of defs) {
    const recordType = d.record_type as CustomFieldRecordType;
    const def = customFieldOfRow(d);
    const list = fields.get(recordType);
    if (list) list.push(def);
    else fields.set(recordType, [def]);
  }
  const teamsOfUser = new Map<string, string[]>();
  const members = await db
    .selectFrom('team_members')
    .select(['user_id', 'team_id'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('user_id')
    .orderBy('team_id')
    .execute();
  for (const m of members) {
    const list = teamsOfUser.get(m.user_id);
    if (list) list.push(m.team_id);
    else teamsOfUser.set(m.user_id, [m.team_id]);
  }
  const subscriptions = await activeSubscriptions(db, workspaceId);
  const stageKeys = await stageKeysOfWorkspace(db, workspaceId);
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
  const rows = await db
    .selectFrom('pipeline_stages as s')
    .innerJoin('pipelines as p', (j) =>
      j.onRef('p.workspace_id', '=', 's.workspace_id').onRef('p.id', '=', 's.pipeline_id'),
    )
    .select(['p.kind', 'p.name as pipeline', 's.id', 's.name as stage'])
    .where('s.workspace_id', '=', workspaceId)
    .orderBy('p.position')
    .orderBy('p.id')
    .orderBy('s.position')
    .orderBy('s.id')
    .execute();
  const out = new Map<'deal' | 'lead', StageKeys[]>([
    ['deal', []],
    ['lead', []],
  ]);
  for (const r of rows)
    out.get(r.kind as 'deal' | 'lead')?.push(stageKeysOf(r.id, r.stage, r.pipeline));
  return out;
}

/** Workspaces whose catalog a store keeps; the least recently used beyond it are dropped. */
const KEPT_WORKSPACES = 256;
const kept = new WeakMap<Store, Map<string, Catalog>>();

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
    byWorkspace = new Map();
    kept.set(store, byWorkspace);
  }
  const known = byWorkspace.get(workspaceId);
  if (known?.version === version) {
    // Most recently used last: the map's first entry is the one to drop.
    byWorkspace.delete(workspaceId);
    byWorkspace.set(workspaceId, known);
    return known;
  }
  const catalog = await loadCatalog(db, workspaceId, version);
  byWorkspace.delete(workspaceId);
  byWorkspace.set(workspaceId, catalog);
  if (byWorkspace.size > KEPT_WORKSPACES) byWorkspace.delete(byWorkspace.keys().next().value!);
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
  const rows = await db
    .selectFrom('webhooks')
    .select(['id', 'object_types', 'events', 'fields'])
    .where('workspace_id', '=', workspaceId)
    .where('status', '=', 'active')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    objectTypes: new Set(JSON.parse(r.object_types) as string[]),
    events: new Set(JSON.parse(r.events) as string[]),
    fields: r.fields === null ? undefined : new Set(JSON.parse(r.fields) as string[]),
  }));
}

const CATALOG_VERSION_SQL = 'select catalog_version from workspaces where id = ?';

/**
 * The records associated with a record (docs/decisions.md, Other resources): its primary links (a
 * person's organization, deals and leads; an organization's people, deals and leads; a deal's or
 * lead's person and organization; the notes on it, a custom object's too) and its custom ones
 * (custom Ref fields, of the record itself and of other records that point at it; custom objects'
 * `customObject` and `multiCustomObject` fields among them).
 */
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { type CustomFieldType, refTargetOf } from '../../domain/custom-fields.ts';
import type { Database } from '../../model/tables.ts';
import type { Position } from '../../store/keyset.ts';
import { keysetPage, type RowPage } from '../../store/keyset-rows.ts';
import { idPattern } from '../commands.ts';

type Db = Kysely<Database>;
// biome-ignore lint/suspicious/noExplicitAny: the table is chosen at run time
type AnyDb = Kysely<any>;
// biome-ignore lint/suspicious/noExplicitAny: the table is chosen at run time
type AnyQuery = SelectQueryBuilder<any, any, any>;

/** The record types an association starts from. */
export const ASSOCIATION_TARGET_TYPES = [
  'people',
  'organization',
  'deal',
  'lead',
  'custom-object',
] as const;
export type AssociationTarget = (typeof ASSOCIATION_TARGET_TYPES)[number];

/** What `…/primary` lists: records linked by their own keys, and notes. */
export const PRIMARY_TO_TYPES = ['people', 'organization', 'deal', 'lead', 'memo'] as const;
export type PrimaryTo = (typeof PRIMARY_TO_TYPES)[number];

/** What `…/custom` lists: records linked by custom Ref fields. */
export const CUSTOM_TO_TYPES = ['people', 'organization', 'deal', 'lead', 'custom-object'] as const;
export type CustomTo = (typeof CUSTOM_TO_TYPES)[number];

/** The table of each record type. */
export const TABLE_OF = {
  people: 'people',
  organization: 'organizations',
  deal: 'deals',
  lead: 'leads',
  'custom-object': 'custom_objects',
} as const satisfies Record<AssociationTarget, keyof Database>;

/**
 * The record type of each path type: the notes' `subject_type`, the custom fields'
 * `record_type` and a Ref field's target (`custom-object` is `customObject` there).
 */
const RECORD_TYPE_OF = {
  people: 'people',
  organization: 'organization',
  deal: 'deal',
  lead: 'lead',
  'custom-object': 'customObject',
} as const satisfies Record<AssociationTarget, string>;

/** Whether the workspace has the record. */
export async function recordExists(
  db: Db,
  workspaceId: string,
  type: AssociationTarget,
  id: string,
): Promise<boolean> {
  const row = await (db as AnyDb)
    .selectFrom(TABLE_OF[type])
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}

/** Where the primary associations of `from` to `to` are: a table and the rows of it that link. */
interface PrimarySource {
  table: (typeof TABLE_OF)[AssociationTarget] | 'notes';
  where: (qb: AnyQuery, ws: string, id: string) => AnyQuery;
}

/** The link column a deal, lead or person holds for each type it points at. */
const LINK_COLUMN = { people: 'people_id', organization: 'organization_id' } as const;

function primarySource(from: AssociationTarget, to: PrimaryTo): PrimarySource | undefined {
  if (to === 'memo') {
    return {
      table: 'notes',
      where: (qb, _ws, id) =>
        qb.where('subject_type', '=', RECORD_TYPE_OF[from]).where('subject_id', '=', id),
    };
  }
  const holds =
    (from === 'people' && to === 'organization') ||
    ((from === 'deal' || from === 'lead') && (to === 'people' || to === 'organization'));
  if (holds) {
    // The record's own key: the one record it names.
    const column = LINK_COLUMN[to as 'people' | 'organization'];
    return {
      table: TABLE_OF[to as AssociationTarget],
      where: (qb, ws, id) =>
        qb.where(
          'id',
          'in',
          sql`(select ${sql.ref(column)} from ${sql.table(TABLE_OF[from])} where workspace_id = ${ws} and id = ${id})`,
        ),
    };
  }
  const heldBy =
    (to === 'people' || to === 'deal' || to === 'lead') &&
    (from === 'organization' || (from === 'people' && to !== 'people'));
  if (heldBy) {
    // The records whose key names this one: a person's deals, an organization's people.
    const column = LINK_COLUMN[from as 'people' | 'organization'];
    return {
      table: TABLE_OF[to as AssociationTarget],
      where: (qb, _ws, id) => qb.where(column, '=', id),
    };
  }
  return undefined;
}

/** A page of the ids primarily associated with a record, oldest first. */
export async function primaryPage(
  db: Db,
  workspaceId: string,
  from: AssociationTarget,
  id: string,
  to: PrimaryTo,
  after: Position | undefined,
  limit: number,
): Promise<RowPage<{ id: string; created_at: string }>> {
  const source = primarySource(from, to);
  if (!source) return { rows: [], more: false };
  let query: AnyQuery = (db as AnyDb)
    .selectFrom(source.table)
    .select(['id', 'created_at'])
    .where('workspace_id', '=', workspaceId);
  query = source.where(query, workspaceId, id);
  const past = after && ([after.sortKey, after.id] as const);
  return keysetPage<{ id: string; created_at: string }>(query, ['created_at', 'id'], past, limit);
}

/** A custom association: the record and the name of the field that links it. */
export interface CustomAssociation {
  id: string;
  label: string;
  /** Its place in the list (with `id`): the field's, then the value's or the record's. */
  sortKey: string;
}

const pad = (n: number) => String(n).padStart(6, '0');

/**
 * Every custom association of a record with records of `to`, in order: the record's own
 * Ref fields that point at `to` (in field order, then value order), then the Ref fields of
 * `to`'s records that point at the record (in field order, then oldest record first). Ids a
 * field still holds of a deleted record are left out.
 */
export async function customAssociations(
  db: Db,
  workspaceId: string,
  from: AssociationTarget,
  id: string,
  to: CustomTo,
): Promise<CustomAssociation[]> {
  const table = TABLE_OF[to];
  const fromType = RECORD_TYPE_OF[from];
  const toType = RECORD_TYPE_OF[to];
  const fields = await db
    .selectFrom('custom_fields')
    .select(['id', 'record_type', 'name', 'type', 'position'])
    .where('workspace_id', '=', workspaceId)
    .where('record_type', 'in', [fromType, toType])
    .orderBy('position')
    .orderBy('id')
    .execute();
  const refTo = (type: string) => refTargetOf(type as CustomFieldType)?.target;
  const out: CustomAssociation[] = [];

  // The record's own fields that point at `to` (a custom object holds values of its own
  // definition's fields only).
  const own = fields.filter((f) => f.record_type === fromType && refTo(f.type) === toType);
  if (own.length > 0) {
    const row = await (db as AnyDb)
      .selectFrom(TABLE_OF[from])
      .select('custom')
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    const values = JSON.parse((row?.custom as string | undefined) ?? '{}') as Record<
      string,
      unknown
    >;
    const linked: CustomAssociation[] = [];
    for (const field of own) {
      const value = values[field.id];
      const ids = Array.isArray(value) ? value : value == null ? [] : [value];
      for (const [i, linkedId] of ids.entries()) {
        linked.push({
          id: String(linkedId),
          label: field.name,
          sortKey: `0${pad(field.position)}${pad(i)}`,
        });
      }
    }
    const existing = await idsIn(
      db,
      workspaceId,
      table,
      linked.map((l) => l.id),
    );
    out.push(...linked.filter((l) => existing.has(l.id)));
  }

  // Fields of `to`'s records that point at the record.
  const theirs = fields.filter((f) => f.record_type === toType && refTo(f.type) === fromType);
  if (theirs.length > 0) {
    const pattern = idPattern(id);
    const rows = (await (db as AnyDb)
      .selectFrom(table)
      .select(['id', 'created_at', 'custom'])
      .where('workspace_id', '=', workspaceId)
      .where(sql<boolean>`custom like ${pattern} escape '\\'`)
      .execute()) as { id: string; created_at: string; custom: string }[];
    for (const field of theirs) {
      for (const row of rows) {
        const value = (JSON.parse(row.custom) as Record<string, unknown>)[field.id];
        const holds = Array.isArray(value) ? value.includes(id) : value === id;
        if (holds)
          out.push({
            id: row.id,
            label: field.name,
            sortKey: `1${pad(field.position)}${row.created_at}`,
          });
      }
    }
  }
  return out.sort((a, b) =>
    a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
  );
}

/** Which of `ids` the workspace has in `table`. */
async function idsIn(db: Db, workspaceId: string, table: string, ids: string[]) {
  if (ids.length === 0) return new Set<string>();
  const rows = (await (db as AnyDb)
    .selectFrom(table)
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', ids)
    .execute()) as { id: string }[];
  return new Set(rows.map((r) => r.id));
}

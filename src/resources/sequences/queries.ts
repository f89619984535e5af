import type { Kysely } from 'kysely';
import type { Database } from '../../model/tables.ts';
import type { EnrollmentRow, SequenceRow, StepRow, TimelineRow } from '../../render/sequences.ts';
import type { Position } from '../../store/keyset.ts';
import { keysetPage, type RowPage } from '../../store/keyset-rows.ts';

type Db = Kysely<Database>;

/** A page of the workspace's sequences, oldest first. */
export async function sequencePage(
  db: Db,
  workspaceId: string,
  after: Position | undefined,
  limit: number,
): Promise<RowPage<SequenceRow>> {
  const query = db
    .selectFrom('sequences')
    .select(['id', 'name', 'description', 'created_at'])
    .where('workspace_id', '=', workspaceId);
  return keysetPage(query, ['created_at', 'id'], after && [after.sortKey, after.id], limit);
}

/** A sequence of the workspace, or undefined. */
export async function sequenceById(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<SequenceRow | undefined> {
  return db
    .selectFrom('sequences')
    .select(['id', 'name', 'description', 'created_at'])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The position of a step in its list: its index, as text. */
export function stepPosition(row: StepRow): Position {
  return { sortKey: String(row.position), id: row.id };
}

/** A page of a sequence's steps in step order (none for a sequence the workspace lacks). */
export async function stepPage(
  db: Db,
  workspaceId: string,
  sequenceId: string,
  after: Position | undefined,
  limit: number,
): Promise<RowPage<StepRow>> {
  const query = db
    .selectFrom('sequence_steps')
    .select(['id', 'position', 'type', 'execute_immediately', 'business_day', 'execution_time'])
    .where('workspace_id', '=', workspaceId)
    .where('sequence_id', '=', sequenceId);
  const past = after && ([Number(after.sortKey), after.id] as const);
  return keysetPage(query, ['position', 'id'], past, limit);
}

/**
 * A page of a sequence's enrollments, oldest first, each with the person it writes to: the
 * enrolled person, or the person of an enrolled deal or lead.
 */
export async function enrollmentPage(
  db: Db,
  workspaceId: string,
  sequenceId: string,
  after: Position | undefined,
  limit: number,
): Promise<RowPage<EnrollmentRow>> {
  const query = db
    .selectFrom('sequence_enrollments as e')
    .leftJoin('deals as d', (join) =>
      join
        .onRef('d.workspace_id', '=', 'e.workspace_id')
        .onRef('d.id', '=', 'e.subject_id')
        .on('e.subject_type', '=', 'deal'),
    )
    .leftJoin('leads as l', (join) =>
      join
        .onRef('l.workspace_id', '=', 'e.workspace_id')
        .onRef('l.id', '=', 'e.subject_id')
        .on('e.subject_type', '=', 'lead'),
    )
    .select((eb) => [
      'e.id',
      'e.enrolled_at',
      eb
        .case()
        .when('e.subject_type', '=', 'people')
        .then(eb.ref('e.subject_id'))
        .else(eb.fn.coalesce('d.people_id', 'l.people_id'))
        .end()
        .as('people_id'),
    ])
    .where('e.workspace_id', '=', workspaceId)
    .where('e.sequence_id', '=', sequenceId);
  const past = after && ([after.sortKey, after.id] as const);
  const page = await keysetPage(query, ['e.enrolled_at', 'e.id'], past, limit);
  return {
    rows: page.rows.map((r) => ({
      id: r.id,
      enrolled_at: r.enrolled_at,
      people_id: r.people_id ?? null,
    })),
    more: page.more,
  };
}

/** An enrollment of the workspace: what it enrolls, in which sequence; or undefined. */
export async function enrollmentById(db: Db, workspaceId: string, id: string) {
  return db
    .selectFrom('sequence_enrollments')
    .select(['id', 'sequence_id', 'subject_type', 'subject_id', 'enrolled_at', 'active'])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Whether an enrollment has any event in its timeline (a step of it has run). */
export async function hasTimeline(db: Db, workspaceId: string, enrollmentId: string) {
  const row = await db
    .selectFrom('sequence_timeline')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('enrollment_id', '=', enrollmentId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** A page of an enrollment's timeline, oldest event first. */
export async function timelinePage(
  db: Db,
  workspaceId: string,
  enrollmentId: string,
  after: Position | undefined,
  limit: number,
): Promise<RowPage<TimelineRow>> {
  const query = db
    .selectFrom('sequence_timeline')
    .select(['id', 'event_type', 'step_index', 'date', 'email_id', 'link_url', 'link_name'])
    .where('workspace_id', '=', workspaceId)
    .where('enrollment_id', '=', enrollmentId);
  return keysetPage(query, ['date', 'id'], after && [after.sortKey, after.id], limit);
}

import type { Selectable } from 'kysely';
import type { SequenceStepTable, SequenceTable, SequenceTimelineTable } from '../model/tables.ts';

/** A sequence row as the reads take it. */
export type SequenceRow = Pick<
  Selectable<SequenceTable>,
  'id' | 'name' | 'description' | 'created_at'
>;

/** A step row as `GET /v2/sequence/{id}/step` takes it. */
export type StepRow = Omit<Selectable<SequenceStepTable>, 'workspace_id' | 'sequence_id'>;

/** An enrollment as the enrollment list takes it: the person it sends to, and when. */
export interface EnrollmentRow {
  id: string;
  people_id: string | null;
  enrolled_at: string;
}

/** A timeline row as `GET /v2/sequence/enrollment/{id}/timeline` takes it. */
export type TimelineRow = Omit<Selectable<SequenceTimelineTable>, 'workspace_id' | 'enrollment_id'>;

/** A sequence of `GET /v2/sequence` and `GET /v2/sequence/{id}`: its id under `_id`. */
export function renderSequence(row: SequenceRow): Record<string, unknown> {
  return {
    _id: row.id,
    name: row.name,
    description: row.description,
    createdAt: row.created_at,
  };
}

/** A step of a sequence: `index` from 0, `executionTime` as `HHMM` (null for an immediate step). */
export function renderStep(row: StepRow): Record<string, unknown> {
  return {
    id: row.id,
    type: row.type,
    index: Number(row.position),
    executeImmediately: Number(row.execute_immediately) === 1,
    businessDay: Number(row.business_day),
    executionTime: row.execution_time,
  };
}

/** An enrollment of `GET /v2/sequence/{id}/enrollment` and of the enroll write. */
export function renderEnrollment(row: EnrollmentRow): Record<string, unknown> {
  return { _id: row.id, peopleId: row.people_id, createdAt: row.enrolled_at };
}

/** One event of an enrollment's timeline; the link keys are null but for a link click. */
export function renderTimelineEvent(row: TimelineRow): Record<string, unknown> {
  return {
    eventType: row.event_type,
    stepIndex: Number(row.step_index),
    date: row.date,
    emailId: row.email_id,
    linkUrl: row.link_url,
    linkName: row.link_name,
  };
}

import { newId } from '../../domain/ids.ts';
import { columnById } from '../../store/by-id.ts';
import { insertMany } from '../../store/insert.ts';
import type { WorkspaceWrite } from '../../store/write.ts';

/** A sequence: its name alone, or its name and description. */
export type NewSequence = string | { name: string; description?: string | null };

/** Adds sequences; returns their ids. */
export async function insertSequences(
  w: WorkspaceWrite,
  sequences: NewSequence[],
): Promise<string[]> {
  const rows = sequences.map((s) => ({
    workspace_id: w.workspaceId,
    id: newId(),
    name: typeof s === 'string' ? s : s.name,
    description: typeof s === 'string' ? null : (s.description ?? null),
    created_at: w.now,
  }));
  await insertMany(w.trx, 'sequences', rows);
  return rows.map((r) => r.id);
}

/** An enrollment of a person, deal or lead in a sequence. */
export interface NewEnrollment {
  id?: string;
  sequenceId: string;
  subjectType: 'people' | 'deal' | 'lead';
  subjectId: string;
  enrolledAt?: string;
  active?: boolean;
}

/**
 * Enrolls records in sequences. A person's organization shows the sequences of its people,
 * so it is refreshed too.
 */
export async function insertEnrollments(
  w: WorkspaceWrite,
  enrollments: NewEnrollment[],
): Promise<string[]> {
  const rows = enrollments.map((e) => ({
    workspace_id: w.workspaceId,
    id: e.id ?? newId(),
    sequence_id: e.sequenceId,
    subject_type: e.subjectType,
    subject_id: e.subjectId,
    enrolled_at: e.enrolledAt ?? w.now,
    active: e.active === false ? 0 : 1,
  }));
  await insertMany(w.trx, 'sequence_enrollments', rows);
  const organizations = await columnById<string | null>(
    w.trx,
    'people',
    w.workspaceId,
    enrollments.filter((e) => e.subjectType === 'people').map((e) => e.subjectId),
    'organization_id',
  );
  for (const organizationId of organizations.values())
    w.touched.mark('organization', organizationId);
  for (const e of enrollments) w.touched.mark(e.subjectType, e.subjectId);
  return rows.map((r) => r.id);
}

/** A step of a sequence; `index` counts from 0 in the sequence's order. */
export interface NewSequenceStep {
  id?: string;
  sequenceId: string;
  index: number;
  type: string;
  executeImmediately: boolean;
  businessDay: number;
  /** `HHMM`; null for an immediate step. */
  executionTime: string | null;
}

/** Adds steps to sequences. */
export async function insertSequenceSteps(
  w: WorkspaceWrite,
  steps: NewSequenceStep[],
): Promise<string[]> {
  const rows = steps.map((s) => ({
    workspace_id: w.workspaceId,
    id: s.id ?? newId(),
    sequence_id: s.sequenceId,
    position: s.index,
    type: s.type,
    execute_immediately: s.executeImmediately ? 1 : 0,
    business_day: s.businessDay,
    execution_time: s.executionTime,
  }));
  await insertMany(w.trx, 'sequence_steps', rows);
  return rows.map((r) => r.id);
}

/** An event of an enrollment's timeline. */
export interface NewTimelineEvent {
  id?: string;
  enrollmentId: string;
  eventType: 'sendEmail' | 'emailOpen' | 'emailLinkClick' | 'emailReply';
  stepIndex: number;
  date: string;
  emailId?: string | null;
  linkUrl?: string | null;
  linkName?: string | null;
}

/** Adds events to enrollments' timelines (no record shows them: nothing to refresh). */
export async function insertTimelineEvents(
  w: Pick<WorkspaceWrite, 'trx' | 'workspaceId'>,
  events: NewTimelineEvent[],
): Promise<string[]> {
  const rows = events.map((e) => ({
    workspace_id: w.workspaceId,
    id: e.id ?? newId(),
    enrollment_id: e.enrollmentId,
    event_type: e.eventType,
    step_index: e.stepIndex,
    date: e.date,
    email_id: e.emailId ?? null,
    link_url: e.linkUrl ?? null,
    link_name: e.linkName ?? null,
  }));
  await insertMany(w.trx, 'sequence_timeline', rows);
  return rows.map((r) => r.id);
}

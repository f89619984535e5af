import { newId } from '../../domain/ids.ts';
import { columnById } from '../../store/by-id.ts';
import { insertMany } from '../../store/insert.ts';
import type { WorkspaceWrite } from '../../store/write.ts';

/** Adds sequences by name; returns their ids. */
export async function insertSequences(w: WorkspaceWrite, names: string[]): Promise<string[]> {
  const rows = names.map((name) => ({
    workspace_id: w.workspaceId,
    id: newId(),
    name,
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

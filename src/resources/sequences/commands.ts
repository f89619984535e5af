import { DomainError } from '../../domain/errors.ts';
import { renderEnrollment } from '../../render/sequences.ts';
import type { WorkspaceWrite } from '../../store/write.ts';
import { insertEnrollments } from './writes.ts';

/** The 404 of a sequence the workspace does not have. */
function sequenceNotFound(id: string): DomainError {
  return new DomainError('not_found', `시퀀스를 찾을 수 없습니다: '${id}'`);
}

/**
 * Enrolls a person in a sequence: 404 for a sequence or person the workspace lacks, 409 while
 * the person is enrolled in it and the enrollment is in progress (one that ended may be
 * followed by a new one). The person's SEQUENCE fields and its organization's
 * `등록된 시퀀스 목록` are rendered again in this write, with their events (the person's
 * carry the caller as their source).
 */
export async function enrollPerson(
  w: WorkspaceWrite,
  sequenceId: string,
  peopleId: string,
): Promise<Record<string, unknown>> {
  const ws = w.workspaceId;
  const sequence = await w.trx
    .selectFrom('sequences')
    .select('id')
    .where('workspace_id', '=', ws)
    .where('id', '=', sequenceId)
    .executeTakeFirst();
  if (!sequence) throw sequenceNotFound(sequenceId);
  const person = await w.trx
    .selectFrom('people')
    .select('id')
    .where('workspace_id', '=', ws)
    .where('id', '=', peopleId)
    .executeTakeFirst();
  if (!person)
    throw new DomainError('people_not_found', `'peopleId': 고객을 찾을 수 없습니다: '${peopleId}'`);
  const enrolled = await w.trx
    .selectFrom('sequence_enrollments')
    .select('id')
    .where('workspace_id', '=', ws)
    .where('sequence_id', '=', sequenceId)
    .where('subject_type', '=', 'people')
    .where('subject_id', '=', peopleId)
    .where('active', '=', 1)
    .executeTakeFirst();
  if (enrolled) {
    throw new DomainError(
      'conflict',
      `이미 이 시퀀스를 진행 중인 고객입니다: '${peopleId}' (등록 '${enrolled.id}')`,
    );
  }
  const [id] = await insertEnrollments(w, [
    { sequenceId, subjectType: 'people', subjectId: peopleId },
  ]);
  w.events.markDirect('people', peopleId);
  return renderEnrollment({ id: id!, people_id: peopleId, enrolled_at: w.now });
}

/**
 * Takes an enrollment away, with its timeline: the enrolled record's SEQUENCE fields (and,
 * for a person, its organization's `등록된 시퀀스 목록`) follow in this write, as if it had
 * never been enrolled in it. 404 for an enrollment the workspace lacks.
 */
export async function unenroll(w: WorkspaceWrite, enrollmentId: string): Promise<void> {
  const ws = w.workspaceId;
  const row = await w.trx
    .selectFrom('sequence_enrollments')
    .select(['subject_type', 'subject_id'])
    .where('workspace_id', '=', ws)
    .where('id', '=', enrollmentId)
    .executeTakeFirst();
  if (!row) throw new DomainError('not_found', `시퀀스 등록을 찾을 수 없습니다: '${enrollmentId}'`);
  await w.trx
    .deleteFrom('sequence_timeline')
    .where('workspace_id', '=', ws)
    .where('enrollment_id', '=', enrollmentId)
    .execute();
  await w.trx
    .deleteFrom('sequence_enrollments')
    .where('workspace_id', '=', ws)
    .where('id', '=', enrollmentId)
    .execute();
  const type = row.subject_type as 'people' | 'deal' | 'lead';
  w.touched.mark(type, row.subject_id);
  w.events.markDirect(type, row.subject_id);
  if (type === 'people') {
    const person = await w.trx
      .selectFrom('people')
      .select('organization_id')
      .where('workspace_id', '=', ws)
      .where('id', '=', row.subject_id)
      .executeTakeFirst();
    w.touched.mark('organization', person?.organization_id ?? null);
  }
}

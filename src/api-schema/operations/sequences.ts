/**
 * The operations of tag Sequences: the live API's five reads (docs/decisions.md, Other resources),
 * and enroll and unenroll a person (ours; the live API documents neither).
 */
import { EnrollBody } from '../bodies/sequences.ts';
import { Deleted, ListEnvelope, ObjectEnvelope } from '../envelopes.ts';
import { Nullable } from '../primitives.ts';
import {
  SequenceEnrollmentRecord,
  SequenceRecord,
  SequenceStepRecord,
  SequenceTimelineRecord,
} from '../records/sequences.ts';
import { type Operation, read, write } from './operation.ts';
import { page } from './parameters.ts';

const TAG = 'Sequences';

/** In the order the OpenAPI document lists them. */
export const SEQUENCE_OPERATIONS: readonly Operation[] = [
  read(
    '/v2/sequence',
    'listSequences',
    'List sequences',
    TAG,
    ListEnvelope('sequenceList', SequenceRecord),
    {
      query: page,
    },
  ),
  read(
    '/v2/sequence/{sequenceId}',
    'getSequence',
    'Read a sequence (`null`, with 200, for a sequence the workspace does not have)',
    TAG,
    ObjectEnvelope('sequence', Nullable(SequenceRecord)),
  ),
  read(
    '/v2/sequence/{sequenceId}/step',
    'listSequenceSteps',
    'List the steps of a sequence in step order (`[]` for a sequence the workspace does not have)',
    TAG,
    ListEnvelope('stepList', SequenceStepRecord),
    { query: page },
  ),
  read(
    '/v2/sequence/{sequenceId}/enrollment',
    'listSequenceEnrollments',
    'List the enrollments of a sequence, oldest first (`[]` for a sequence the workspace does not have)',
    TAG,
    ListEnvelope('sequenceEnrollmentList', SequenceEnrollmentRecord),
    { query: page },
  ),
  read(
    '/v2/sequence/enrollment/{enrollId}/timeline',
    'listSequenceEnrollmentTimeline',
    'List what happened in an enrollment, oldest first (400 `sequenceEnroll이 존재하지 않습니다.` for an enrollment the workspace does not have, 400 `sequenceEnrollStep이 존재하지 않습니다.` before its first step has run)',
    TAG,
    ListEnvelope('timelineList', SequenceTimelineRecord),
    { query: page },
  ),
  {
    ...write(
      '/v2/sequence/{sequenceId}/enrollment',
      'enrollInSequence',
      'Enroll a person in a sequence (404 for an unknown sequence or person, 409 while the person is in it); the person’s sequence fields follow',
      TAG,
      201,
      EnrollBody,
      ObjectEnvelope('sequenceEnrollment', SequenceEnrollmentRecord),
    ),
    conflict: true,
  },
  write(
    '/v2/sequence/enrollment/{enrollId}/delete',
    'deleteSequenceEnrollment',
    'Take an enrollment away, with its timeline; the record’s sequence fields follow',
    TAG,
    200,
    undefined,
    Deleted,
  ),
];

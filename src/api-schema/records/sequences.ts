/**
 * Sequences (docs/decisions.md, Other resources): the sequences, their steps, enrollments and
 * timelines.
 */
import { type Static, Type } from '@sinclair/typebox';
import { Id, Nullable, Timestamp } from '../primitives.ts';
import { Closed, count, optionalText, text } from './common.ts';

/** The kinds of a sequence step. */
export const SEQUENCE_STEP_TYPES = ['sendEmail', 'createTodo'] as const;

/** The kinds of an enrollment's timeline events. */
export const TIMELINE_EVENT_TYPES = [
  'sendEmail',
  'emailOpen',
  'emailLinkClick',
  'emailReply',
] as const;

/** A sequence of `GET /v2/sequence` and `GET /v2/sequence/{sequenceId}` (id under `_id`). */
export const SequenceRecord = Closed(
  { _id: Id, name: text, description: optionalText, createdAt: Timestamp },
  'A sequence (its id under `_id`, as the live API has it)',
);
export type SequenceRecord = Static<typeof SequenceRecord>;

/** A step of `GET /v2/sequence/{sequenceId}/step`. */
export const SequenceStepRecord = Closed(
  {
    id: Id,
    type: Type.String({ description: `${SEQUENCE_STEP_TYPES.join(', ')}` }),
    index: count,
    executeImmediately: Type.Boolean(),
    businessDay: count,
    executionTime: Nullable(
      Type.String({
        pattern: '^([01][0-9]|2[0-3])[0-5][0-9]$',
        description: '`HHMM`, Korea time; null for a step that runs at once',
      }),
    ),
  },
  'A step of a sequence; `index` counts from 0; `businessDay` business days after the step before',
);
export type SequenceStepRecord = Static<typeof SequenceStepRecord>;

/** An enrollment of `GET /v2/sequence/{sequenceId}/enrollment` (id under `_id`). */
export const SequenceEnrollmentRecord = Closed(
  {
    _id: Id,
    peopleId: Nullable(Id),
    createdAt: Timestamp,
  },
  'An enrollment: the person the sequence writes to, and when they were enrolled',
);
export type SequenceEnrollmentRecord = Static<typeof SequenceEnrollmentRecord>;

/** An event of `GET /v2/sequence/enrollment/{enrollId}/timeline`. */
export const SequenceTimelineRecord = Closed(
  {
    eventType: Type.String({ description: `${TIMELINE_EVENT_TYPES.join(', ')}` }),
    stepIndex: count,
    date: Timestamp,
    emailId: Nullable(Id),
    linkUrl: optionalText,
    linkName: optionalText,
  },
  'What happened in an enrollment: an e-mail of a step sent, opened, clicked (with its link) or answered',
);
export type SequenceTimelineRecord = Static<typeof SequenceTimelineRecord>;

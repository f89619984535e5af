import { type Static, Type } from '@sinclair/typebox';
import { MAX_SEGMENTS, MAX_SPEAKERS, RECORDING_SUBJECTS } from '../../domain/recordings.ts';
import { OneOf } from '../primitives.ts';
import { IdSchema } from './common.ts';

const Segment = Type.Object(
  {
    startTime: Type.Number({
      minimum: 0,
      maximum: 1e12,
      description: 'Milliseconds from the start',
    }),
    endTime: Type.Number({ minimum: 0, maximum: 1e12, description: 'Milliseconds from the start' }),
    text: Type.String({ maxLength: 10_000 }),
    speakerId: Type.String({ minLength: 1, maxLength: 100 }),
    confidence: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()])),
  },
  { additionalProperties: false },
);

const Speaker = Type.Object(
  {
    speakerId: Type.String({ minLength: 1, maxLength: 100 }),
    label: Type.String({ maxLength: 200 }),
  },
  { additionalProperties: false },
);

/**
 * Body of `POST /v2/recording` (docs/decisions.md, Recordings): the audio uploaded first with
 * `POST /v2/file` (its id), the record it is of, and what the system that recorded it made of it.
 */
export const CreateRecordingBody = Type.Object({
  fileId: Type.String({
    minLength: 1,
    maxLength: 64,
    description:
      'The audio: a file uploaded with `POST /v2/file`, attached to nothing or to this record, held by no other recording',
  }),
  objectType: OneOf(RECORDING_SUBJECTS),
  objectId: Type.String({
    minLength: IdSchema.minLength,
    maxLength: IdSchema.maxLength,
    description: 'The record (for `customObject` the record id)',
  }),
  title: Type.String({ minLength: 1, maxLength: 500, pattern: '\\S' }),
  duration: Type.Number({ minimum: 0, maximum: 1e9, description: 'Seconds' }),
  source: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Where it came from; `upload` when not given',
    }),
  ),
  coreSummary: Type.Optional(Type.Union([Type.String({ maxLength: 100_000 }), Type.Null()])),
  transcriptSegmentList: Type.Optional(Type.Array(Segment, { maxItems: MAX_SEGMENTS })),
  speakerInfoList: Type.Optional(Type.Array(Speaker, { maxItems: MAX_SPEAKERS })),
});
export type CreateRecordingBody = Static<typeof CreateRecordingBody>;

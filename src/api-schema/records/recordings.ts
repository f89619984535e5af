/**
 * The recording and its transcript (docs/decisions.md, Recordings), as the live API's
 * `GET /v2/recording/{recordingId}` and `…/transcript` answer them.
 */
import { type Static, Type } from '@sinclair/typebox';
import { RECORDING } from '../../domain/record-types/recordings.ts';
import { Closed } from './common.ts';
import { declaredProperties } from './declared.ts';

/** A recording, as `src/domain/record-types/recordings.ts` declares it. */
export const RecordingRecord = Closed(
  declaredProperties(RECORDING),
  'A recorded call: its title, duration in seconds, where it came from (`upload`), its summary, when it was added and by whom',
);
export type RecordingRecord = Static<typeof RecordingRecord>;

/** One stretch of a transcript. */
export const TranscriptSegmentRecord = Closed(
  {
    startTime: Type.Number({ minimum: 0, description: 'Milliseconds from the start' }),
    endTime: Type.Number({ minimum: 0, description: 'Milliseconds from the start' }),
    text: Type.String(),
    speakerId: Type.String(),
    confidence: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()]),
  },
  'A stretch of the transcript and who spoke it',
);
export type TranscriptSegmentRecord = Static<typeof TranscriptSegmentRecord>;

/** A speaker of a transcript. */
export const SpeakerInfoRecord = Closed(
  { speakerId: Type.String(), label: Type.String() },
  'A speaker of the transcript and its label',
);
export type SpeakerInfoRecord = Static<typeof SpeakerInfoRecord>;

/** A recording's transcript: its segments in time order, and its speakers. */
export const RecordingTranscriptRecord = Closed(
  {
    transcriptSegmentList: Type.Array(TranscriptSegmentRecord),
    speakerInfoList: Type.Array(SpeakerInfoRecord),
  },
  'The transcript of a recording: its segments in time order and its speakers',
);
export type RecordingTranscriptRecord = Static<typeof RecordingTranscriptRecord>;

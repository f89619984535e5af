/**
 * Recordings (docs/decisions.md, Recordings): the records a recording may be of, and the bounds
 * of what an upload brings.
 */

/** The records a recording is of: those with an activity list to carry its `recordingCreate`. */
export const RECORDING_SUBJECTS = [
  'people',
  'organization',
  'deal',
  'lead',
  'customObject',
] as const;
export type RecordingSubject = (typeof RECORDING_SUBJECTS)[number];

/** The most transcript segments a recording holds. */
export const MAX_SEGMENTS = 20_000;
/** The most speakers a transcript names. */
export const MAX_SPEAKERS = 100;
/** `source` when the upload does not say: the live API's word for an uploaded recording. */
export const SOURCE_UPLOAD = 'upload';

/** One stretch of the transcript: times in milliseconds from the start. */
export interface TranscriptSegment {
  startTime: number;
  endTime: number;
  text: string;
  speakerId: string;
  confidence: number | null;
}

/** A speaker of the transcript. */
export interface SpeakerInfo {
  speakerId: string;
  label: string;
}

/**
 * What is wrong with a transcript, or undefined: each segment ends at or after its start and
 * names a speaker of `speakers`, whose ids are distinct.
 */
export function transcriptProblem(
  segments: readonly TranscriptSegment[],
  speakers: readonly SpeakerInfo[],
): string | undefined {
  const ids = new Set<string>();
  for (const [i, s] of speakers.entries()) {
    if (ids.has(s.speakerId))
      return `'speakerInfoList' ${i + 1}번째 항목의 speakerId가 앞 항목과 같습니다: '${s.speakerId}'`;
    ids.add(s.speakerId);
  }
  for (const [i, s] of segments.entries()) {
    if (s.endTime < s.startTime)
      return `'transcriptSegmentList' ${i + 1}번째 항목의 endTime이 startTime보다 앞섭니다.`;
    if (!ids.has(s.speakerId))
      return `'transcriptSegmentList' ${i + 1}번째 항목의 speakerId가 speakerInfoList에 없습니다: '${s.speakerId.slice(0, 100)}'`;
  }
  return undefined;
}

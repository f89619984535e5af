/**
 * Recordings (tag Recordings, docs/decisions.md, Recordings): keep a call another system recorded
 * (its audio an uploaded file), read it and its transcript as the live API does, delete it.
 */
import { CreateRecordingBody } from '../bodies/recordings.ts';
import { CreatedEnvelope, Deleted, ObjectEnvelope } from '../envelopes.ts';
import { RecordingRecord, RecordingTranscriptRecord } from '../records/recordings.ts';
import { type Operation, read, write } from './operation.ts';

const TAG = 'Recordings';

/** In the order the OpenAPI document lists them. */
export const RECORDING_OPERATIONS: readonly Operation[] = [
  {
    ...write(
      '/v2/recording',
      'createRecording',
      'Keep a recording: its audio (a file uploaded with POST /v2/file), title, duration, summary and transcript, of a person, organization, deal, lead or custom object record (a `recordingCreate` activity of it)',
      TAG,
      201,
      CreateRecordingBody,
      CreatedEnvelope('recording'),
    ),
    notFound: true,
    conflict: true,
  },
  read(
    '/v2/recording/{recordingId}',
    'getRecording',
    'Get a recording (404 when there is none)',
    TAG,
    ObjectEnvelope('recording', RecordingRecord),
    { notFound: true },
  ),
  read(
    '/v2/recording/{recordingId}/transcript',
    'getRecordingTranscript',
    'Get the transcript of a recording: its segments in time order and its speakers (404 when there is no recording)',
    TAG,
    ObjectEnvelope('recordingTranscript', RecordingTranscriptRecord),
    { notFound: true },
  ),
  write(
    '/v2/recording/{recordingId}/delete',
    'deleteRecording',
    'Delete a recording, its audio file and its activity',
    TAG,
    200,
    undefined,
    Deleted,
  ),
];

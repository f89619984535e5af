import { newId } from '../../domain/ids.ts';
import {
  type RecordingSubject,
  SOURCE_UPLOAD,
  type SpeakerInfo,
  type TranscriptSegment,
} from '../../domain/recordings.ts';
import { insertMany } from '../../store/insert.ts';
import type { WorkspaceWrite } from '../../store/write.ts';
import { insertActivities } from '../deal-activities/writes.ts';

/** A recording to add, of a record that is in the workspace, its audio a ready file. */
export interface NewRecording {
  id?: string;
  fileId: string;
  subjectType: RecordingSubject;
  subjectId: string;
  title: string;
  duration: number;
  source?: string;
  coreSummary?: string | null;
  segments?: readonly TranscriptSegment[];
  speakers?: readonly SpeakerInfo[];
  ownerId: string | null;
  createdAt?: string;
  /** Its `recordingCreate` activity's id (a new one when not given). */
  activityId?: string;
  /** A deal's outcome at the time, for its activity (its current outcome when not given). */
  dealStatus?: string | null;
}

/**
 * Adds recordings, each with its `recordingCreate` activity on its record; the audio file is
 * attached to that record (it lists among its files, and goes with it). Returns the ids in order.
 */
export async function insertRecordings(
  w: WorkspaceWrite,
  recordings: readonly NewRecording[],
): Promise<string[]> {
  const rows = recordings.map((r) => ({
    workspace_id: w.workspaceId,
    id: r.id ?? newId(),
    file_id: r.fileId,
    subject_type: r.subjectType,
    subject_id: r.subjectId,
    title: r.title,
    duration: r.duration,
    source: r.source ?? SOURCE_UPLOAD,
    core_summary: r.coreSummary ?? null,
    // Every segment with its five keys in order, `confidence` null when not given.
    segments: JSON.stringify(
      (r.segments ?? []).map((s) => ({
        startTime: s.startTime,
        endTime: s.endTime,
        text: s.text,
        speakerId: s.speakerId,
        confidence: s.confidence ?? null,
      })),
    ),
    speakers: JSON.stringify(
      (r.speakers ?? []).map((s) => ({ speakerId: s.speakerId, label: s.label })),
    ),
    owner_id: r.ownerId,
    created_at: r.createdAt ?? w.now,
  }));
  if (rows.length === 0) return [];
  await insertMany(w.trx, 'recordings', rows);
  for (const row of rows) {
    await w.trx
      .updateTable('files')
      .set({ subject_type: row.subject_type, subject_id: row.subject_id })
      .where('workspace_id', '=', w.workspaceId)
      .where('id', '=', row.file_id)
      .execute();
  }
  await insertActivities(
    w,
    rows.map((row, i) => {
      const { activityId, dealStatus } = recordings[i]!;
      return {
        ...(activityId === undefined ? {} : { id: activityId }),
        ...(dealStatus === undefined ? {} : { dealStatus }),
        subjectType: row.subject_type as RecordingSubject,
        subjectId: row.subject_id,
        type: 'recordingCreate' as const,
        recordingId: row.id,
        date: row.created_at,
      };
    }),
  );
  return rows.map((r) => r.id);
}

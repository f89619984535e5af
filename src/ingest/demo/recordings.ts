/**
 * The demo's recordings (docs/decisions.md, Recordings): a meeting of a deal or lead is now and
 * then recorded; the recording keeps a short stand-in for its audio (an MP3 file's header: the
 * demo has no sound), a title, a duration, a summary and a transcript of the seller and the
 * customer. Ids and draws come from sequences of their own (`recordingIds`, `recordingRandom`).
 */
import type { NewRecording } from '../../resources/recordings/writes.ts';
import { insertRecordings } from '../../resources/recordings/writes.ts';
import type { WorkspaceWrite } from '../../store/write.ts';
import type { DemoContext, RecordInfo } from './context.ts';
import { iso } from './random.ts';
import * as words from './words.ts';

/** A recording to write, with its audio file's id and bytes. */
export interface DemoRecording extends NewRecording {
  id: string;
  fileId: string;
  audio: Buffer;
}

/** What the demo's audio files hold: an ID3v2.4 header with no frames, then silence. */
const AUDIO = Buffer.concat([
  Buffer.from('ID3', 'latin1'),
  Buffer.from([4, 0, 0, 0, 0, 0, 0]),
  Buffer.alloc(64),
]);

/**
 * A recording of `record`'s meeting at `ms`, its activity `activityId` with the deal's outcome
 * then (`dealStatus`).
 */
export function draftRecording(
  ctx: DemoContext,
  record: RecordInfo,
  ms: number,
  activityId: string,
  dealStatus: string | null,
): void {
  const r = ctx.recordingRandom;
  const lines = r.sample(words.RECORDING_LINES, r.int(2, 4));
  let at = 0;
  const segments = lines.map(([speaker, text]) => {
    const length = r.int(2_000, 9_000);
    const segment = {
      startTime: at,
      endTime: at + length,
      text,
      speakerId: speaker === 'seller' ? 'spk-1' : 'spk-2',
      confidence: Math.round(r.int(820, 990)) / 1000,
    };
    at += length + r.int(200, 1_500);
    return segment;
  });
  ctx.out.recordings.push({
    id: ctx.recordingIds.next(ms),
    fileId: ctx.recordingIds.next(ms),
    audio: AUDIO,
    subjectType: record.kind,
    subjectId: record.id,
    title: `${record.name} ${r.pick(words.RECORDING_TITLES)}`,
    duration: r.int(180, 3_600),
    coreSummary: r.pick(words.RECORDING_SUMMARIES),
    segments,
    speakers: [
      { speakerId: 'spk-1', label: '영업 담당' },
      { speakerId: 'spk-2', label: record.person.name },
    ],
    ownerId: record.ownerId,
    createdAt: iso(ms),
    activityId,
    dealStatus,
  });
}

/** Writes recordings: each audio file (ready, one chunk, on the record), then the recording. */
export async function insertDemoRecordings(
  w: WorkspaceWrite,
  recordings: readonly DemoRecording[],
): Promise<void> {
  for (const rec of recordings) {
    await w.trx
      .insertInto('files')
      .values({
        workspace_id: w.workspaceId,
        id: rec.fileId,
        name: `${rec.title}.mp3`,
        content_type: 'audio/mpeg',
        size: rec.audio.length,
        chunk_count: 1,
        status: 'ready',
        subject_type: rec.subjectType,
        subject_id: rec.subjectId,
        memo: null,
        owner_id: rec.ownerId,
        created_at: rec.createdAt!,
      })
      .execute();
    await w.trx
      .insertInto('file_chunks')
      .values({ workspace_id: w.workspaceId, file_id: rec.fileId, seq: 0, data: rec.audio })
      .execute();
  }
  await insertRecordings(w, recordings);
}

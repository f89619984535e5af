import type { Selectable } from 'kysely';
import { RECORDING } from '../domain/record-types/recordings.ts';
import type { RecordingTable } from '../model/tables.ts';
import { renderDeclared } from './declared.ts';

/** A recording row with its owner's name, as the recording queries read it. */
export type RecordingRow = Selectable<RecordingTable> & { owner_name: string | null };

/**
 * A recording of `GET /v2/recording/{recordingId}` (docs/decisions.md, Recordings), as
 * `src/domain/record-types/recordings.ts` declares it; a deleted owner is named `''`.
 */
export function renderRecording(row: RecordingRow): Record<string, unknown> {
  const owner = row.owner_id === null ? null : { id: row.owner_id, name: row.owner_name ?? '' };
  return renderDeclared(RECORDING, row, {
    owner,
    teams: [],
    customFields: [],
    nameOf: () => undefined,
  });
}

/** The transcript of `GET /v2/recording/{recordingId}/transcript`: segments, then speakers. */
export function renderRecordingTranscript(
  row: Pick<RecordingTable, 'segments' | 'speakers'>,
): Record<string, unknown> {
  return {
    transcriptSegmentList: JSON.parse(row.segments),
    speakerInfoList: JSON.parse(row.speakers),
  };
}

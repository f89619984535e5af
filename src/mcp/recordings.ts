import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { READS } from './read-tools.ts';
import { recordId } from './record-types.ts';
import { answer, apiError, succeeded } from './results.ts';
import { apiCallOf } from './tool-call.ts';

/** The most characters of a transcript `get_recording` shows. */
const MAX_TRANSCRIPT_CHARS = 100_000;

/** `get_recording`: its description, input schema and annotations, built once. */
const GET_RECORDING_TOOL = {
  title: 'Read a recorded call',
  description: `A recorded call (title, seconds, summary, owner), then its transcript as lines "[m:ss] speaker: text" (first ${MAX_TRANSCRIPT_CHARS} chars). Ids: recordingId of activities.`,
  inputSchema: { id: recordId },
  annotations: READS,
};

interface Segment {
  startTime: number;
  text: string;
  speakerId: string;
}

/** `m:ss` (or `h:mm:ss`) of a time in milliseconds from the start. */
function clock(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const ss = String(seconds % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** The transcript as a model reads it: a line a segment, its time and speaker's label first. */
export function transcriptText(
  segments: readonly Segment[],
  speakers: readonly { speakerId: string; label: string }[],
): string {
  const labels = new Map(speakers.map((s) => [s.speakerId, s.label]));
  return segments
    .map((s) => `[${clock(s.startTime)}] ${labels.get(s.speakerId) ?? s.speakerId}: ${s.text}`)
    .join('\n');
}

/** Registers `get_recording`. */
export function registerRecordingReads(server: McpServer): void {
  server.registerTool('get_recording', GET_RECORDING_TOOL, async ({ id }, extra) => {
    const call = apiCallOf(extra);
    const path = `/v2/recording/${encodeURIComponent(id)}`;
    const recording = await call('GET', path);
    if (!succeeded(recording)) return apiError(recording);
    const transcript = await call('GET', `${path}/transcript`);
    if (!succeeded(transcript)) return apiError(transcript);
    const { transcriptSegmentList, speakerInfoList } = transcript.json.data.recordingTranscript;
    const text = transcriptText(transcriptSegmentList, speakerInfoList);
    const shown = text.length > MAX_TRANSCRIPT_CHARS ? text.slice(0, MAX_TRANSCRIPT_CHARS) : text;
    const result: CallToolResult = answer({
      ...recording.json.data.recording,
      segments: transcriptSegmentList.length,
      truncated: shown.length < text.length,
    });
    if (shown !== '') result.content.push({ type: 'text', text: shown });
    return result;
  });
}

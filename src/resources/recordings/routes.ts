import type { FastifyInstance } from 'fastify';
import { CreateRecordingBody } from '../../api-schema/bodies/recordings.ts';
import { readQuery } from '../../http/query.ts';
import { checkedId } from '../../http/record-route.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { nameIgnored, sendJson } from '../../http/send.ts';
import { registerCreate, registerDelete } from '../../http/write-routes.ts';
import { renderRecording, renderRecordingTranscript } from '../../render/recordings.ts';
import { createRecording, deleteRecording, recordingNotFound } from './commands.ts';
import { recordingRow } from './queries.ts';

/**
 * Recordings (docs/decisions.md, Recordings): `POST /v2/recording` keeps one (its audio a file
 * uploaded before), `GET /v2/recording/{recordingId}` and `…/transcript` read it as the live API
 * does, `POST /v2/recording/{recordingId}/delete` removes it with its audio.
 */
export function registerRecordingRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { store, base } = deps;
  registerCreate(
    app,
    deps,
    { path: '/v2/recording', key: 'recording', body: CreateRecordingBody },
    createRecording,
  );

  app.get<{ Params: { recordingId: string } }>(
    `${base}/v2/recording/:recordingId`,
    { config: { errorShape: 'A' } },
    async (request, reply) => {
      const id = checkedId('recordingId', request.params.recordingId);
      nameIgnored(reply, readQuery(request.query, []));
      const row = await recordingRow(store.reader, request.auth.workspaceId, id);
      if (!row) throw recordingNotFound(id);
      return sendJson(
        reply,
        JSON.stringify({ success: true, data: { recording: renderRecording(row) } }),
      );
    },
  );

  app.get<{ Params: { recordingId: string } }>(
    `${base}/v2/recording/:recordingId/transcript`,
    { config: { errorShape: 'A' } },
    async (request, reply) => {
      const id = checkedId('recordingId', request.params.recordingId);
      nameIgnored(reply, readQuery(request.query, []));
      const row = await recordingRow(store.reader, request.auth.workspaceId, id);
      if (!row) throw recordingNotFound(id);
      return sendJson(
        reply,
        JSON.stringify({
          success: true,
          data: { recordingTranscript: renderRecordingTranscript(row) },
        }),
      );
    },
  );

  registerDelete(
    app,
    deps,
    { path: '/v2/recording/:recordingId/delete', param: 'recordingId' },
    (w, _actor, id) => deleteRecording(w, id),
  );
}

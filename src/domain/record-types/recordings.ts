/**
 * The recording record (`GET /v2/recording/{recordingId}`), declared once (docs/architecture.md,
 * Record types): a call another system recorded, kept with its audio (docs/decisions.md,
 * Recordings). No custom fields, notes or field list.
 */
import { column, declareRecordType, derived } from './declaration.ts';

export const RECORDING = declareRecordType({
  type: 'recording',
  keys: [
    column('id', 'id', 'id', 'service'),
    column('title', 'title', 'text', 'body', { bodyKey: 'title', required: true }),
    column('duration', 'duration', 'number', 'body', { bodyKey: 'duration', required: true }),
    column('source', 'source', 'text', 'body', { bodyKey: 'source' }),
    column('coreSummary', 'core_summary', 'optionalText', 'body', { bodyKey: 'coreSummary' }),
    column('createdAt', 'created_at', 'timestamp', 'service'),
    derived('owner', 'owner', 'optionalRef', 'user'),
  ],
  facts: [],
  customFields: false,
});

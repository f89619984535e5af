/**
 * The routes of the service itself, outside `/v2` (tag Service): no token, no rate limit.
 * The probes stay at the root; the document and its page move under BASE_PATH.
 */
import { Type } from '@sinclair/typebox';
import { type Operation, service } from './operation.ts';

/** In the order the OpenAPI document lists them. */
export const SERVICE_OPERATIONS: readonly Operation[] = [
  service(
    '/healthz',
    'health',
    'Liveness: 200 while the process runs',
    Type.Object({ status: Type.Literal('ok') }),
  ),
  service(
    '/readyz',
    'readiness',
    'Readiness: 200 when the database answers, else 503',
    Type.Object({ status: Type.Literal('ready') }),
  ),
  {
    ...service(
      '/openapi.json',
      'openapi',
      'This document',
      Type.Object({}, { additionalProperties: true }),
    ),
    underBase: true,
  },
  {
    ...service('/docs', 'docs', 'The interactive reference page', undefined),
    contentType: 'text/html',
    underBase: true,
  },
  {
    ...service(
      '/docs/{asset}',
      'docsAsset',
      'A file of the reference page (Swagger UI)',
      undefined,
    ),
    contentType: 'application/octet-stream',
    underBase: true,
  },
];

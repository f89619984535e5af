/**
 * The webhooks' operations (tag Webhooks, docs/decisions.md, Events and webhooks): register, list,
 * read, update, delete and rotate a webhook's secret, then its delivery log and a delivery's
 * replay.
 */
import { Type } from '@sinclair/typebox';
import { DELIVERY_STATUSES } from '../../domain/webhook-retry.ts';
import { CreateWebhookBody, UpdateWebhookBody } from '../bodies/webhooks.ts';
import { Deleted, ListEnvelope, ObjectEnvelope } from '../envelopes.ts';
import { NewWebhookRecord, WebhookDeliveryRecord, WebhookRecord } from '../records/webhooks.ts';
import { type Operation, read, write } from './operation.ts';
import { page } from './parameters.ts';

const TAG = 'Webhooks';

/** In the order the OpenAPI document lists them. */
export const WEBHOOK_OPERATIONS: readonly Operation[] = [
  write(
    '/v2/webhook',
    'createWebhook',
    'Register a webhook (its URL must answer a signed verification POST with a 2xx within 10 s)',
    TAG,
    201,
    CreateWebhookBody,
    ObjectEnvelope('webhook', NewWebhookRecord),
  ),
  read(
    '/v2/webhook',
    'listWebhooks',
    'List the webhooks of the workspace',
    TAG,
    ListEnvelope('webhookList', WebhookRecord, []),
  ),
  read(
    '/v2/webhook/{webhookId}',
    'getWebhook',
    'Get one webhook',
    TAG,
    ObjectEnvelope('webhook', WebhookRecord),
    { notFound: true },
  ),
  write(
    '/v2/webhook/{webhookId}',
    'updateWebhook',
    'Update a webhook (a new URL is verified again; `active` resets its failure count)',
    TAG,
    200,
    UpdateWebhookBody,
    ObjectEnvelope('webhook', WebhookRecord),
  ),
  write(
    '/v2/webhook/{webhookId}/delete',
    'deleteWebhook',
    'Delete a webhook with its deliveries',
    TAG,
    200,
    undefined,
    Deleted,
  ),
  write(
    '/v2/webhook/{webhookId}/rotate-secret',
    'rotateWebhookSecret',
    'Give a webhook a new secret (the old one keeps signing beside it for 24 hours)',
    TAG,
    200,
    undefined,
    ObjectEnvelope('webhook', NewWebhookRecord),
  ),
  read(
    '/v2/webhook/{webhookId}/delivery',
    'listWebhookDeliveries',
    'List the deliveries of a webhook, newest first',
    TAG,
    ListEnvelope('deliveryList', WebhookDeliveryRecord),
    {
      query: [
        {
          name: 'status',
          schema: Type.Union(DELIVERY_STATUSES.map((s) => Type.Literal(s))),
          description: `Only deliveries in this status: ${DELIVERY_STATUSES.join(', ')}.`,
        },
        ...page,
      ],
      notFound: true,
    },
  ),
  write(
    '/v2/webhook/{webhookId}/delivery/{deliveryId}/replay',
    'replayWebhookDelivery',
    'Send a delivery again: it is pending and due now (202)',
    TAG,
    202,
    undefined,
    Deleted,
  ),
];

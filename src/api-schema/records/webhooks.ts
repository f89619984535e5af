/** The webhooks of a workspace and their deliveries (docs/decisions.md, Events and webhooks). */
import { type Static, Type } from '@sinclair/typebox';
import {
  type EVENT_OBJECT_TYPES,
  EVENT_TOPICS,
  type EventObjectType,
} from '../../domain/events.ts';
import { DELIVERY_STATUSES } from '../../domain/webhook-retry.ts';
import { Id, Nullable, OneOf, Timestamp } from '../primitives.ts';
import { Closed, count, optionalText } from './common.ts';

/** Record types a webhook subscribes to (`customObject`: the records of every definition). */
export const WEBHOOK_OBJECT_TYPES = [
  'people',
  'organization',
  'lead',
  'deal',
  'customObject',
] as const satisfies readonly EventObjectType[];
/** What a webhook is: sending, or turned off (by a client, or after ten failed deliveries). */
export const WEBHOOK_STATUSES = ['active', 'disabled'] as const;
/** How an event names its record type. */
export const EVENT_OBJECT_NAMES = [
  '고객',
  '회사',
  '리드',
  '딜',
  '커스텀 오브젝트',
] as const satisfies readonly (typeof EVENT_OBJECT_TYPES)[EventObjectType][];

const webhookKeys = {
  id: Id,
  url: Type.String({ examples: ['https://hooks.example.com/salescrm'] }),
  objectTypeList: Type.Array(OneOf(WEBHOOK_OBJECT_TYPES)),
  eventList: Type.Array(OneOf(EVENT_TOPICS)),
  fieldList: Nullable(
    Type.Array(Type.String(), {
      description: 'The fields whose 수정 are sent; null for every field',
    }),
  ),
  status: OneOf(WEBHOOK_STATUSES),
};

/** A webhook as lists and reads show it: never its secret. */
export const WebhookRecord = Closed({ ...webhookKeys, createdAt: Timestamp }, 'A webhook');
export type WebhookRecord = Static<typeof WebhookRecord>;

/** A webhook as its creation and a secret rotation show it: with the signing secret. */
export const NewWebhookRecord = Closed(
  {
    ...webhookKeys,
    secret: Type.String({
      description:
        'Signs the deliveries (Standard Webhooks): `whsec_` and base64. Shown only on creation and rotation',
      examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    }),
    createdAt: Timestamp,
  },
  'A webhook with its signing secret',
);
export type NewWebhookRecord = Static<typeof NewWebhookRecord>;

/** One event sent (or to be sent) to one webhook, and how its sending went. */
export const WebhookDeliveryRecord = Closed(
  {
    id: Id,
    eventId: Nullable(Id),
    event: Nullable(OneOf(EVENT_TOPICS)),
    objectType: Nullable(OneOf(EVENT_OBJECT_NAMES)),
    objectId: Nullable(Id),
    status: OneOf(DELIVERY_STATUSES),
    attemptCount: count,
    lastStatusCode: Nullable(Type.Integer()),
    lastError: optionalText,
    nextAttemptAt: Nullable(Timestamp),
    deliveredAt: Nullable(Timestamp),
  },
  'A delivery of an event to a webhook; the event keys are null once the event is past its retention',
);
export type WebhookDeliveryRecord = Static<typeof WebhookDeliveryRecord>;

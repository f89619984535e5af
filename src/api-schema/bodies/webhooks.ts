import { type Static, Type } from '@sinclair/typebox';
import { EVENT_TOPICS } from '../../domain/events.ts';
import { WEBHOOK_URL_MAX_LENGTH } from '../../domain/webhook-url.ts';
import { Nullable, OneOf } from '../primitives.ts';
import { WEBHOOK_OBJECT_TYPES, WEBHOOK_STATUSES } from '../records/webhooks.ts';

/** Field names a webhook may filter its `수정` by, at most. */
export const MAX_WEBHOOK_FIELDS = 500;

const url = Type.String({
  minLength: 1,
  maxLength: WEBHOOK_URL_MAX_LENGTH,
  description:
    'http(s) URL that receives the events; it must answer a signed verification POST with a 2xx within 10 s',
  examples: ['https://hooks.example.com/salescrm'],
});
const objectTypeList = Type.Array(OneOf(WEBHOOK_OBJECT_TYPES), {
  minItems: 1,
  maxItems: WEBHOOK_OBJECT_TYPES.length,
  uniqueItems: true,
  description: 'The record types whose events are sent',
});
const eventList = Type.Array(OneOf(EVENT_TOPICS), {
  minItems: 1,
  maxItems: EVENT_TOPICS.length,
  uniqueItems: true,
  description: 'The topics sent (default all four)',
});
const fieldList = Nullable(
  Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
    minItems: 1,
    maxItems: MAX_WEBHOOK_FIELDS,
    uniqueItems: true,
    description: 'Only the 수정 of these fields are sent; null or absent for every field',
  }),
);

/** Body of `POST /v2/webhook`. */
export const CreateWebhookBody = Type.Object({
  url,
  objectTypeList,
  eventList: Type.Optional(eventList),
  fieldList: Type.Optional(fieldList),
});
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;

/** Body of `POST /v2/webhook/{webhookId}`: what changes; a new `url` is verified again. */
export const UpdateWebhookBody = Type.Object({
  url: Type.Optional(url),
  objectTypeList: Type.Optional(objectTypeList),
  eventList: Type.Optional(eventList),
  fieldList: Type.Optional(fieldList),
  status: Type.Optional(OneOf(WEBHOOK_STATUSES)),
});
export type UpdateWebhookBody = Static<typeof UpdateWebhookBody>;

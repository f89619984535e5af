/**
 * The event feed (tag Events): the workspace's changes, in commit order (docs/decisions.md, Events
 * and webhooks).
 */
import { Type } from '@sinclair/typebox';
import { EVENT_OBJECT_TYPES } from '../../domain/events.ts';
import { EventFeedItem } from '../records/events.ts';
import { type Operation, read } from './operation.ts';
import { PARAMETERS } from './parameters.ts';

/** `{success, data: {eventList, nextCursor, hasMore}}`: `nextCursor` is never null. */
const EventFeedEnvelope = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object(
      {
        eventList: Type.Array(EventFeedItem),
        nextCursor: Type.String({
          description:
            'Where the next page starts; at the end, where to poll from later. Never null.',
        }),
        hasMore: Type.Boolean({ description: 'Whether more events are waiting now' }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

/** In the order the OpenAPI document lists them. */
export const EVENT_OPERATIONS: readonly Operation[] = [
  read('/v2/event', 'listEvents', 'List the workspace’s events', 'Events', EventFeedEnvelope, {
    query: [
      PARAMETERS.cursor,
      PARAMETERS.limit,
      {
        name: 'objectType',
        schema: Type.Union(Object.keys(EVENT_OBJECT_TYPES).map((t) => Type.Literal(t))),
        description: 'Only the events of this record type.',
      },
    ],
    gone: true,
  }),
];

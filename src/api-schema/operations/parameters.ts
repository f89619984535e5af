/**
 * The query parameters of the operations: the shared ones (page, cursor, activity types,
 * dates) and the helpers that build a list's filters from them.
 */
import { type TSchema, Type } from '@sinclair/typebox';
import { ACTIVITY_TYPES } from '../../domain/activities.ts';

/** A query parameter of an operation. */
export interface QueryParameter {
  name: string;
  schema: TSchema;
  description: string;
  /** Whether the operation needs it (400 without it). */
  required?: boolean;
}

/** Query parameters shared by the lists. */
export const PARAMETERS = {
  cursor: {
    name: 'cursor',
    schema: Type.String({ minLength: 1, maxLength: 1000 }),
    description:
      'The `nextCursor` of the previous page, as it came. Bound to the endpoint and its filters; a cursor that was altered or comes from elsewhere is 400.',
  },
  limit: {
    name: 'limit',
    schema: Type.Integer({ minimum: 1, default: 50 }),
    description:
      'Records per page: a positive integer, 50 by default; larger values give 100. Zero, negative or non-integer is 400.',
  },
  types: {
    name: 'types',
    schema: Type.String({
      pattern: `^(${ACTIVITY_TYPES.join('|')})(,(${ACTIVITY_TYPES.join('|')}))*$`,
      examples: ['email,emailOpen'],
    }),
    description: `Comma-separated activity types: ${ACTIVITY_TYPES.join(', ')}.`,
  },
  startDate: {
    name: 'startDate',
    schema: Type.String({ examples: ['2024-04-01', '2024-04-01T09:00:00+09:00'] }),
    description:
      '`YYYY-MM-DD` (from the start of that day, Korea time) or an ISO 8601 time with offset. After `endDate` is 400.',
  },
  endDate: {
    name: 'endDate',
    schema: Type.String({ examples: ['2024-04-30', '2024-04-30T18:00:00+09:00'] }),
    description:
      '`YYYY-MM-DD` (to the end of that day, Korea time) or an ISO 8601 time with offset.',
  },
  fieldList: {
    name: 'fieldList',
    schema: Type.String({ minLength: 1, examples: ['이름,이메일'] }),
    description:
      'Comma-separated field names (as `GET /v2/field/{type}` lists them): each record then holds `id` and those fields only, in its own key order. An unknown name is 400.',
  },
} satisfies Record<string, QueryParameter>;

/** A record-id filter (`peopleId`, `dealId`, ...). */
export function idFilter(name: string, description: string): QueryParameter {
  return { name, schema: Type.String({ minLength: 1, maxLength: 64 }), description };
}

/** A list's paging parameters: `cursor` and `limit`. */
export const page = [PARAMETERS.cursor, PARAMETERS.limit];

/** A list of records: paging, and the fields to keep. */
export const recordPage = [...page, PARAMETERS.fieldList];

/** An activity list with its record filter, `types`, `startDate` and `endDate`. */
export function activityQuery(idParam: string, what: string): QueryParameter[] {
  return [
    ...page,
    idFilter(idParam, `Only the activities of this ${what}.`),
    PARAMETERS.types,
    PARAMETERS.startDate,
    PARAMETERS.endDate,
  ];
}

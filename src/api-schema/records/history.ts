/**
 * The history records (docs/decisions.md, Record keys) of the people, deal, lead and organization
 * change lists: closed objects naming the changed field, its new value, who changed it and when.
 */
import { type Static, Type } from '@sinclair/typebox';
import { PEOPLE_HISTORY_TYPES } from '../../domain/history.ts';
import { Id, Nullable, OneOf, Ref, Timestamp } from '../primitives.ts';
import { Closed, text } from './common.ts';

const historyType = OneOf(PEOPLE_HISTORY_TYPES);
const historyTail = {
  fieldName: text,
  fieldValue: Nullable(Type.String({ description: 'The new value as text; null when cleared' })),
  ownerId: Nullable(Id),
  createdAt: Timestamp,
};

/** The people history record (docs/decisions.md, Record keys) of `GET /v2/people/history`. */
export const PeopleHistoryRecord = Closed(
  {
    id: Id,
    peopleId: Id,
    type: historyType,
    organization: Nullable(Ref),
    ...historyTail,
  },
  'A change of a person',
);
export type PeopleHistoryRecord = Static<typeof PeopleHistoryRecord>;

/** A deal or lead history record: its person and organization at the time as Refs. */
function pipelineHistory<K extends string>(idKey: K, description: string) {
  return Closed(
    {
      id: Id,
      ...({ [idKey]: Id } as { [P in K]: typeof Id }),
      type: historyType,
      people: Nullable(Ref),
      organization: Nullable(Ref),
      ...historyTail,
    },
    description,
  );
}

/** The deal history record of `GET /v2/deal/history`. */
export const DealHistoryRecord = pipelineHistory('dealId', 'A change of a deal');
export type DealHistoryRecord = Static<typeof DealHistoryRecord>;
/** The lead history record of `GET /v2/lead/history`. */
export const LeadHistoryRecord = pipelineHistory('leadId', 'A change of a lead');
export type LeadHistoryRecord = Static<typeof LeadHistoryRecord>;

/** The organization history record of `GET /v2/organization/history`. */
export const OrganizationHistoryRecord = Closed(
  { id: Id, organizationId: Id, type: historyType, ...historyTail },
  'A change of an organization',
);
export type OrganizationHistoryRecord = Static<typeof OrganizationHistoryRecord>;

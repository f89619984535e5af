/**
 * The activity records (docs/decisions.md, Record keys) of the deal, lead, people and organization
 * activity lists: closed objects with the activity's type, date, subject and linked records.
 */
import type { Static } from '@sinclair/typebox';
import { ACTIVITY_TYPES } from '../../domain/activities.ts';
import { DEAL_OUTCOMES } from '../../domain/deals.ts';
import { Id, Nullable, OneOf, Timestamp } from '../primitives.ts';
import { Closed } from './common.ts';

const activityType = OneOf(ACTIVITY_TYPES);
const activityLinks = {
  webFormId: Nullable(Id),
  smsId: Nullable(Id),
  todoId: Nullable(Id),
  memoId: Nullable(Id),
  emailMessageId: Nullable(Id),
};

/** The deal activity record (docs/decisions.md, Record keys) of `GET /v2/deal/activity`. */
export const DealActivityRecord = Closed(
  {
    id: Id,
    type: activityType,
    date: Timestamp,
    dealStatus: Nullable(OneOf(DEAL_OUTCOMES)),
    dealId: Id,
    ...activityLinks,
  },
  'An activity of a deal (or of a lead, with the lead id in dealId and dealStatus null)',
);
export type DealActivityRecord = Static<typeof DealActivityRecord>;

/**
 * An activity of a person, organization or lead: `dealId` renamed, no `dealStatus`, and the
 * e-mail's id also under `emailId` (the live API's key for it in these lists).
 */
function subjectActivity<K extends string>(idKey: K, description: string) {
  return Closed(
    {
      id: Id,
      type: activityType,
      date: Timestamp,
      ...({ [idKey]: Id } as { [P in K]: typeof Id }),
      ...activityLinks,
      emailId: Nullable(Id),
    },
    description,
  );
}

/** The people activity record of `GET /v2/people/activity`. */
export const PeopleActivityRecord = subjectActivity('peopleId', 'An activity of a person');
export type PeopleActivityRecord = Static<typeof PeopleActivityRecord>;
/** The organization activity record of `GET /v2/organization/activity`. */
export const OrganizationActivityRecord = subjectActivity(
  'organizationId',
  'An activity of an organization',
);
export type OrganizationActivityRecord = Static<typeof OrganizationActivityRecord>;
/** The lead activity record of `GET /v2/lead/activity`. */
export const LeadActivityRecord = subjectActivity('leadId', 'An activity of a lead');
export type LeadActivityRecord = Static<typeof LeadActivityRecord>;

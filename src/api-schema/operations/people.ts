/**
 * The people's operations (tag People): list, get, create, update and merge, then the
 * activity and change lists.
 */
import { MergeBody } from '../bodies/merges.ts';
import { CreatePersonBody, UpdatePersonBody } from '../bodies/people.ts';
import {
  CreatedEnvelope,
  ListEnvelope,
  RecordEnvelope,
  UpdatedEnvelope,
  WithFieldChoice,
} from '../envelopes.ts';
import { PeopleActivityRecord } from '../records/activities.ts';
import { PeopleHistoryRecord } from '../records/history.ts';
import { PeopleRecord } from '../records/people-organizations.ts';
import { type Operation, read, write } from './operation.ts';
import { activityQuery, idFilter, PARAMETERS, page, recordPage } from './parameters.ts';

/** In the order the OpenAPI document lists them. */
export const PEOPLE_OPERATIONS: readonly Operation[] = [
  read(
    '/v2/people',
    'listPeople',
    'List people',
    'People',
    ListEnvelope('peopleList', WithFieldChoice(PeopleRecord)),
    {
      query: recordPage,
    },
  ),
  read(
    '/v2/people/{peopleId}',
    'getPeople',
    'Get one person',
    'People',
    RecordEnvelope('people', WithFieldChoice(PeopleRecord)),
    {
      query: [PARAMETERS.fieldList],
      notFound: true,
    },
  ),
  write(
    '/v2/people',
    'createPeople',
    'Create a person',
    'People',
    201,
    CreatePersonBody,
    CreatedEnvelope('people'),
  ),
  write(
    '/v2/people/{peopleId}',
    'updatePeople',
    'Update a person',
    'People',
    200,
    UpdatePersonBody,
    UpdatedEnvelope('people'),
  ),
  write(
    '/v2/people/{peopleId}/merge',
    'mergePeople',
    'Merge another person into a person',
    'People',
    200,
    MergeBody,
    UpdatedEnvelope('people'),
  ),
  read(
    '/v2/people/activity',
    'listPeopleActivities',
    'List activities of people',
    'People',
    ListEnvelope('peopleActivityList', PeopleActivityRecord),
    {
      query: activityQuery('peopleId', 'person'),
    },
  ),
  read(
    '/v2/people/history',
    'listPeopleHistory',
    'List changes of people',
    'People',
    ListEnvelope('peopleHistoryList', PeopleHistoryRecord),
    {
      query: [...page, idFilter('peopleId', 'Only the changes of this person.')],
    },
  ),
];

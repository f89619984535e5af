/**
 * The organizations' operations (tag Organizations): list, get, create, update and merge,
 * then the activity and change lists.
 */
import { MergeBody } from '../bodies/merges.ts';
import { CreateOrganizationBody, UpdateOrganizationBody } from '../bodies/organizations.ts';
import {
  CreatedEnvelope,
  ListEnvelope,
  RecordEnvelope,
  UpdatedEnvelope,
  WithFieldChoice,
} from '../envelopes.ts';
import { OrganizationActivityRecord } from '../records/activities.ts';
import { OrganizationHistoryRecord } from '../records/history.ts';
import { OrganizationRecord } from '../records/people-organizations.ts';
import { type Operation, read, write } from './operation.ts';
import { activityQuery, idFilter, PARAMETERS, page, recordPage } from './parameters.ts';

/** In the order the OpenAPI document lists them. */
export const ORGANIZATION_OPERATIONS: readonly Operation[] = [
  read(
    '/v2/organization',
    'listOrganizations',
    'List organizations',
    'Organizations',
    ListEnvelope('organizationList', WithFieldChoice(OrganizationRecord)),
    {
      query: recordPage,
    },
  ),
  read(
    '/v2/organization/{organizationId}',
    'getOrganization',
    'Get one organization',
    'Organizations',
    RecordEnvelope('organization', WithFieldChoice(OrganizationRecord)),
    {
      query: [PARAMETERS.fieldList],
      notFound: true,
    },
  ),
  write(
    '/v2/organization',
    'createOrganization',
    'Create an organization',
    'Organizations',
    201,
    CreateOrganizationBody,
    CreatedEnvelope('organization'),
  ),
  write(
    '/v2/organization/{organizationId}',
    'updateOrganization',
    'Update an organization',
    'Organizations',
    200,
    UpdateOrganizationBody,
    UpdatedEnvelope('organization'),
  ),
  write(
    '/v2/organization/{organizationId}/merge',
    'mergeOrganization',
    'Merge another organization into an organization',
    'Organizations',
    200,
    MergeBody,
    UpdatedEnvelope('organization'),
  ),
  read(
    '/v2/organization/activity',
    'listOrganizationActivities',
    'List activities of organizations',
    'Organizations',
    ListEnvelope('organizationActivityList', OrganizationActivityRecord),
    {
      query: activityQuery('organizationId', 'organization'),
    },
  ),
  read(
    '/v2/organization/history',
    'listOrganizationHistory',
    'List changes of organizations',
    'Organizations',
    ListEnvelope('organizationHistoryList', OrganizationHistoryRecord),
    {
      query: [...page, idFilter('organizationId', 'Only the changes of this organization.')],
    },
  ),
];

/**
 * The leads' operations (tag Leads): list, get, create, update, delete and merge, then a lead's
 * quotes, the activity and change lists, and the lead pipelines.
 */
import { CreateLeadBody, UpdateLeadBody } from '../bodies/leads.ts';
import { MergeBody } from '../bodies/merges.ts';
import {
  CreatedEnvelope,
  Deleted,
  ListEnvelope,
  RecordEnvelope,
  UpdatedEnvelope,
  WithFieldChoice,
} from '../envelopes.ts';
import { LeadActivityRecord } from '../records/activities.ts';
import { LeadRecord, PipelineRecord } from '../records/deals-leads.ts';
import { LeadHistoryRecord } from '../records/history.ts';
import { QuoteRecord } from '../records/products-quotes.ts';
import { CUROSR, type Operation, read, write } from './operation.ts';
import { activityQuery, idFilter, PARAMETERS, page, recordPage } from './parameters.ts';

/** In the order the OpenAPI document lists them. */
export const LEAD_OPERATIONS: readonly Operation[] = [
  read(
    '/v2/lead',
    'listLeads',
    'List leads',
    'Leads',
    ListEnvelope('leadList', WithFieldChoice(LeadRecord), CUROSR),
    {
      query: recordPage,
    },
  ),
  read(
    '/v2/lead/{leadId}',
    'getLead',
    'Get one lead',
    'Leads',
    RecordEnvelope('lead', WithFieldChoice(LeadRecord)),
    {
      query: [PARAMETERS.fieldList],
      notFound: true,
    },
  ),
  write(
    '/v2/lead',
    'createLead',
    'Create a lead',
    'Leads',
    201,
    CreateLeadBody,
    CreatedEnvelope('lead'),
  ),
  write(
    '/v2/lead/{leadId}',
    'updateLead',
    'Update a lead',
    'Leads',
    200,
    UpdateLeadBody,
    UpdatedEnvelope('lead'),
  ),
  write(
    '/v2/lead/{leadId}/delete',
    'deleteLead',
    'Delete a lead',
    'Leads',
    200,
    undefined,
    Deleted,
  ),
  write(
    '/v2/lead/{leadId}/merge',
    'mergeLead',
    'Merge another lead into a lead',
    'Leads',
    200,
    MergeBody,
    UpdatedEnvelope('lead'),
  ),
  read(
    '/v2/lead/{leadId}/quote',
    'listLeadQuotes',
    'List the quotes of a lead',
    'Leads',
    ListEnvelope('quoteList', QuoteRecord, []),
    {
      notFound: true,
    },
  ),
  read(
    '/v2/lead/activity',
    'listLeadActivities',
    'List activities of leads',
    'Leads',
    ListEnvelope('leadActivityList', LeadActivityRecord),
    {
      query: activityQuery('leadId', 'lead'),
    },
  ),
  read(
    '/v2/lead/history',
    'listLeadHistory',
    'List changes of leads',
    'Leads',
    ListEnvelope('leadHistoryList', LeadHistoryRecord),
    {
      query: [...page, idFilter('leadId', 'Only the changes of this lead.')],
    },
  ),
  read(
    '/v2/lead/pipeline',
    'listLeadPipelines',
    'List lead pipelines and their stages',
    'Leads',
    ListEnvelope('pipelineList', PipelineRecord, []),
  ),
];

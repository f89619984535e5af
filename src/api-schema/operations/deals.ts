/**
 * The deals' operations (tag Deals): list, get, create, update, delete and merge, then a deal's
 * quotes, the activity and change lists, and the deal pipelines.
 */
import { Type } from '@sinclair/typebox';
import { CreateDealBody, UpdateDealBody } from '../bodies/deals.ts';
import { MergeBody } from '../bodies/merges.ts';
import {
  CreatedEnvelope,
  Deleted,
  ListEnvelope,
  RecordEnvelope,
  UpdatedEnvelope,
  WithFieldChoice,
} from '../envelopes.ts';
import { DealActivityRecord } from '../records/activities.ts';
import {
  AnyPipelineRecord,
  DealRecord,
  PipelineRecord,
  SingleDealRecord,
} from '../records/deals-leads.ts';
import { DealHistoryRecord } from '../records/history.ts';
import { QuoteRecord } from '../records/products-quotes.ts';
import { CUROSR, type Operation, read, write } from './operation.ts';
import { activityQuery, idFilter, page, recordPage } from './parameters.ts';

/** In the order the OpenAPI document lists them. */
export const DEAL_OPERATIONS: readonly Operation[] = [
  read(
    '/v2/deal',
    'listDeals',
    'List deals',
    'Deals',
    ListEnvelope('dealList', WithFieldChoice(DealRecord), CUROSR),
    {
      query: [
        ...recordPage,
        {
          name: 'pipelineName',
          schema: Type.String({ minLength: 1 }),
          description:
            'Exact, case-sensitive name of a deal pipeline. A name no pipeline has is 400.',
        },
        {
          name: 'pipelineStageName',
          schema: Type.String({ minLength: 1 }),
          description:
            'Exact name of a stage; alone, it matches that stage in every deal pipeline. A stage the named pipeline lacks is 400.',
        },
      ],
    },
  ),
  read(
    '/v2/deal/{dealId}',
    'getDeal',
    'Get one deal',
    'Deals',
    RecordEnvelope('deal', SingleDealRecord),
    {
      errorShape: 'B',
      notFound: true,
    },
  ),
  write(
    '/v2/deal',
    'createDeal',
    'Create a deal',
    'Deals',
    201,
    CreateDealBody,
    CreatedEnvelope('deal'),
  ),
  write(
    '/v2/deal/{dealId}',
    'updateDeal',
    'Update a deal',
    'Deals',
    200,
    UpdateDealBody,
    UpdatedEnvelope('deal'),
  ),
  write(
    '/v2/deal/{dealId}/delete',
    'deleteDeal',
    'Delete a deal',
    'Deals',
    200,
    undefined,
    Deleted,
  ),
  write(
    '/v2/deal/{dealId}/merge',
    'mergeDeal',
    'Merge another deal into a deal',
    'Deals',
    200,
    MergeBody,
    UpdatedEnvelope('deal'),
  ),
  read(
    '/v2/deal/{dealId}/quote',
    'listDealQuotes',
    'List the quotes of a deal',
    'Deals',
    ListEnvelope('quoteList', QuoteRecord, []),
    {
      notFound: true,
    },
  ),
  read(
    '/v2/deal/activity',
    'listDealActivities',
    'List activities of deals',
    'Deals',
    ListEnvelope('dealActivityList', DealActivityRecord),
    {
      query: activityQuery('dealId', 'deal (or lead)'),
    },
  ),
  read(
    '/v2/deal/history',
    'listDealHistory',
    'List changes of deals',
    'Deals',
    ListEnvelope('dealHistoryList', DealHistoryRecord),
    {
      query: [...page, idFilter('dealId', 'Only the changes of this deal.')],
    },
  ),
  read(
    '/v2/deal/pipeline',
    'listDealPipelines',
    'List deal pipelines and their stages',
    'Deals',
    ListEnvelope('pipelineList', PipelineRecord, []),
  ),
  read(
    '/v2/pipeline',
    'listPipelines',
    'List every pipeline (deal, lead and custom object), with its stages (ids under `_id`)',
    'Deals',
    ListEnvelope('pipelineList', AnyPipelineRecord, []),
  ),
];

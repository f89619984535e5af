/**
 * The batch operations (tag Batch, under `/v3`): many records read, created or updated in one
 * call, and a record type's pipelines and associations, in the request shapes of the most
 * used MCP client of the live API.
 */
import {
  AssociationListBody,
  AssociationRecord,
  BatchCreateBody,
  BatchCreated,
  BatchReadBody,
  BatchRecord,
  BatchTypeBody,
  BatchUpdateBody,
  BatchUpdated,
  ObjectListEnvelope,
} from '../bodies/batch.ts';
import { ListEnvelope } from '../envelopes.ts';
import { PipelineRecord } from '../records/deals-leads.ts';
import { type Operation, write } from './operation.ts';

/** In the order the OpenAPI document lists them. */
export const BATCH_OPERATIONS: readonly Operation[] = [
  {
    ...write(
      '/v3/object/read',
      'batchReadObjects',
      'Read up to 500 records of a type by id',
      'Batch',
      200,
      BatchReadBody,
      ObjectListEnvelope(BatchRecord),
    ),
    readsOnly: true,
  },
  write(
    '/v3/object/create',
    'batchCreateObjects',
    'Create up to 100 records of a type in one transaction',
    'Batch',
    201,
    BatchCreateBody,
    ObjectListEnvelope(BatchCreated),
  ),
  write(
    '/v3/object/update',
    'batchUpdateObjects',
    'Update up to 100 records of a type in one transaction',
    'Batch',
    200,
    BatchUpdateBody,
    ObjectListEnvelope(BatchUpdated),
  ),
  {
    ...write(
      '/v3/pipeline/list',
      'batchListPipelines',
      'List the pipelines of deals or leads',
      'Batch',
      200,
      BatchTypeBody,
      ListEnvelope('pipelineList', PipelineRecord, []),
    ),
    readsOnly: true,
  },
  {
    ...write(
      '/v3/association/list',
      'batchListAssociations',
      'List the record types a type can be associated with, and what links them',
      'Batch',
      200,
      AssociationListBody,
      ListEnvelope('associationList', AssociationRecord, []),
    ),
    readsOnly: true,
  },
];

/**
 * The custom objects' operations (tag Custom objects, docs/decisions.md, Other resources):
 * definitions, records (list, get, create, update, delete; the reads take `fieldList`), their activities
 * and their history. A note on a record is with the others (`addCustomObjectMemo`).
 */
import { Type } from '@sinclair/typebox';
import { CreateCustomObjectBody, UpdateCustomObjectBody } from '../bodies/custom-objects.ts';
import {
  CreatedEnvelope,
  Deleted,
  ListEnvelope,
  ObjectEnvelope,
  WithFieldChoice,
} from '../envelopes.ts';
import {
  CustomObjectActivityRecord,
  CustomObjectDefinitionRecord,
  CustomObjectHistoryRecord,
  CustomObjectRecord,
  CustomObjectUpdated,
} from '../records/custom-objects.ts';
import { type Operation, read, write } from './operation.ts';
import { activityQuery, idFilter, PARAMETERS, page, recordPage } from './parameters.ts';

const TAG = 'Custom objects';

const definitionFilters = [
  idFilter(
    'customObjectDefinitionId',
    'Only the records of this definition (with `customObjectDefinitionName`, both must name it).',
  ),
  {
    name: 'customObjectDefinitionName',
    schema: Type.String({ minLength: 1, maxLength: 200 }),
    description: 'Only the records of the definition of this exact name.',
  },
];

/** In the order the OpenAPI document lists them. */
export const CUSTOM_OBJECT_OPERATIONS: readonly Operation[] = [
  read(
    '/v2/custom-object-definitions',
    'listCustomObjectDefinitions',
    'List custom object definitions',
    TAG,
    ListEnvelope('customObjectDefinitionList', CustomObjectDefinitionRecord, []),
  ),
  read(
    '/v2/custom-object',
    'listCustomObjects',
    'List custom objects (all, or of one definition; an unknown definition is 404)',
    TAG,
    ListEnvelope('customObjectList', WithFieldChoice(CustomObjectRecord)),
    { query: [...recordPage, ...definitionFilters], notFound: true },
  ),
  read(
    '/v2/custom-object/{customObjectId}',
    'getCustomObject',
    'Get one custom object',
    TAG,
    ObjectEnvelope('customObject', WithFieldChoice(CustomObjectRecord)),
    { query: [PARAMETERS.fieldList], notFound: true },
  ),
  write(
    '/v2/custom-object',
    'createCustomObject',
    'Create a custom object (fieldList must hold its 대표 field 이름)',
    TAG,
    201,
    CreateCustomObjectBody,
    CreatedEnvelope('customObject'),
  ),
  {
    ...write(
      '/v2/custom-object/{customObjectId}',
      'updateCustomObject',
      'Update a custom object: its stage, fields, and a note',
      TAG,
      200,
      UpdateCustomObjectBody,
      Type.Object(
        { success: Type.Literal(true), data: CustomObjectUpdated },
        { additionalProperties: false },
      ),
    ),
  },
  write(
    '/v2/custom-object/{customObjectId}/delete',
    'deleteCustomObject',
    'Delete a custom object with its notes, activities, todos, history and files',
    TAG,
    200,
    undefined,
    Deleted,
  ),
  read(
    '/v2/custom-object/activity',
    'listCustomObjectActivities',
    'List activities of custom objects',
    TAG,
    ListEnvelope('customObjectActivityList', CustomObjectActivityRecord),
    { query: activityQuery('customObjectId', 'custom object') },
  ),
  read(
    '/v2/custom-object/history',
    'listCustomObjectHistory',
    'List changes of custom objects',
    TAG,
    ListEnvelope('customObjectHistoryList', CustomObjectHistoryRecord),
    {
      query: [...page, idFilter('customObjectId', 'Only the changes of this custom object.')],
    },
  ),
];

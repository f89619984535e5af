/** The live API's two association reads (docs/decisions.md, Other resources), of tag Search. */
import { ListEnvelope } from '../envelopes.ts';
import { AssociationId, AssociationItemRecord } from '../records/associations.ts';
import { type Operation, read } from './operation.ts';
import { page } from './parameters.ts';

const PATH = '/v2/object/{targetType}/{targetId}/association/{toTargetType}';

/** In the order the OpenAPI document lists them. */
export const ASSOCIATION_OPERATIONS: readonly Operation[] = [
  read(
    `${PATH}/primary`,
    'listPrimaryAssociations',
    'List the ids of the records a record is linked to by their own keys (a person’s organization, deals and leads; an organization’s people, deals and leads; a deal’s or lead’s person and organization), or of its notes (`memo`; a custom object has notes only), oldest first',
    'Search',
    ListEnvelope('associationIdList', AssociationId),
    { query: page, notFound: true },
  ),
  read(
    `${PATH}/custom`,
    'listCustomAssociations',
    'List the records linked to a record by custom Ref fields (its own, and other records’ that point at it; custom objects’ `customObject` and `multiCustomObject` fields included), each with the field’s name as `label`',
    'Search',
    ListEnvelope('associationItemList', AssociationItemRecord),
    { query: page, notFound: true },
  ),
];

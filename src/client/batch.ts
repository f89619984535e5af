/**
 * Types of the batch calls (`crm.batch`, `/v3`): the record types they take, their bodies
 * (`data` by field name, as `GET /v2/field/{type}` lists the fields) and their answers.
 */
import type {
  AssociationRecord,
  AssociationType,
  AssociationTypeName,
  BatchAssociation,
  BatchObjectType,
  BatchObjectTypeName,
  BatchObjectTypeOf,
  BatchReadType,
  BatchReadTypeName,
} from '../api-schema/bodies/batch.ts';
import type { CallOptions } from './transport.ts';

export type {
  AssociationType,
  AssociationTypeName,
  BatchObjectType,
  BatchObjectTypeName,
  BatchObjectTypeOf,
  BatchReadType,
  BatchReadTypeName,
};

/** What `association` links a new or updated record to: a person, an organization (null unlinks). */
export type BatchLinks = BatchAssociation;

/**
 * Field values by field name (built-in or custom): text, numbers, booleans, `YYYY-MM-DD` or
 * ISO 8601 dates, lists of options, record ids (or `{id}`) for references; null clears.
 * The v2 body keys (`name`, `price`, `status`, `pipelineId`, `memo`, ...) are taken too.
 */
export type BatchData = Record<string, unknown>;

/**
 * Body of `batch.read`: up to 500 ids; `fieldList` keeps `id` and those fields only.
 * `objectType` by the live API's name (`고객`, `회사`, `딜`, `리드`, `상품`, `견적서`) or ours
 * (`people`, ..., `product`, `quote`).
 */
export interface BatchReadInput<T extends BatchReadTypeName = BatchReadTypeName> {
  objectType: T;
  idList: readonly string[];
  fieldList?: readonly string[];
}

/** Body of `batch.create`: up to 100 records, created in one transaction. */
export interface BatchCreateInput {
  objectType: BatchObjectTypeName;
  inputList: readonly { data: BatchData; association?: BatchLinks }[];
}

/** Body of `batch.update`: up to 100 records by id, updated in one transaction. */
export interface BatchUpdateInput {
  objectType: BatchObjectTypeName;
  inputList: readonly { id: string; data: BatchData; association?: BatchLinks }[];
}

/** One association of a record type (`batch.associations`). */
export type Association = AssociationRecord;

/** Options of the batch calls. */
export type BatchCallOptions = CallOptions;

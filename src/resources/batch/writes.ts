/**
 * Batch creates and updates (`POST /v3/object/create`, `/v3/object/update`): each item is
 * the v2 write of its record type (`v2Body`), run one after another inside the caller's one
 * write transaction, so validation, history, events and the read model are the v2 writes'
 * own. The first item refused refuses the batch: its index and reason, and nothing written.
 */
import type { TObject } from '@sinclair/typebox';
import {
  type BatchCreateBody,
  type BatchObjectType,
  type BatchUpdateBody,
  batchObjectType,
} from '../../api-schema/bodies/batch.ts';
import { CreateDealBody, UpdateDealBody } from '../../api-schema/bodies/deals.ts';
import { CreateLeadBody, UpdateLeadBody } from '../../api-schema/bodies/leads.ts';
import {
  CreateOrganizationBody,
  UpdateOrganizationBody,
} from '../../api-schema/bodies/organizations.ts';
import { CreatePersonBody, UpdatePersonBody } from '../../api-schema/bodies/people.ts';
import type { CustomFieldDefinition } from '../../domain/custom-fields.ts';
import { DomainError } from '../../domain/errors.ts';
import type { Written } from '../../domain/records.ts';
import { bodyReader } from '../../http/body.ts';
import type { WorkspaceWrite } from '../../store/write.ts';
import { createDeal, updateDeal } from '../deals/commands.ts';
import { customFieldsOf } from '../fields/field-list.ts';
import { createLead, updateLead } from '../leads/commands.ts';
import { createOrganization, updateOrganization } from '../organizations/commands.ts';
import { createPerson, updatePerson } from '../people/commands.ts';
import { v2Body, withFieldNames } from './inputs.ts';

type Create = (w: WorkspaceWrite, actorId: string, body: never) => Promise<Written>;
type Update = (w: WorkspaceWrite, actorId: string, id: string, body: never) => Promise<Written>;

/** Each record type's v2 bodies and commands. */
const WRITES: Record<
  BatchObjectType,
  { createBody: TObject; create: Create; updateBody: TObject; update: Update }
> = {
  people: {
    createBody: CreatePersonBody,
    create: createPerson,
    updateBody: UpdatePersonBody,
    update: updatePerson,
  },
  organization: {
    createBody: CreateOrganizationBody,
    create: createOrganization,
    updateBody: UpdateOrganizationBody,
    update: updateOrganization,
  },
  deal: {
    createBody: CreateDealBody,
    create: createDeal,
    updateBody: UpdateDealBody,
    update: updateDeal,
  },
  lead: {
    createBody: CreateLeadBody,
    create: createLead,
    updateBody: UpdateLeadBody,
    update: updateLead,
  },
};

const readers = new Map<TObject, ReturnType<typeof bodyReader>>();

/** A v2 body checked against its schema; a refusal names the batch item's own field names. */
function checkedBody(type: BatchObjectType, schema: TObject, body: Record<string, unknown>) {
  let read = readers.get(schema);
  if (!read) {
    read = bodyReader(schema);
    readers.set(schema, read);
  }
  try {
    return read(body).value as never;
  } catch (error) {
    if (error instanceof DomainError) {
      throw new DomainError(error.code, withFieldNames(type, error.message), error.data);
    }
    throw error;
  }
}

/**
 * An item's refusal as the batch's: `inputList[i]: reason`, with `index` (and a duplicate's
 * existing record) under `data`. A record the workspace does not have is a 400 here too:
 * the batch is what is refused.
 */
export function refusedAt(
  index: number,
  error: unknown,
  earlier: ReadonlyMap<string, number> = new Map(),
): unknown {
  if (!(error instanceof DomainError)) return error;
  let extra = error.data && typeof error.data === 'object' ? error.data : {};
  let message = `inputList[${index}]: ${error.message}`;
  const holder = (extra as { id?: unknown }).id;
  const same = typeof holder === 'string' ? earlier.get(holder) : undefined;
  if (same !== undefined) {
    // The record it collides with is an earlier item of this batch, which is not written.
    extra = {};
    message += ` (inputList[${same}]과 같습니다)`;
  }
  return new DomainError(
    error.code === 'duplicate_record' ? 'duplicate_record' : 'invalid_body',
    message,
    { index, ...extra },
  );
}

async function definitionsOf(
  w: WorkspaceWrite,
  type: BatchObjectType,
): Promise<readonly CustomFieldDefinition[]> {
  if (w.catalog) return (await w.catalog()).fields.get(type) ?? [];
  return customFieldsOf(w.trx, w.workspaceId, type);
}

/** Creates the records of a batch in order; answers `{id, name, createdAt}` of each. */
export async function createBatch(
  w: WorkspaceWrite,
  actorId: string,
  batch: BatchCreateBody,
): Promise<Written[]> {
  const type = batchObjectType(batch.objectType);
  const { createBody, create } = WRITES[type];
  const written: Written[] = [];
  const indexOf = new Map<string, number>();
  for (const [index, item] of batch.inputList.entries()) {
    try {
      const body = v2Body(type, item.data, item.association, await definitionsOf(w, type));
      const record = await create(w, actorId, checkedBody(type, createBody, body));
      indexOf.set(record.id, index);
      written.push(record);
    } catch (error) {
      throw refusedAt(index, error, indexOf);
    }
  }
  return written;
}

/** Updates the records of a batch in order (the same id twice: both, in turn). */
export async function updateBatch(
  w: WorkspaceWrite,
  actorId: string,
  batch: BatchUpdateBody,
): Promise<Written[]> {
  const type = batchObjectType(batch.objectType);
  const { updateBody, update } = WRITES[type];
  const written: Written[] = [];
  for (const [index, item] of batch.inputList.entries()) {
    try {
      const body = v2Body(type, item.data, item.association, await definitionsOf(w, type));
      written.push(await update(w, actorId, item.id, checkedBody(type, updateBody, body)));
    } catch (error) {
      throw refusedAt(index, error);
    }
  }
  return written;
}

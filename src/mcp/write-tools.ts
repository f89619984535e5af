import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ApiAnswer } from './api.ts';
import { definitionArg, definitionNamed, isToolError } from './definitions.ts';
import { unknownFieldHint } from './field-hints.ts';
import {
  CREATED_TYPES,
  DELETABLE_TYPES,
  NOTED_TYPES,
  recordId,
  UPDATED_TYPES,
} from './record-types.ts';
import { answer, apiError, succeeded } from './results.ts';
import { apiCallOf } from './tool-call.ts';

/** Annotations of a tool that writes without destroying. */
export const WRITES = {
  readOnlyHint: false,
  destructiveHint: false,
  openWorldHint: false,
} as const;

const fieldList = z
  .array(z.object({ name: z.string() }).catchall(z.unknown()))
  .optional()
  .describe('[{name, <valueKey of list_fields>: value}]; null clears');

/** The top-level body keys a record write may carry (each type takes those it has). */
const bodyKeys = {
  name: z.string().optional().describe("the record name (이름, a todo's 내용); required to create"),
  organizationId: recordId.optional().describe('people, deal, lead, todo: the organization'),
  peopleId: recordId.optional().describe('deal, lead, todo: the person'),
  dealId: recordId.optional(),
  leadId: recordId.optional(),
  pipelineId: recordId.optional().describe('deal, lead: with pipelineStageId (list_pipelines)'),
  pipelineStageId: recordId.optional(),
  status: z.enum(['Won', 'Lost', 'In progress']).optional().describe('deal only'),
  price: z.number().optional().describe('deal 금액, product 가격'),
  memo: z.string().optional().describe('a note to add to the record'),
  fieldList,
};

/** The field a type's `name` argument writes when the API takes no `name` key. */
const NAME_FIELDS: Partial<Record<string, string>> = { todo: '내용', 'custom-object': '이름' };

/** The body of a record write: `name` moved into `fieldList` for a todo or custom object. */
function bodyOf(type: string, args: Record<string, unknown>): Record<string, unknown> {
  const field = NAME_FIELDS[type];
  const { name, ...rest } = args;
  if (field === undefined || name === undefined) return args;
  const list = (rest.fieldList ?? []) as { name: string }[];
  if (list.some((item) => item.name === field)) return rest;
  return { ...rest, fieldList: [{ name: field, stringValue: name }, ...list] };
}

/** The answer of a write, with the body keys the API ignored (a type does not take them). */
export function written(res: ApiAnswer, ignored: string | undefined): CallToolResult {
  const { success: _success, ...rest } = res.json as Record<string, unknown>;
  return answer({ ...rest, ...(ignored ? { ignoredArguments: ignored.split(',') } : {}) });
}

/** The path of a record that `delete_record` deletes (`{path}/delete`). */
function pathOf(type: (typeof DELETABLE_TYPES)[number], id: string): string {
  const segment = type === 'enrollment' ? 'sequence/enrollment' : type;
  return `/v2/${segment}/${encodeURIComponent(id)}`;
}

/** The ignored arguments of a write, with `definition` when the type takes none. */
function withDefinition(
  ignored: string | undefined,
  type: string,
  definition: string | undefined,
): string | undefined {
  if (type === 'custom-object' || definition === undefined) return ignored;
  return ignored ? `${ignored},definition` : 'definition';
}

/** `create_record`: its description, input schema and annotations, built once. */
const CREATE_RECORD_TOOL = {
  title: 'Create a record',
  description:
    'Create a record. people: name. organization: name (unique). deal: name, pipelineId, pipelineStageId, status, and peopleId and/or organizationId. lead: name, peopleId and/or organizationId, optional pipeline. product: name, price. todo: name, one of dealId, leadId, peopleId, organizationId. custom-object: definition, name. Other fields go in fieldList.',
  inputSchema: { type: z.enum(CREATED_TYPES), definition: definitionArg, ...bodyKeys },
  annotations: WRITES,
};

/** `update_record`: its description, input schema and annotations, built once. */
const UPDATE_RECORD_TOOL = {
  title: 'Update a record',
  description:
    'Change fields of a record: only the arguments given change. Moving to another pipeline needs pipelineId and pipelineStageId. A todo is completed by fieldList 완료 true.',
  inputSchema: { type: z.enum(UPDATED_TYPES), id: recordId, ...bodyKeys },
  annotations: WRITES,
};

/** `add_note`: its description, input schema and annotations, built once. */
const ADD_NOTE_TOOL = {
  title: 'Add a note',
  description:
    'Add a note (메모), written by the token’s user, to a person, organization, deal, lead or custom object; with parentId, a reply to that note of the record (list_notes). Answers the note.',
  inputSchema: {
    type: z.enum(NOTED_TYPES),
    id: recordId,
    text: z.string().min(1),
    parentId: recordId.optional().describe('the note (of this record) this one answers'),
  },
  annotations: WRITES,
};

/** `delete_record`: its description, input schema and annotations, built once. */
const DELETE_RECORD_TOOL = {
  title: 'Delete a record',
  description:
    'Delete a deal, lead, todo, custom object, sequence enrollment (unenroll), file or webhook. Without confirm: true nothing is deleted: the answer shows what would be. Ask the user before confirming.',
  inputSchema: {
    type: z.enum(DELETABLE_TYPES),
    id: recordId,
    confirm: z.boolean().optional(),
  },
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
};

/** `create_quote`: its description, input schema and annotations, built once. */
const CREATE_QUOTE_TOOL = {
  title: 'Create a quote',
  description:
    'Create a quote for a deal or a lead (exactly one of dealId, leadId). Each product line: productId (list_records product), price, amount (quantity); subscription products also paymentCount and paymentStartAt.',
  inputSchema: {
    name: z.string(),
    dealId: recordId.optional(),
    leadId: recordId.optional(),
    isMainQuote: z.boolean().optional(),
    memo: z.string().optional(),
    fieldList,
    quoteProductList: z
      .array(
        z
          .object({
            name: z.string().optional(),
            productId: recordId.optional(),
            price: z.number().optional(),
            amount: z.number().optional(),
            paymentCount: z.number().int().optional(),
            paymentStartAt: z.string().optional(),
            fieldList,
          })
          .catchall(z.unknown()),
      )
      .optional(),
  },
  annotations: WRITES,
};

/** Registers the tools that write: create, update, delete, add a note, create a quote. */
export function registerWriteTools(server: McpServer): void {
  server.registerTool(
    'create_record',
    CREATE_RECORD_TOOL,
    async ({ type, definition, ...args }, extra) => {
      const call = apiCallOf(extra);
      let body = bodyOf(type, args);
      let customObjectDefinitionId: string | undefined;
      if (type === 'custom-object') {
        const named = await definitionNamed(call, definition);
        if (isToolError(named)) return named;
        customObjectDefinitionId = named.id;
        body = { customObjectDefinitionId, ...body };
      }
      const res = await call('POST', `/v2/${type}`, body);
      if (!succeeded(res)) {
        return apiError(res, await unknownFieldHint(call, type, res, customObjectDefinitionId));
      }
      return written(res, withDefinition(res.ignored, type, definition));
    },
  );

  server.registerTool('update_record', UPDATE_RECORD_TOOL, async ({ type, id, ...args }, extra) => {
    const call = apiCallOf(extra);
    const res = await call('POST', `/v2/${type}/${encodeURIComponent(id)}`, bodyOf(type, args));
    if (!succeeded(res)) return apiError(res, await unknownFieldHint(call, type, res));
    return written(res, res.ignored);
  });

  server.registerTool('add_note', ADD_NOTE_TOOL, async ({ type, id, text, parentId }, extra) => {
    const call = apiCallOf(extra);
    const path = `/v2/${type}/${encodeURIComponent(id)}/memo`;
    const res = await call('POST', path, { text, ...(parentId === undefined ? {} : { parentId }) });
    if (!succeeded(res)) return apiError(res);
    return written(res, undefined);
  });

  server.registerTool('delete_record', DELETE_RECORD_TOOL, async ({ type, id, confirm }, extra) => {
    const call = apiCallOf(extra);
    const path = pathOf(type, id);
    if (confirm !== true) {
      // The API reads no single todo, enrollment or file's facts: the model shows what it listed.
      let record: unknown = { type, id };
      if (type === 'deal' || type === 'lead' || type === 'webhook') {
        const res = await call('GET', path);
        if (!succeeded(res)) return apiError(res);
        const data = res.json.data[type];
        record = Array.isArray(data) ? data[0] : data;
      } else if (type === 'custom-object') {
        const res = await call('GET', path);
        if (!succeeded(res)) return apiError(res);
        record = res.json.data.customObject;
      }
      return answer({
        deleted: false,
        wouldDelete: record,
        next: 'call delete_record again with confirm: true to delete it',
      });
    }
    const res = await call('POST', `${path}/delete`);
    if (!succeeded(res)) return apiError(res);
    return answer({ deleted: true, type, id });
  });

  server.registerTool('create_quote', CREATE_QUOTE_TOOL, async (body, extra) => {
    const call = apiCallOf(extra);
    const res = await call('POST', '/v2/quote', body);
    if (!succeeded(res)) return apiError(res, await unknownFieldHint(call, 'quote', res));
    return written(res, res.ignored);
  });
}

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ApiAnswer, ApiCall } from './api.ts';
import { unknownFieldHint } from './field-hints.ts';
import { CORE_TYPES, DELETABLE_TYPES, LISTED_TYPES, recordId } from './record-types.ts';
import { answer, apiError, succeeded } from './results.ts';

/** Annotations of a tool that writes without destroying. */
const WRITES = { readOnlyHint: false, destructiveHint: false, openWorldHint: false } as const;

const fieldList = z
  .array(z.object({ name: z.string() }).catchall(z.unknown()))
  .optional()
  .describe('[{"name": Korean field name, <valueKey from list_fields>: value}]; null clears');

/** The top-level body keys a record write may carry (each type takes those it has). */
const bodyKeys = {
  name: z.string().optional().describe('the record name (이름); required to create'),
  organizationId: recordId.optional().describe('people, deal, lead: the organization'),
  peopleId: recordId.optional().describe('deal, lead: the person'),
  pipelineId: recordId.optional().describe('deal, lead: with pipelineStageId (list_pipelines)'),
  pipelineStageId: recordId.optional(),
  status: z.enum(['Won', 'Lost', 'In progress']).optional().describe('deal only'),
  price: z.number().optional().describe('deal 금액, product 가격'),
  memo: z.string().optional().describe('a note to add to the record'),
  fieldList,
};

/** The answer of a write, with the body keys the API ignored (a type does not take them). */
function written(res: ApiAnswer, ignored: string | undefined): CallToolResult {
  const { success: _success, ...rest } = res.json as Record<string, unknown>;
  return answer({ ...rest, ...(ignored ? { ignoredArguments: ignored.split(',') } : {}) });
}

/** `create_record`: its description, input schema and annotations, built once. */
const CREATE_RECORD_TOOL = {
  title: 'Create a record',
  description:
    'Create a person, organization, deal, lead or product. people: name. organization: name (unique). deal: name, pipelineId, pipelineStageId, status, and peopleId and/or organizationId. lead: name, peopleId and/or organizationId, optional pipeline. product: name, price. Other fields go in fieldList.',
  inputSchema: { type: z.enum(LISTED_TYPES), ...bodyKeys },
  annotations: WRITES,
};

/** `update_record`: its description, input schema and annotations, built once. */
const UPDATE_RECORD_TOOL = {
  title: 'Update a record',
  description:
    'Change fields of a person, organization, deal or lead: only the arguments given change. Moving a deal or lead to another pipeline needs pipelineId and pipelineStageId.',
  inputSchema: { type: z.enum(CORE_TYPES), id: recordId, ...bodyKeys },
  annotations: WRITES,
};

/** `add_note`: its description, input schema and annotations, built once. */
const ADD_NOTE_TOOL = {
  title: 'Add a note',
  description:
    'Add a note (메모), written by the token’s user, to a person, organization, deal or lead.',
  inputSchema: { type: z.enum(CORE_TYPES), id: recordId, text: z.string().min(1) },
  annotations: WRITES,
};

/** `delete_record`: its description, input schema and annotations, built once. */
const DELETE_RECORD_TOOL = {
  title: 'Delete a deal or lead',
  description:
    'Delete a deal or lead. Without confirm: true nothing is deleted: the answer shows the record that would be. Ask the user before confirming.',
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
export function registerWriteTools(server: McpServer, call: ApiCall): void {
  server.registerTool('create_record', CREATE_RECORD_TOOL, async ({ type, ...body }) => {
    const res = await call('POST', `/v2/${type}`, body);
    if (!succeeded(res)) return apiError(res, await unknownFieldHint(call, type, res));
    return written(res, res.ignored);
  });

  server.registerTool('update_record', UPDATE_RECORD_TOOL, async ({ type, id, ...body }) => {
    const res = await call('POST', `/v2/${type}/${encodeURIComponent(id)}`, body);
    if (!succeeded(res)) return apiError(res, await unknownFieldHint(call, type, res));
    return written(res, res.ignored);
  });

  server.registerTool('add_note', ADD_NOTE_TOOL, async ({ type, id, text }) => {
    const res = await call('POST', `/v2/${type}/${encodeURIComponent(id)}`, { memo: text });
    if (!succeeded(res)) return apiError(res);
    return written(res, undefined);
  });

  server.registerTool('delete_record', DELETE_RECORD_TOOL, async ({ type, id, confirm }) => {
    const path = `/v2/${type}/${encodeURIComponent(id)}`;
    if (confirm !== true) {
      const res = await call('GET', path);
      if (!succeeded(res)) return apiError(res);
      const record = (res.json.data[type] as Record<string, unknown>[])[0];
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

  server.registerTool('create_quote', CREATE_QUOTE_TOOL, async (body) => {
    const res = await call('POST', '/v2/quote', body);
    if (!succeeded(res)) return apiError(res, await unknownFieldHint(call, 'quote', res));
    return written(res, res.ignored);
  });
}

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { type CustomFieldType, valueKeyOf } from '../domain/custom-fields.ts';
import {
  BUILT_IN_FIELDS,
  FIELD_TYPE_OF_PATH,
  type FieldRecordType,
} from '../domain/field-catalogue.ts';
import { type ApiCall, query } from './api.ts';
import { definitionArg, definitionNamed, isToolError, listDefinitions } from './definitions.ts';
import { unknownFieldHint } from './field-hints.ts';
import {
  CORE_TYPES,
  cursorArg,
  FIELD_TYPES,
  LISTED_TYPES,
  listKeyOf,
  READ_TYPES,
  recordId,
  TYPE_OPERATIONS,
} from './record-types.ts';
import { answer, apiError, succeeded, toolError } from './results.ts';
import { apiCallOf } from './tool-call.ts';

/** How many custom objects `get_records` reads in one call (each is an API call). */
const MAX_CUSTOM_OBJECT_IDS = 10;

/** The annotations of a tool that only reads this workspace. */
export const READS = { readOnlyHint: true, openWorldHint: false } as const;

const fieldNames = z
  .array(z.string().min(1))
  .min(1)
  .max(100)
  .optional()
  .describe('Korean field names to include besides id and name (see list_fields)');

const limitArg = z.number().int().min(1).max(100).optional().describe('page size (default 50)');

/** One page of a list, as the tools answer it: the records, the cursor, whether more remain. */
function page(records: unknown[], nextCursor: string | null | undefined) {
  return { records, nextCursor: nextCursor ?? null, hasMore: Boolean(nextCursor) };
}

/** How a field is written: in `fieldList` with its value key, as a body key, or not at all. */
function writeOf(recordType: FieldRecordType, name: string, type: string) {
  const builtIn = BUILT_IN_FIELDS[recordType].find((f) => f.name === name);
  if (builtIn?.access === 'body') return { in: 'body', key: builtIn.bodyKey };
  if (builtIn && builtIn.access !== 'fieldList') return null;
  return { in: 'fieldList', valueKey: valueKeyOf(type as CustomFieldType) };
}

/** `list_fields`: its description, input schema and annotations, built once. */
const LIST_FIELDS_TOOL = {
  title: 'List record types and fields',
  description:
    'Without type: the record types and what each supports, and the custom object definitions. With type: its fields (built-in and custom, Korean names as records show them) with type, required, options, and how to write each: {in:"body",key} as a top-level argument, {in:"fieldList",valueKey} as fieldList item {name, <valueKey>: value}, or null (read-only).',
  inputSchema: { type: z.enum(FIELD_TYPES).optional(), definition: definitionArg },
  annotations: READS,
};

/** `search_records`: its description, input schema and annotations, built once. */
const SEARCH_RECORDS_TOOL = {
  title: 'Search records',
  description:
    'Find people, organizations, deals or leads by field values (filterGroupList is required; list_records walks every record). A record matches when every filter of some group passes (max 3 groups of 3 filters). Operators: EQ NEQ IN NOT_IN CONTAINS NOT_CONTAINS EXISTS NOT_EXISTS (text, ids, users, records by id or name); EQ LT LTE GT GTE (numbers); LIST_CONTAIN LIST_NOT_CONTAIN (multi-select, teams); DATE_ON_OR_AFTER DATE_ON_OR_BEFORE DATE_IS_SPECIFIC_DAY DATE_BETWEEN ([from,to]) DATE_MORE_THAN_DAYS_AGO DATE_LESS_THAN_DAYS_AGO DATE_AGO DATE_LATER (days). Dates YYYY-MM-DD. Pass the same filters with cursor for the next page.',
  inputSchema: {
    type: z.enum(CORE_TYPES),
    filterGroupList: z
      .array(
        z.object({
          filters: z.array(
            z.object({
              fieldName: z.string(),
              operator: z.string(),
              value: z.unknown().optional(),
            }),
          ),
        }),
      )
      .min(1)
      .describe(
        'required, 1 to 3 groups, e.g. [{"filters":[{"fieldName":"이름","operator":"CONTAINS","value":"김"}]}]; every record of a type: list_records',
      ),
    sortList: z
      .array(z.object({ fieldName: z.string(), direction: z.enum(['asc', 'desc']) }))
      .optional()
      .describe('default: 생성 날짜 ascending'),
    fieldList: fieldNames,
    limit: limitArg,
    cursor: cursorArg,
  },
  annotations: READS,
};

/** `list_records`: its description, input schema and annotations, built once. */
const LIST_RECORDS_TOOL = {
  title: 'List records',
  description:
    'Every record of a type, oldest first, a page at a time (whole records, or id, name and the fields chosen).',
  inputSchema: {
    type: z.enum(LISTED_TYPES),
    definition: definitionArg,
    fieldList: fieldNames,
    limit: limitArg,
    cursor: cursorArg,
  },
  annotations: READS,
};

/** `get_records`: its description, input schema and annotations, built once. */
const GET_RECORDS_TOOL = {
  title: 'Get records by id',
  description:
    'Read records by id (up to 100; custom objects 10): whole records, or id, name and the fields chosen. Ids not found are listed in missingIds.',
  inputSchema: {
    type: z.enum(READ_TYPES),
    ids: z.array(recordId).min(1).max(100),
    fieldList: fieldNames,
  },
  annotations: READS,
};

/** `list_pipelines`: its description, input schema and annotations, built once. */
const LIST_PIPELINES_TOOL = {
  title: 'List pipelines',
  description:
    'The deal or lead pipelines with their stages in order (ids for pipelineId and pipelineStageId).',
  inputSchema: { type: z.enum(['deal', 'lead']) },
  annotations: READS,
};

/** `list_users`: its description, input schema and annotations, built once. */
const LIST_USERS_TOOL = {
  title: 'List users',
  description:
    'The users of the workspace (ids for 담당자 and other user fields), a page at a time.',
  inputSchema: { cursor: cursorArg },
  annotations: READS,
};

/** `list_quotes`: its description, input schema and annotations, built once. */
const LIST_QUOTES_TOOL = {
  title: 'List quotes',
  description: 'The quotes of one deal or lead, with their product lines.',
  inputSchema: { type: z.enum(['deal', 'lead']), id: recordId },
  annotations: READS,
};

/** Custom objects read by id (no batch read: one read each, so ten at most). */
async function getCustomObjects(
  call: ApiCall,
  ids: string[],
  fieldList: string[] | undefined,
): Promise<CallToolResult> {
  if (ids.length > MAX_CUSTOM_OBJECT_IDS) {
    return toolError({
      message: `'ids': custom objects are read ${MAX_CUSTOM_OBJECT_IDS} at a time (got ${ids.length})`,
    });
  }
  const records: unknown[] = [];
  const missingIds: string[] = [];
  for (const id of ids) {
    const path = `/v2/custom-object/${encodeURIComponent(id)}${query({ fieldList: fieldList?.join(',') })}`;
    const res = await call('GET', path);
    if (res.status === 404) missingIds.push(id);
    else if (!succeeded(res))
      return apiError(res, await unknownFieldHint(call, 'custom-object', res));
    else records.push(res.json.data.customObject);
  }
  return answer({ records, missingIds });
}

/** Registers the tools that read: fields, search, lists, records, pipelines, users, quotes. */
export function registerReadTools(server: McpServer): void {
  server.registerTool('list_fields', LIST_FIELDS_TOOL, async ({ type, definition }, extra) => {
    const call = apiCallOf(extra);
    if (type === undefined) {
      const definitions = await listDefinitions(call);
      if (isToolError(definitions)) return definitions;
      return answer({ recordTypes: TYPE_OPERATIONS, customObjectDefinitions: definitions });
    }
    let customObjectDefinitionId: string | undefined;
    if (type === 'custom-object' && definition !== undefined) {
      const named = await definitionNamed(call, definition);
      if (isToolError(named)) return named;
      customObjectDefinitionId = named.id;
    }
    const res = await call('GET', `/v2/field/${type}${query({ customObjectDefinitionId })}`);
    if (!succeeded(res)) return apiError(res);
    const recordType: FieldRecordType = FIELD_TYPE_OF_PATH[type];
    const fields = (res.json.data.fieldList as Record<string, unknown>[]).map((f) => {
      const { id: _id, optionList, ...rest } = f;
      const options = Array.isArray(optionList)
        ? optionList.map((o: { value: string }) => o.value)
        : undefined;
      return {
        ...rest,
        ...(options ? { options } : {}),
        write: writeOf(recordType, String(f.name), String(f.type)),
      };
    });
    return answer({ type, fields });
  });

  server.registerTool(
    'search_records',
    SEARCH_RECORDS_TOOL,
    async ({ type, cursor, ...body }, extra) => {
      const call = apiCallOf(extra);
      const res = await call('POST', `/v2/object/${type}/search${query({ cursor })}`, body);
      if (!succeeded(res)) return apiError(res, await unknownFieldHint(call, type, res));
      return answer(page(res.json.data.objectList, res.json.data.nextCursor));
    },
  );

  server.registerTool(
    'list_records',
    LIST_RECORDS_TOOL,
    async ({ type, definition, fieldList, limit, cursor }, extra) => {
      const call = apiCallOf(extra);
      let customObjectDefinitionId: string | undefined;
      if (type === 'custom-object' && definition !== undefined) {
        const named = await definitionNamed(call, definition);
        if (isToolError(named)) return named;
        customObjectDefinitionId = named.id;
      }
      const path = `/v2/${type}${query({
        cursor,
        limit,
        fieldList: fieldList?.join(','),
        customObjectDefinitionId,
      })}`;
      const res = await call('GET', path);
      if (!succeeded(res)) {
        return apiError(res, await unknownFieldHint(call, type, res, customObjectDefinitionId));
      }
      return answer(page(res.json.data[listKeyOf(type)], res.json.data.nextCursor));
    },
  );

  server.registerTool('get_records', GET_RECORDS_TOOL, async ({ type, ids, fieldList }, extra) => {
    const call = apiCallOf(extra);
    if (type === 'custom-object') return getCustomObjects(call, ids, fieldList);
    const body = { objectType: type, idList: ids, ...(fieldList ? { fieldList } : {}) };
    const res = await call('POST', '/v3/object/read', body);
    if (!succeeded(res)) return apiError(res, await unknownFieldHint(call, type, res));
    const records = res.json.data.objectList as { id: string }[];
    const found = new Set(records.map((r) => r.id));
    return answer({ records, missingIds: ids.filter((id) => !found.has(id)) });
  });

  server.registerTool('list_pipelines', LIST_PIPELINES_TOOL, async ({ type }, extra) => {
    const call = apiCallOf(extra);
    const res = await call('POST', '/v3/pipeline/list', { objectType: type });
    if (!succeeded(res)) return apiError(res);
    return answer({ pipelines: res.json.data.pipelineList, hasMore: false });
  });

  server.registerTool('list_users', LIST_USERS_TOOL, async ({ cursor }, extra) => {
    const call = apiCallOf(extra);
    const res = await call('GET', `/v2/user${query({ cursor })}`);
    if (!succeeded(res)) return apiError(res);
    return answer(page(res.json.data.userList, res.json.data.nextCursor));
  });

  server.registerTool('list_quotes', LIST_QUOTES_TOOL, async ({ type, id }, extra) => {
    const call = apiCallOf(extra);
    const res = await call('GET', `/v2/${type}/${encodeURIComponent(id)}/quote`);
    if (!succeeded(res)) return apiError(res);
    return answer({ quotes: res.json.data.quoteList, hasMore: false });
  });
}

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { WEBHOOK_OBJECT_TYPES } from '../api-schema/records/webhooks.ts';
import { EVENT_TOPICS } from '../domain/events.ts';
import { query } from './api.ts';
import { READS } from './read-tools.ts';
import { cursorArg, recordId } from './record-types.ts';
import { answer, apiError, succeeded } from './results.ts';
import { apiCallOf } from './tool-call.ts';
import { written } from './write-tools.ts';

/** `list_webhooks`: its description, input schema and annotations, built once. */
const LIST_WEBHOOKS_TOOL = {
  title: 'List webhooks',
  description:
    "The workspace's webhooks (url, record types, events, status), or with webhookId its deliveries newest first.",
  inputSchema: { webhookId: recordId.optional(), cursor: cursorArg },
  annotations: READS,
};

/** `create_webhook`: its description, input schema and annotations, built once. */
const CREATE_WEBHOOK_TOOL = {
  title: 'Create a webhook',
  description:
    'Send the changes of people, organizations, leads or deals to a URL, which must answer a signed verification POST with a 2xx first. Answers the webhook with its secret, shown only now. delete_record webhook removes it.',
  inputSchema: {
    url: z.string().min(1).max(2000).describe('http(s) URL of a public host'),
    objectTypeList: z.array(z.enum(WEBHOOK_OBJECT_TYPES)).min(1),
    eventList: z.array(z.enum(EVENT_TOPICS)).min(1).optional().describe('default all four'),
    fieldList: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .describe('only the 수정 of these fields (default every field)'),
  },
  // It sends the workspace's data to a server outside it.
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
};

/** Registers `list_webhooks`. */
export function registerWebhookReads(server: McpServer): void {
  server.registerTool('list_webhooks', LIST_WEBHOOKS_TOOL, async ({ webhookId, cursor }, extra) => {
    const call = apiCallOf(extra);
    if (webhookId === undefined) {
      const res = await call('GET', '/v2/webhook');
      if (!succeeded(res)) return apiError(res);
      return answer({ records: res.json.data.webhookList, nextCursor: null, hasMore: false });
    }
    const path = `/v2/webhook/${encodeURIComponent(webhookId)}/delivery${query({ cursor })}`;
    const res = await call('GET', path);
    if (!succeeded(res)) return apiError(res);
    const nextCursor = res.json.data.nextCursor ?? null;
    return answer({
      records: res.json.data.deliveryList,
      nextCursor,
      hasMore: Boolean(nextCursor),
    });
  });
}

/** Registers `create_webhook` (deleting one is `delete_record` of a webhook). */
export function registerWebhookWrites(server: McpServer): void {
  server.registerTool('create_webhook', CREATE_WEBHOOK_TOOL, async (body, extra) => {
    const call = apiCallOf(extra);
    const res = await call('POST', '/v2/webhook', body);
    if (!succeeded(res)) return apiError(res);
    return written(res, res.ignored);
  });
}

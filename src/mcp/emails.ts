import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { READS } from './read-tools.ts';
import { recordId } from './record-types.ts';
import { answer, apiError, succeeded } from './results.ts';
import { apiCallOf } from './tool-call.ts';
import { written } from './write-tools.ts';

/** `get_email`: its description, input schema and annotations, built once. */
const GET_EMAIL_TOOL = {
  title: 'Read an e-mail',
  description:
    'A sent e-mail: subject, from, to, cc, bcc, date, its text and HTML. Ids are emailId of activities (get_timeline) and of send_email.',
  inputSchema: { id: recordId },
  annotations: READS,
};

const addresses = z.array(z.object({ email: z.string(), name: z.string().optional() }));

/** `send_email`: its description, input schema and annotations, built once. */
const SEND_EMAIL_TOOL = {
  title: 'Send an e-mail',
  description:
    "Send an e-mail as the token's user; it becomes an activity of the people it goes to. Show the user the text and recipients first. The same idempotencyKey never sends twice.",
  inputSchema: {
    to: addresses.min(1).describe('ASCII addresses; 50 recipients in all'),
    cc: z.array(z.string()).optional().describe('addresses'),
    bcc: z.array(z.string()).optional().describe('addresses'),
    subject: z.string().min(1),
    htmlBody: z.string().min(1).describe('the body as HTML (its plain text is sent beside it)'),
    attachmentIds: z.array(recordId).max(20).optional().describe('ids of uploaded files'),
    idempotencyKey: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('ASCII without spaces; a retry with it answers the first send'),
  },
  // It reaches people outside the workspace.
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
};

/** Registers `get_email`. */
export function registerEmailReads(server: McpServer): void {
  server.registerTool('get_email', GET_EMAIL_TOOL, async ({ id }, extra) => {
    const call = apiCallOf(extra);
    const res = await call('GET', `/v2/email/${encodeURIComponent(id)}`);
    if (!succeeded(res)) return apiError(res);
    return answer(res.json.data.email);
  });
}

/** Registers `send_email`. */
export function registerEmailWrites(server: McpServer): void {
  server.registerTool('send_email', SEND_EMAIL_TOOL, async (args, extra) => {
    const call = apiCallOf(extra);
    const { to, cc, bcc, subject, htmlBody, attachmentIds, idempotencyKey } = args;
    const body = {
      emailProvider: 'gmail',
      toAddressList: to,
      ...(cc ? { ccAddressList: cc.map((email) => ({ email })) } : {}),
      ...(bcc ? { bccAddressList: bcc.map((email) => ({ email })) } : {}),
      subject,
      htmlBody,
      ...(attachmentIds ? { attachmentIdList: attachmentIds } : {}),
    };
    const headers: Record<string, string> =
      idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey };
    const res = await call('POST', '/v2/email', body, { headers });
    if (!succeeded(res)) return apiError(res);
    return written(res, res.ignored);
  });
}

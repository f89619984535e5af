import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApiAnswer } from './api.ts';

/** A tool's answer: its JSON as text (compact: a model reads every byte). */
export function answer(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }] };
}

/**
 * A tool error a model can act on: the API's status and message (which name the field and,
 * where there are some, the allowed values), the data the API carried (an existing
 * duplicate's id), and whatever the tool adds (the closest field names, what to do next).
 */
export function toolError(details: Record<string, unknown>): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(details) }] };
}

/** The tool error for an API answer that is not a success. */
export function apiError(res: ApiAnswer, more: Record<string, unknown> = {}): CallToolResult {
  const body = (res.json ?? {}) as Record<string, unknown>;
  const message = body.message ?? body.error ?? `HTTP ${res.status}`;
  return toolError({
    status: res.status,
    message,
    ...(body.data !== undefined ? { data: body.data } : {}),
    ...(res.retryAfter !== undefined ? { retryAfterSeconds: Number(res.retryAfter) } : {}),
    ...more,
  });
}

/** Whether an API answer is a success (2xx with `success: true`). */
export function succeeded(res: ApiAnswer): boolean {
  return res.status >= 200 && res.status < 300 && res.json?.success !== false;
}

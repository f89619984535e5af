import { describe, expect, it } from 'vitest';
import type { ApiCall } from './api.ts';
import { createMcpServer, toolList, toolServer } from './server.ts';
import { listedTools } from './tool-list.ts';

const call: ApiCall = async () => ({ status: 200, json: {} });

describe('tools/list', () => {
  it.each([
    ['a token that may write', false],
    ['a read-only token', true],
  ])("answers %s the SDK's own list, made once and shared", async (_, readOnly) => {
    const own = await listedTools(toolServer(call, readOnly));
    const first = await listedTools(createMcpServer({ call, readOnly }));
    const second = await listedTools(createMcpServer({ call, readOnly }));
    // Byte for byte what the SDK's handler answers (its JSON Schemas, in its key order).
    expect(JSON.stringify(first)).toBe(JSON.stringify(own));
    // One list for every server of the kind, not one made per request.
    expect(first).toBe(await toolList(readOnly));
    expect(second).toBe(first);
    expect(Object.isFrozen(first.tools[0]!.inputSchema)).toBe(true);
  });

  it('lists no tool that writes to a read-only token', async () => {
    const all = (await toolList(false)).tools;
    const reads = (await toolList(true)).tools;
    expect(all).toHaveLength(25);
    expect(reads).toHaveLength(16);
    expect(reads.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
    expect(reads).toEqual(all.filter((tool) => tool.annotations?.readOnlyHint === true));
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiAnswer, ApiCall } from './api.ts';
import { ToolMeter } from './tool-meter.ts';

/** An API that answers every call after a turn of the event loop. */
const api: ApiCall = async () => {
  await new Promise((resolve) => setImmediate(resolve));
  return { status: 200, json: {} } satisfies ApiAnswer;
};

/** A tool call that makes `calls` API calls through the caller the meter gives it. */
function toolCall(meter: ToolMeter, calls: number) {
  return meter.run(api, async (call) => {
    for (let i = 0; i < calls; i++) await call('GET', '/v2/user');
    return calls;
  });
}

describe('the tool meter of an /mcp request', () => {
  it('charges each tool call that made no API call one, apart from those of the same batch that made many', async () => {
    const meter = new ToolMeter();
    // A batch: three tool calls at once, interleaved at every await.
    expect(await Promise.all([toolCall(meter, 3), toolCall(meter, 0), toolCall(meter, 2)])).toEqual(
      [3, 0, 2],
    );
    expect(meter.unpaid(3)).toBe(1);
    // Two tool calls of the batch never reached their tool (an unknown name, bad arguments).
    expect(meter.unpaid(5)).toBe(3);
  });

  it('keeps the meters of requests served at once apart', async () => {
    const a = new ToolMeter();
    const b = new ToolMeter();
    await Promise.all([toolCall(a, 0), toolCall(b, 2), toolCall(a, 1)]);
    expect(a.unpaid(2)).toBe(1);
    expect(b.unpaid(1)).toBe(0);
  });

  it('counts a tool call that failed after its API calls as paid, and one that failed before as not', async () => {
    const meter = new ToolMeter();
    const failing = (calls: number) =>
      meter.run(api, async (call) => {
        for (let i = 0; i < calls; i++) await call('GET', '/v2/user');
        throw new Error('the tool failed');
      });
    await expect(failing(1)).rejects.toThrow('the tool failed');
    await expect(failing(0)).rejects.toThrow('the tool failed');
    expect(meter.unpaid(2)).toBe(1);
  });

  it('uses no AsyncLocalStorage: once one has run, every promise of the server pays for it', () => {
    const dir = join(import.meta.dirname);
    const using = readdirSync(dir)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .filter((f) =>
        /new AsyncLocalStorage|['"]node:async_hooks['"]/.test(readFileSync(join(dir, f), 'utf8')),
      );
    expect(using).toEqual([]);
  });
});

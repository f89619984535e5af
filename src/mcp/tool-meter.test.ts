import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { ToolMeter } from './tool-meter.ts';

/** A tool that makes `calls` API calls, each after a turn of the event loop. */
function tool(meter: ToolMeter, calls: number) {
  return meter.wrap(async () => {
    for (let i = 0; i < calls; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      meter.apiCall();
    }
    return calls;
  });
}

describe('the tool meter of an /mcp request', () => {
  it('charges each tool call that made no API call one, apart from those of the same batch that made many', async () => {
    const meter = new ToolMeter();
    // A batch: three tool calls at once, interleaved at every await.
    expect(await Promise.all([tool(meter, 3)(), tool(meter, 0)(), tool(meter, 2)()])).toEqual([
      3, 0, 2,
    ]);
    expect(meter.unpaid(3)).toBe(1);
    // Two tool calls of the batch never reached their tool (an unknown name, bad arguments).
    expect(meter.unpaid(5)).toBe(3);
  });

  it('keeps the meters of requests served at once apart', async () => {
    const a = new ToolMeter();
    const b = new ToolMeter();
    await Promise.all([tool(a, 0)(), tool(b, 2)(), tool(a, 1)()]);
    expect(a.unpaid(2)).toBe(1);
    expect(b.unpaid(1)).toBe(0);
  });

  it('makes no async storage of its own: one a request made every later promise of the server slower', () => {
    const meter = new ToolMeter();
    const own = Object.values(meter).filter((v) => v instanceof AsyncLocalStorage);
    expect(own).toEqual([]);
  });
});

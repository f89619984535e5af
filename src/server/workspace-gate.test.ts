import { describe, expect, it } from 'vitest';
import { HttpError } from '../http/errors.ts';
import { WorkspaceGate } from './workspace-gate.ts';

describe('WorkspaceGate', () => {
  it('runs a workspace’s calls up to its bound, queues the next in order, and refuses past the queue', async () => {
    const gate = new WorkspaceGate(2, 2);
    const first = await gate.enter('a');
    const second = await gate.enter('a');
    const order: number[] = [];
    const inLine = (n: number) =>
      gate.enter('a').then((leave) => {
        order.push(n);
        return leave;
      });
    const third = inLine(3);
    const fourth = inLine(4);
    const refused = await gate.enter('a').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).status).toBe(429);
    expect((refused as HttpError).headers['Retry-After']).toBe('1');
    expect((refused as HttpError).reason).toBe('1초 후 재시도해주세요.');
    expect(gate.load('a')).toEqual({ running: 2, waiting: 2 });

    // Another workspace is not held by the first one's queue.
    const other = await gate.enter('b');
    other();

    first();
    (await third)();
    second();
    (await fourth)();
    expect(order).toEqual([3, 4]);
    expect(gate.busy('a')).toBe(false);
    expect(gate.load('a')).toEqual({ running: 0, waiting: 0 });
  });

  it('ends a call once however often its end is called', async () => {
    const gate = new WorkspaceGate(1, 0);
    const leave = await gate.enter('a');
    leave();
    leave();
    const again = await gate.enter('a');
    await expect(gate.enter('a')).rejects.toBeInstanceOf(HttpError);
    again();
    expect(gate.busy('a')).toBe(false);
  });

  it('names the clients of busy workspaces for load shedding, and forgets them when their calls end', async () => {
    const gate = new WorkspaceGate(2, 2);
    expect(gate.causing('Bearer a')).toBeUndefined();
    const leave = await gate.enter('a', 'Bearer a');
    expect(gate.causing('Bearer a')).toBe(true);
    expect(gate.causing('Bearer b')).toBe(false);
    expect(gate.causing(undefined)).toBe(false);
    leave();
    expect(gate.causing('Bearer a')).toBeUndefined();
  });
});

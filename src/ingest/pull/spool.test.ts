import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Spool } from './spool.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function fresh(): string {
  const parent = mkdtempSync(join(tmpdir(), 'salescrm-spool-'));
  dirs.push(parent);
  const dir = join(parent, 'state');
  return dir;
}

const state = { from: 'http://source', sourceRoomId: 'room', sourceUserId: 'u', startedAt: 't' };

describe('Spool', () => {
  it('opens again where it was: each read with its cursor and its records', () => {
    const dir = fresh();
    const spool = Spool.create(dir, state);
    spool.append('people', [{ id: 'a' }, { id: 'b' }], (p) => {
      p.cursor = 'c1';
    });
    const again = Spool.open(dir, 'http://source', 'room')!;
    expect(again.progress('people')).toMatchObject({ cursor: 'c1', records: 2, done: false });
    expect([...again.values('people')]).toEqual([{ id: 'a' }, { id: 'b' }]);
  });

  it('cuts off a page written after the last recorded step (a process killed in between)', () => {
    const dir = fresh();
    const spool = Spool.create(dir, state);
    spool.append('people', [{ id: 'a' }], (p) => {
      p.cursor = 'c1';
    });
    // A page written, its step not recorded: the process died there.
    appendFileSync(join(dir, 'people.ndjson'), '{"id":"b"}\n{"id":');
    const again = Spool.open(dir, 'http://source', 'room')!;
    expect([...again.values('people')]).toEqual([{ id: 'a' }]);
    again.append('people', [{ id: 'b' }], (p) => {
      p.cursor = null;
      p.done = true;
    });
    expect([...again.values('people')]).toEqual([{ id: 'a' }, { id: 'b' }]);
  });

  it('is not the state of another source, nor of another workspace of it', () => {
    const dir = fresh();
    Spool.create(dir, state);
    expect(Spool.open(dir, 'http://other', 'room')).toBeUndefined();
    expect(Spool.open(dir, 'http://source', 'other-room')).toBeUndefined();
    expect(Spool.open(fresh(), 'http://source', 'room')).toBeUndefined();
  });
});

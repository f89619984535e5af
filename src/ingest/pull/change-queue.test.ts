import { describe, expect, it } from 'vitest';
import { ChangeQueue } from './change-queue.ts';

const event = (e: string, objectId: string, eventId: string, objectType = '고객') => ({
  event: e,
  objectType,
  objectId,
  eventId,
});

describe('ChangeQueue', () => {
  it("waits once a record however many of its events came, in the order each record's first came", () => {
    const q = new ChangeQueue();
    q.push(event('생성', 'a', 'e1'));
    q.push(event('수정', 'b', 'e2', '딜'));
    q.push(event('수정', 'a', 'e3'));
    expect(q.size).toBe(2);
    expect(q.take()).toEqual({
      change: { is: 'read', kind: 'people', id: 'a', eventId: 'e1' },
      keys: ['e1\u0000a', 'e3\u0000a'],
    });
    expect(q.take()?.change).toEqual({ is: 'read', kind: 'deal', id: 'b', eventId: 'e2' });
    expect(q.take()).toBeUndefined();
  });

  it('skips the repeat of an event applied (eventId + objectId), not of one that was not', () => {
    const q = new ChangeQueue();
    q.push(event('수정', 'a', 'e1'));
    const taken = q.take()!;
    q.push(event('수정', 'a', 'e1'));
    expect(q.size).toBe(1);
    q.take();
    q.done(taken.keys);
    q.push(event('수정', 'a', 'e1'));
    expect(q.size).toBe(0);
    q.push(event('수정', 'a', 'e2'));
    expect(q.size).toBe(1);
  });

  it("pairs a merge's 삭제 with its 병합; a 삭제 alone is a record gone; custom objects are left to the walk", () => {
    const q = new ChangeQueue();
    q.push(event('병합', 'kept', 'm1', '회사'));
    q.push(event('삭제', 'merged', 'm1', '회사'));
    q.push(event('삭제', 'd', 'x1', '딜'));
    q.push(event('수정', 'c', 'x2', '커스텀 오브젝트'));
    expect(q.take()?.change.is).toBe('read');
    expect(q.take()?.change).toEqual({
      is: 'merged',
      kind: 'organization',
      id: 'kept',
      mergedId: 'merged',
      eventId: 'm1',
    });
    expect(q.take()?.change).toEqual({ is: 'gone', kind: 'deal', id: 'd', eventId: 'x1' });
    expect(q.take()).toBeUndefined();
    expect(q.ignored).toBe(1);
  });
});

describe('ChangeQueue and hostile payloads', () => {
  it('takes no kind from the prototype of an object (constructor, __proto__, toString)', () => {
    const q = new ChangeQueue();
    for (const objectType of ['constructor', '__proto__', 'toString', 'hasOwnProperty'])
      q.push(event('수정', 'a', `e-${objectType}`, objectType));
    q.push({ event: '수정', objectType: ['고객'], objectId: 'b', eventId: 'e9' });
    expect(q.size).toBe(0);
    expect(q.ignored).toBe(5);
  });
});

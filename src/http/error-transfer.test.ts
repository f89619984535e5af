import { describe, expect, it } from 'vitest';
import { DomainError } from '../domain/errors.ts';
import { errorOf, transferError } from './error-transfer.ts';
import { errorAnswer, HttpError, tooManyRequests } from './errors.ts';

/** Through a copy, as a thread's message carries it. */
const across = (error: unknown) => errorOf(structuredClone(transferError(error)));

describe('errors across a thread', () => {
  it('answer as they would have where they were thrown', () => {
    const cases = [
      new DomainError('invalid_parameter', "'x' 값이 올바르지 않습니다."),
      new DomainError('duplicate_record', '이미 존재하는 이름입니다', { id: 'p1' }, '이름'),
      new HttpError('unavailable', '검색이 너무 오래 걸립니다.', { 'Retry-After': '1' }),
      tooManyRequests(3),
    ];
    for (const error of cases) {
      const copy = across(error);
      expect(copy).toBeInstanceOf(error.constructor);
      expect(errorAnswer(copy)).toEqual(errorAnswer(error));
    }
  });

  it('keep the code of any other error, so that a store that is down is still told apart', () => {
    const error = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const copy = across(error) as Error & { code?: unknown };
    expect(copy.message).toBe('connect ECONNREFUSED');
    expect(copy.code).toBe('ECONNREFUSED');
    expect(errorAnswer(copy)).toBeUndefined();
  });
});

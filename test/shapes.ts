/**
 * Shape checks of API records for contract tests: a shape is the list of a record's keys in
 * order, each with the kind of its value and whether it may be null.
 */
import { expect } from 'vitest';
import type { TestResponse } from './helpers.ts';

/** A note's keys in order (`GET /v2/memo/{id}`); a note of the list has `cursorId` after `id`. */
export const MEMO_KEYS = [
  'id',
  'text',
  'htmlBody',
  'typeList',
  'dealId',
  'leadId',
  'peopleId',
  'organizationId',
  'productId',
  'quoteId',
  'todoId',
  'parentId',
  'ownerId',
  'createdAt',
  'updatedAt',
];

/** Marks a nullable key. */
export const N = 'nullable';
export type Kind =
  | 'string'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'timestamp'
  | 'ref'
  | 'refs'
  | 'array';
/** One key of a shape: its name, the kind of its value, and `N` when it may be null. */
export type Field = readonly [key: string, kind: Kind, nullable?: typeof N];

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** True for `{id, name}` with exactly those keys, a non-empty id and a string name. */
export function isRef(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const ref = value as Record<string, unknown>;
  return (
    JSON.stringify(Object.keys(ref)) === '["id","name"]' &&
    typeof ref.id === 'string' &&
    ref.id.length > 0 &&
    typeof ref.name === 'string'
  );
}

/** True when `value` is of `kind` (timestamps in the exact wire form). */
export function hasKind(value: unknown, kind: Kind): boolean {
  switch (kind) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'timestamp':
      return (
        typeof value === 'string' &&
        TIMESTAMP.test(value) &&
        new Date(value).toISOString() === value
      );
    case 'ref':
      return isRef(value);
    case 'refs':
      return Array.isArray(value) && value.every(isRef);
    case 'array':
      return Array.isArray(value);
  }
}

/**
 * Checks records against a shape: exactly its keys, in its order; each value of its kind, or
 * null where nullable. Across the records, every key must be seen non-null at least once (so
 * its kind is really checked), and every nullable key null at least once, except the keys in
 * `alwaysNull` (never set in the fixture).
 */
export function expectShape(
  records: Record<string, unknown>[],
  fields: readonly Field[],
  alwaysNull: string[] = [],
): void {
  expect(records.length).toBeGreaterThan(0);
  const keys = fields.map((f) => f[0]);
  const problems: string[] = [];
  for (const record of records) {
    expect(Object.keys(record)).toEqual(keys);
    for (const [key, kind, nullable] of fields) {
      const value = record[key];
      if (value === null) {
        if (!nullable) problems.push(`${key} is null in ${record.id}`);
      } else if (!hasKind(value, kind)) {
        problems.push(`${key} is not a ${kind} in ${record.id}: ${JSON.stringify(value)}`);
      }
    }
  }
  for (const [key, , nullable] of fields) {
    const values = records.map((r) => r[key]);
    if (alwaysNull.includes(key)) {
      if (values.some((v) => v !== null)) problems.push(`${key} expected always null`);
      continue;
    }
    if (values.every((v) => v === null)) problems.push(`${key} is never set in the fixture`);
    if (nullable && values.every((v) => v !== null))
      problems.push(`${key} is never null in the fixture`);
  }
  expect(problems).toEqual([]);
}

/**
 * An error of shape A (`{success: false, message, reason}`, `reason` the message again), its
 * message naming `names` if given.
 */
export function expectErrorA(res: TestResponse, status: number, names?: string): void {
  expect(res.status, res.text).toBe(status);
  expect(Object.keys(res.json)).toEqual(['success', 'message', 'reason']);
  expect(res.json.success).toBe(false);
  expect(typeof res.json.message).toBe('string');
  expect(res.json.reason).toBe(res.json.message);
  if (names) expect(res.json.message).toContain(names);
}

/** An error of shape B (`{error}`). */
export function expectErrorB(res: TestResponse, status: number): void {
  expect(res.status, res.text).toBe(status);
  expect(Object.keys(res.json)).toEqual(['error']);
  expect(typeof res.json.error).toBe('string');
}

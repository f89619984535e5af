import { describe, expect, it } from 'vitest';
import { CUSTOM_FIELD_RECORD_TYPES } from '../src/domain/custom-fields.ts';
import { BUILT_IN_FIELDS } from '../src/domain/field-catalogue.ts';
import { fixedKeysOf } from '../src/resources/custom-fields/fixed-keys.ts';

describe('built-in field catalogue', () => {
  for (const type of CUSTOM_FIELD_RECORD_TYPES) {
    it(`names the fixed keys of ${type} records, in their order`, () => {
      expect(BUILT_IN_FIELDS[type].map((f) => f.name)).toEqual(fixedKeysOf(type));
    });
  }

  it('gives every body field its body key, and only those', () => {
    for (const fields of Object.values(BUILT_IN_FIELDS)) {
      for (const field of fields) {
        expect(field.access === 'body', field.name).toBe(field.bodyKey !== undefined);
      }
    }
  });
});

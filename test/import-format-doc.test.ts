import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importFormatDoc } from '../src/ingest/transfer-doc.ts';

describe('docs/import-format.md', () => {
  it('holds the schemas the import validates lines with', () => {
    expect(readFileSync('docs/import-format.md', 'utf8')).toBe(importFormatDoc());
  });
});

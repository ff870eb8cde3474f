import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configJsonSchemaText } from '../src/config/json-schema.js';

describe('schema/capi.config.schema.json', () => {
  it('matches the zod schema (UPDATE_SCHEMA=1 regenerates it)', () => {
    const url = new URL('../schema/capi.config.schema.json', import.meta.url);
    const expected = configJsonSchemaText();
    if (process.env.UPDATE_SCHEMA === '1') {
      writeFileSync(url, expected);
    }
    expect(readFileSync(url, 'utf8'), 'the committed JSON Schema drifted; run `UPDATE_SCHEMA=1 npx vitest run test/config-schema.test.ts`').toBe(expected);
  });
});

import { z } from 'zod';
import { configJsonSchemaId } from './json-schema-id.js';
import { configSchema } from './schema.js';

export { configJsonSchemaId, configJsonSchemaPath } from './json-schema-id.js';

/** The JSON Schema of `capi.config.*` as committed in `schema/capi.config.schema.json` (a test checks for drift). */
export function configJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(configSchema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any', reused: 'ref' }) as Record<string, unknown>;
  return { ...schema, $id: configJsonSchemaId(), title: 'capiform config' };
}

/** The committed file's exact text. */
export function configJsonSchemaText(): string {
  return `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
}

import { z } from 'zod';
import { capiformVersion } from '../version.js';
import { configSchema } from './schema.js';

/** Where the schema sits in the npm package and in the repository. */
export const configJsonSchemaPath = 'schema/capi.config.schema.json';

/**
 * The schema's `$id`: the committed file at this version's release tag, so the address an editor follows is this exact
 * file (the same bytes ship in the npm package at `configJsonSchemaPath`). package.json's `repository` names the same
 * repository; a test keeps the two in step.
 */
export function configJsonSchemaId(version: string = capiformVersion()): string {
  return `https://raw.githubusercontent.com/capiform/capiform/v${version}/${configJsonSchemaPath}`;
}

/** The JSON Schema of `capi.config.*` as committed in `schema/capi.config.schema.json` (a test checks for drift). */
export function configJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(configSchema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any', reused: 'ref' }) as Record<string, unknown>;
  return { ...schema, $id: configJsonSchemaId(), title: 'capiform config' };
}

/** The committed file's exact text. */
export function configJsonSchemaText(): string {
  return `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
}

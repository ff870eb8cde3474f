/** Where the config's JSON Schema lives, apart from json-schema.ts so that naming it does not load zod. */
import { capiformVersion } from '../version.js';

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

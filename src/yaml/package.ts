/**
 * The one module that loads the `yaml` package (pinned exactly in package.json: its output is product behaviour),
 * always with a profile of profiles.ts. It is loaded lazily: reading a manifest on the fast path never pays its
 * ~60 ms import.
 */
import { createRequire } from 'node:module';
import type * as YAMLNS from 'yaml';
import { emitPortable } from './portable.js';
import { readProfiles, writeProfiles, type ReadProfileName, type WriteProfileName } from './profiles.js';

let yamlMod: typeof YAMLNS | undefined;

/** The package, for src/yaml's own walks over parsed documents; other folders use the functions below. */
export function yamlPackage(): typeof YAMLNS {
  if (!yamlMod) yamlMod = createRequire(import.meta.url)('yaml') as typeof YAMLNS;
  return yamlMod;
}

export type YamlDocument = YAMLNS.Document.Parsed;
export type YamlNode = YAMLNS.Node;
export type YamlError = YAMLNS.YAMLError;

/** One document (the package reports a second one as an error), parsed with a profile's options. */
export function parseYamlDocument(text: string, profile: ReadProfileName): YamlDocument {
  return yamlPackage().parseDocument(text, readProfiles[profile].parse);
}

/** Every document of a stream, parsed with a profile's options; a stream without documents gives `[]`. */
export function parseYamlDocuments(text: string, profile: ReadProfileName): YamlDocument[] {
  const docs = yamlPackage().parseAllDocuments(text, readProfiles[profile].parse);
  return Array.isArray(docs) ? docs : [docs];
}

/** The read profiles whose values the package builds itself (the others type scalars in capiform's code). */
export type ValueProfileName = {
  [K in ReadProfileName]: (typeof readProfiles)[K] extends { toJS: object } ? K : never;
}[ReadProfileName];

/** A parsed document's value built by the package with the profile's limits (throws ReferenceError past them). */
export function yamlDocumentValue(doc: YamlDocument, profile: ValueProfileName): unknown {
  return doc.toJS(readProfiles[profile].toJS) as unknown;
}

/** A value as YAML text with a write profile's options (one document, final newline). */
export function stringifyYaml(value: unknown, profile: WriteProfileName): string {
  return emitPortable(value) ?? yamlPackage().stringify(value, writeProfiles[profile]);
}

export function isYamlAlias(node: unknown): node is YAMLNS.Alias {
  return yamlPackage().isAlias(node);
}

export function isYamlMap(node: unknown): node is YAMLNS.YAMLMap {
  return yamlPackage().isMap(node);
}

export function isYamlSeq(node: unknown): node is YAMLNS.YAMLSeq {
  return yamlPackage().isSeq(node);
}

export function isYamlPair(node: unknown): node is YAMLNS.Pair {
  return yamlPackage().isPair(node);
}

export function isYamlScalar(node: unknown): node is YAMLNS.Scalar {
  return yamlPackage().isScalar(node);
}

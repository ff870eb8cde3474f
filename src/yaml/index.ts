/**
 * capiform's YAML layer: clusterctl-exact reading, text-preserving writing, and go-yaml v2 compatible output. The
 * only folder that imports the `yaml` package; what it is given for each kind of file is a named profile with its
 * reasons in profiles.ts:
 * - reading: `manifest` (Kubernetes manifests: go-yaml v2's YAML 1.1 scalars, through parseManifests/decodeYaml),
 *   `config` (capi.config.yaml and capi.lock.yaml: YAML 1.2 core, through parseYamlValue), `clusterctl`
 *   (clusterctl.yaml: yaml.v3's YAML 1.2) and `providerMetadata` (a release's metadata.yaml);
 * - writing: `manifest` (YAML 1.1, objects capiform builds whole) and `config` (capi.lock.yaml) through
 *   stringifyYaml; emitManifests for manifests capiform transforms (spliced into their source text); emitGoYaml for
 *   go-yaml v2's own output (`--output-style clusterctl`).
 */
import { emitObject } from './emit.js';
import { parseDocuments, type ParseOptions, type ParsedDocument } from './parse.js';
import { spliceDocument } from './splice.js';

export {
  MAX_MANIFEST_SIZE,
  decodeYaml,
  goQuote,
  ordinalize,
  parseDocuments,
  parseManifests,
  type KubeObject,
  type ParseOptions,
  type ParsedDocument,
} from './parse.js';
export { emitObject, inlineString, isPlainSafe } from './emit.js';
export { deepEqual, spliceDocument } from './splice.js';
export { resolvePlain, isAmbiguousPlain } from './resolve.js';
export { splitDocuments } from './split.js';
export { emitGoYaml, fromUnstructured, goYamlLess, joinYaml } from './go-yaml.js';
export {
  MAX_CONFIG_SIZE,
  MAX_NESTING_DEPTH,
  checkSize,
  decodeUtf8,
  fileKindOf,
  notAFile,
  readTextFile,
} from './input.js';
export { checkConfinedFile, readConfinedFile, type ConfinedFileOptions } from './confined-file.js';
export type { ReadProfileName, WriteProfileName } from './profiles.js';
export {
  isYamlAlias,
  isYamlMap,
  isYamlScalar,
  isYamlSeq,
  parseYamlDocument,
  parseYamlDocuments,
  stringifyYaml,
  yamlDocumentValue,
  type ValueProfileName,
  type YamlDocument,
  type YamlError,
  type YamlNode,
} from './package.js';
export { checkNodeDepth, isStackOverflow, parseJsonValue, parseYamlValue, ValueSyntaxError } from './value.js';
export { onWarning, warn } from './warnings.js';
export { portableValue, readPortableYaml, type PortableNode, type PortableScalar } from './portable.js';
export { unmarshalYamlToJson, YamlToJsonError } from './unmarshal.js';

/** An object to write, with the source document it came from when it was read from a file. */
export interface ManifestEntry {
  value: Record<string, unknown>;
  source?: ParsedDocument;
}

/**
 * `parseManifests` keeping each object's source document, for `emitManifests` to splice changes into later:
 * `emitManifests(parseEntries(text).map((e) => ({ ...e, value: transform(e.value) })))`.
 */
export function parseEntries(text: string, opts: ParseOptions = {}): ManifestEntry[] {
  return parseDocuments(text, opts).map((d) => ({ value: d.value, source: d }));
}

/**
 * capiform's output format: documents separated by `---`, each document spliced into its source text when it has
 * one (untouched content byte-identical), else emitted in capiform's style. Ends with a newline; `\n` for no objects.
 */
export function emitManifests(items: Array<Record<string, unknown> | ManifestEntry>): string {
  if (items.length === 0) return '\n';
  return items
    .map((it) => {
      const e = isEntry(it) ? it : { value: it };
      return e.source ? spliceDocument(e.source, e.value) : emitObject(e.value);
    })
    .join('---\n');
}

function isEntry(v: Record<string, unknown> | ManifestEntry): v is ManifestEntry {
  const keys = Object.keys(v);
  return (
    'value' in v &&
    keys.every((k) => k === 'value' || k === 'source') &&
    v.value !== null &&
    typeof v.value === 'object' &&
    // A parsed entry carries its source document; objects without `kind` are valid manifests (spec R0.2).
    (typeof (v.value as Record<string, unknown>).kind === 'string' ||
      typeof (v as { source?: { text?: unknown } }).source?.text === 'string')
  );
}

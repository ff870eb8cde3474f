/**
 * `sigs.k8s.io/yaml.Unmarshal(text, &apiextensionsv1.JSON{})`: what CAPI does with the text a patch's value template
 * or `enabledIf` renders (core/reconcilers/topology/cluster/patches/inline/json_patch_generator.go). go-yaml v2 reads
 * the first document only (later ones are never looked at), with YAML 1.1 scalars (`yes`/`on`/`y` are booleans,
 * `0644` is octal); the result is then marshalled with encoding/json, which sorts map keys and refuses NaN and ±Inf.
 * Empty text (or a document holding only comments) is JSON null.
 */
import { compareGoStrings } from '../go/index.js';
import { tooDeep } from './input.js';
import { parseYamlDocuments } from './package.js';
import { decodeYaml } from './parse.js';
import { slowParseDocument, YamlDepthError } from './slow-parse.js';

/** The JSON step refused a value (`json: unsupported value: +Inf`); YAML syntax errors are thrown as they come. */
export class YamlToJsonError extends Error {}

/** A line that opens (`---`) or closes (`...`) a document: only then may the text hold more than one document. */
const documentMarker = /^(?:---|\.\.\.)(?:[ \t\r]|$)/m;

/**
 * A root block scalar (`|`, `>-`, `&a |+`, without an indentation indicator) whose first content line starts in
 * column 0: go-yaml's scanner gives a block scalar at least one column of indentation (yaml_parser_scan_block_scalar:
 * `indent` is at least 1), so the scalar is empty and the line after it is a next node, which Unmarshal never reads.
 * YAML 1.2 readers take column-0 lines as the root scalar's content. Returns the scalar's value, or undefined.
 */
const rootBlockScalar = /^(?:[ \t]*(?:#[^\n]*)?\n)*(?:[&!][^ \t\n]*[ \t]+)*([|>])([-+]?)[ \t]*(?:#[^\n]*)?\n((?:[ \t]*\n)*)[^ \t\n]/;

function emptyRootBlockScalar(text: string): string | undefined {
  const m = rootBlockScalar.exec(text);
  if (!m) return undefined;
  // Keep chomping keeps the empty lines before the next node; clip and strip keep none.
  return m[2] === '+' ? '\n'.repeat((m[3] ?? '').split('\n').length - 1) : '';
}

export function unmarshalYamlToJson(text: string): unknown {
  const empty = documentMarker.test(text) ? undefined : emptyRootBlockScalar(text);
  if (empty !== undefined) return empty;
  let value: unknown;
  try {
    value = documentMarker.test(text) ? firstDocument(text) : decodeYaml(text);
  } catch (e) {
    const root = rootNodeEnd(text);
    if (root === undefined) throw e;
    value = decodeYaml(text.slice(0, root));
  }
  return value === undefined ? null : toJsonValue(value);
}

/**
 * Where the root node ends when the text goes on after it with more nodes (`"a" ""`, `[1] [2]`, `"a"\n"b"`):
 * go-yaml's parser closes the document after a root scalar or flow collection and Unmarshal never reads on, so
 * sigs.k8s.io/yaml gives the first node. After a block mapping or sequence the same text is an error in Go too
 * (`did not find expected key`), and so is anything before the root node ends: then undefined.
 */
function rootNodeEnd(text: string): number | undefined {
  const doc = parseYamlDocuments(text, 'manifest')[0];
  const contents = doc?.contents as { range?: [number, number, number]; flow?: boolean; items?: unknown } | null | undefined;
  if (!doc || !contents?.range || doc.errors.length === 0) return undefined;
  const isBlockCollection = Array.isArray(contents.items) && contents.flow !== true;
  if (isBlockCollection) return undefined;
  const end = contents.range[1];
  // No root node before the error (`]`, `}`): nothing to read, the error stands.
  if (text.slice(0, end).trim() === '') return undefined;
  const first = doc.errors[0] as { pos?: [number, number] } | undefined;
  if (!first?.pos || first.pos[0] < end) return undefined;
  // Only other nodes may follow: a second root node starts with a quote, a flow indicator or plain text.
  return text.slice(end).trimStart() === '' ? undefined : end;
}

/**
 * The first document of a text with document markers, read by the `yaml` package (the fast reader knows no markers),
 * up to its end so that a second document's content (even invalid) is never read.
 */
function firstDocument(text: string): unknown {
  const first = parseYamlDocuments(text, 'manifest')[0];
  const end = first?.range?.[2];
  try {
    return slowParseDocument(end === undefined ? text : text.slice(0, end));
  } catch (e) {
    if (e instanceof YamlDepthError) throw tooDeep(undefined, e.line);
    throw e;
  }
}

/** encoding/json's view of a decoded value: keys in byte order, non-finite numbers refused. */
function toJsonValue(value: unknown): unknown {
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return value;
    const shown = Number.isNaN(value) ? 'NaN' : value > 0 ? '+Inf' : '-Inf';
    throw new YamlToJsonError(`error converting YAML to JSON: json: unsupported value: ${shown}`);
  }
  if (Array.isArray(value)) return value.map(toJsonValue);
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => compareGoStrings(a, b));
    const out: Record<string, unknown> = {};
    for (const [k, v] of entries) {
      // defineProperty: a key named `__proto__` is an ordinary key in Go.
      Object.defineProperty(out, k, { value: toJsonValue(v), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}


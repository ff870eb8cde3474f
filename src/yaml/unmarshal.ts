/**
 * `sigs.k8s.io/yaml.Unmarshal(text, &apiextensionsv1.JSON{})`: what CAPI does with the text a patch's value template
 * or `enabledIf` renders (core/reconcilers/topology/cluster/patches/inline/json_patch_generator.go). go-yaml v2 reads
 * the first document only (later ones are never looked at), with YAML 1.1 scalars (`yes`/`on`/`y` are booleans,
 * `0644` is octal); the result is then marshalled with encoding/json, which sorts map keys and refuses NaN and ±Inf.
 * Empty text (or a document holding only comments) is JSON null.
 */
import { tooDeep } from './input.js';
import { parseYamlDocuments } from './package.js';
import { decodeYaml } from './parse.js';
import { slowParseDocument, YamlDepthError } from './slow-parse.js';

/** The JSON step refused a value (`json: unsupported value: +Inf`); YAML syntax errors are thrown as they come. */
export class YamlToJsonError extends Error {}

/** A line that opens (`---`) or closes (`...`) a document: only then may the text hold more than one document. */
const documentMarker = /^(?:---|\.\.\.)(?:[ \t\r]|$)/m;

export function unmarshalYamlToJson(text: string): unknown {
  const value = documentMarker.test(text) ? firstDocument(text) : decodeYaml(text);
  return value === undefined ? null : toJsonValue(value);
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
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => compareUtf8(a, b));
    const out: Record<string, unknown> = {};
    for (const [k, v] of entries) {
      // defineProperty: a key named `__proto__` is an ordinary key in Go.
      Object.defineProperty(out, k, { value: toJsonValue(v), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}

/** Go's string order (UTF-8 bytes), which is code point order. */
function compareUtf8(a: string, b: string): number {
  if (a === b) return 0;
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done) return y.done ? 0 : -1;
    if (y.done) return 1;
    const cx = x.value.codePointAt(0) as number;
    const cy = y.value.codePointAt(0) as number;
    if (cx !== cy) return cx < cy ? -1 : 1;
  }
}

/**
 * clusterctl's `ToUnstructured` (util/yaml): split with apimachinery's rules, decode each document with go-yaml v2
 * semantics, drop empty documents, and fail on a document that is not an object with a kind, with clusterctl's
 * message `failed to unmarshal the <Nth> yaml document: "<doc>": …` plus our `where` (file:line) and a hint.
 *
 * Each document is parsed by the fast text-preserving parser when it can (fast-parse.ts), else by the `yaml`
 * package (slow-parse.ts). Both give the same JSON value; the fast one also keeps the source offsets that let
 * emitters splice edits into the original text.
 */
import { InputError } from '../errors.js';
import { goQuote } from '../go/index.js';
import { Bail, FastParser, type Node } from './fast-parse.js';
import { checkSize, MAX_MANIFEST_SIZE, tooDeep } from './input.js';
import { slowParseDocument, YamlDepthError, YamlSyntaxError } from './slow-parse.js';
import { splitDocuments } from './split.js';
import { warn } from './warnings.js';

export type KubeObject = Record<string, unknown>;

export { MAX_MANIFEST_SIZE };

export interface ParsedDocument {
  /** The document's source text (without separator lines). */
  text: string;
  /** 1-based line of the document's first line in the whole file. */
  line: number;
  /** The source tree with offsets into `text`, when the fast parser understood the document. */
  node: Node | null;
  /** The text repeats a mapping key (the value holds the last one): emitters must not reuse the text as is. */
  duplicateKeys?: boolean;
  value: KubeObject;
}

export interface ParseOptions {
  /** File name or URL for error locations. */
  source?: string;
  /** Set false to parse every document with the `yaml` package (the reference path; tests use it). */
  fast?: boolean;
  /**
   * A key a mapping already has: `warn` (the default) keeps the last value as clusterctl does and warns, for
   * upstream files; `error` refuses the document, for files capiform wrote (the rendered tree); `last-wins` is
   * clusterctl's silent behaviour.
   */
  duplicateKeys?: 'warn' | 'error' | 'last-wins';
}

/** clusterctl `util.Ordinalize`, including its 11st/12nd/13rd quirk. */
export function ordinalize(n: number): string {
  const m = n % 10;
  const suffix = m === 1 ? 'st' : m === 2 ? 'nd' : m === 3 ? 'rd' : 'th';
  return `${n}${suffix}`;
}


/** Documents quoted in error messages longer than this are shortened (clusterctl quotes them whole). */
const QUOTE_LIMIT = 2000;

function goTypeName(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  return 'object';
}

/** Parses a whole manifest into documents (empty ones dropped), keeping what the splicer needs. */
export function parseDocuments(text: string, opts: ParseOptions = {}): ParsedDocument[] {
  const where = (line: number) => (opts.source ? `${opts.source}:${line}` : `line ${line}`);
  checkSize(text.length, MAX_MANIFEST_SIZE, opts.source, 'manifest');
  const duplicateKeys = opts.duplicateKeys ?? 'warn';
  const chunks = splitDocuments(text, opts.source);
  const out: ParsedDocument[] = [];
  for (const chunk of chunks) {
    const docText = text.slice(chunk.start, chunk.end);
    let node: Node | null = null;
    let value: unknown;
    let fastOk = false;
    if (opts.fast !== false) {
      try {
        node = new FastParser(docText, 0, docText.length).parseDocument();
        value = node === null ? undefined : node.value;
        fastOk = node === null || node.t === 'map';
        if (!fastOk) node = null;
      } catch (e) {
        if (!(e instanceof Bail)) throw e;
        node = null;
      }
    }
    const fail = (inner: string, line?: number): never => {
      const ord = ordinalize(out.length + 1);
      const quoted =
        docText.length > QUOTE_LIMIT ? goQuote(docText.slice(0, QUOTE_LIMIT)).slice(0, -1) + '…"' : goQuote(docText);
      throw new InputError(`failed to unmarshal the ${ord} yaml document: ${quoted}: ${inner}`, {
        where: where(chunk.line + (line ?? 1) - 1),
        hint:
          line !== undefined
            ? 'Fix the YAML syntax at that line (after variable substitution).'
            : 'Each document must be a YAML mapping with a kind.',
      });
    };
    let duplicated = false;
    if (!fastOk) {
      const onDuplicateKey =
        duplicateKeys === 'last-wins'
          ? undefined
          : (key: string, line: number): void => {
              const at = where(chunk.line + line - 1);
              duplicated = true;
              if (duplicateKeys === 'warn') {
                warn(`${at}: mapping key "${key}" appears more than once; the last value is used, as clusterctl does`);
                return;
              }
              throw new InputError(`mapping key "${key}" appears more than once`, {
                where: at,
                hint: 'keep one of the keys: which value was meant is ambiguous (was the file edited by hand?)',
              }, 'E_DUPLICATE_KEY');
            };
      try {
        value = slowParseDocument(docText, onDuplicateKey ? { onDuplicateKey } : {});
      } catch (e) {
        if (e instanceof YamlDepthError) throw tooDeep(opts.source, e.line === undefined ? chunk.line : chunk.line + e.line - 1);
        if (e instanceof YamlSyntaxError) {
          const lineInfo = e.line !== undefined ? `line ${e.line}: ` : '';
          fail(`error converting YAML to JSON: yaml: ${lineInfo}${e.message}`, e.line);
        }
        throw e;
      }
    }
    if (value === undefined || value === null) continue;
    if (typeof value !== 'object' || Array.isArray(value)) {
      fail(
        `error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${goTypeName(value)} into Go value of type map[string]interface {}`,
      );
    }
    // clusterctl decodes into map[string]interface{} (spec R0.2), so a mapping without `kind` is accepted
    // (`generate yaml` of `v1: ${VAR1:=default1}` works; vector envsubst-018).
    const obj = value as KubeObject;
    out.push({ text: docText, line: chunk.line, node: fastOk ? node : null, value: obj, ...(duplicated ? { duplicateKeys: true } : {}) });
  }
  return out;
}

/**
 * `sigs.k8s.io/yaml.Unmarshal` of one document into `interface{}`: the JSON value (undefined for an empty document),
 * without ToUnstructured's object checks. Throws YamlSyntaxError on invalid YAML.
 */
export function decodeYaml(text: string): unknown {
  try {
    const node = new FastParser(text, 0, text.length).parseDocument();
    return node === null ? undefined : node.value;
  } catch (e) {
    if (!(e instanceof Bail)) throw e;
  }
  try {
    return slowParseDocument(text);
  } catch (e) {
    if (e instanceof YamlDepthError) throw tooDeep(undefined, e.line);
    throw e;
  }
}

/** `ToUnstructured`: the objects of a manifest, in order. */
export function parseManifests(text: string, opts: ParseOptions = {}): KubeObject[] {
  return parseDocuments(text, opts).map((d) => d.value);
}

export { goQuote };

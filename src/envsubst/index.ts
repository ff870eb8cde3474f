/**
 * clusterctl's variable substitution, exactly: drone/envsubst (commit 179042472c46) as cluster-api's
 * `SimpleProcessor` calls it. See `spec/envsubst.md`. Everything works on UTF-8 bytes internally, so byte-based
 * offsets, lengths and trims give Go's results; the string APIs decode the result at the end.
 *
 * Steps of {@link process}: legacy `${ VAR }` rewrite, parse (exact library error messages), inventory of top-level
 * variables with their first-occurrence default strings, missing check (clusterctl's message, names in UTF-8 byte
 * order), evaluation (unset and empty both read as `""`).
 */
import { MissingVariablesError, TemplateSyntaxError } from '../errors.js';
import { compareGoStrings } from '../go/index.js';
import { evalNodes, evalNodesToString } from './eval.js';
import { rewriteLegacyVariables, rewriteLegacyVariablesString } from './legacy.js';
import { EnvsubstParseError, parseTemplate, parseTemplateString, type FuncNode, type Node } from './parse.js';
import { concatBytes } from './utf8.js';

export { EnvsubstPanic } from './funcs.js';
export { mergeTemplates, type MergeableTemplate, type MergedTemplate } from './merge-templates.js';

/** Variables for {@link substitute}: only own keys count; a key with value `""` is set-empty. */
export type Variables = Record<string, string> | Map<string, string>;

/** One variable of a template: its name and the default string built from its first top-level use. */
export interface TemplateVariable {
  name: string;
  /** `null` when the variable is required (no default, or an empty one). */
  default: string | null;
}

const encoder = new TextEncoder();
// ignoreBOM: a leading U+FEFF is content, not a byte order mark to strip.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const EMPTY = new Uint8Array(0);

function toBytes(text: string): Uint8Array {
  return encoder.encode(text);
}

function decode(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** `parse.Parse`, with the library's error as a TemplateSyntaxError. */
function parseBytes(buf: Uint8Array): Node[] {
  try {
    return parseTemplate(buf);
  } catch (err) {
    if (err instanceof EnvsubstParseError) throw new TemplateSyntaxError(err.message);
    throw err;
  }
}

/**
 * `parse.Parse` on a string (same tree, text nodes kept as strings). The error's `where` is the line of the
 * substitution that failed (`line N`; callers prefix the file); the message stays exactly the library's.
 */
function parseString(text: string): (string | FuncNode)[] {
  try {
    return parseTemplateString(text);
  } catch (err) {
    if (err instanceof EnvsubstParseError) {
      let line = 1;
      for (let i = text.indexOf('\n'); i >= 0 && i < err.offset; i = text.indexOf('\n', i + 1)) line++;
      throw new TemplateSyntaxError(err.message, {
        where: err.offset >= 0 ? `line ${line}` : undefined,
        hint: 'check the ${…} expression on that line (see the envsubst syntax: ${VAR}, ${VAR:=default}, …)',
      });
    }
    throw err;
  }
}

/**
 * clusterctl's `inspectVariables`/`traverse`: top-level substitutions only; the first occurrence of a name decides
 * its default string (literal arguments verbatim, nested substitutions as `${NAME}`, for every operator).
 */
function inventory(nodes: readonly (Node | string)[]): Map<string, Uint8Array> {
  const vars = new Map<string, Uint8Array>();
  for (const n of nodes) {
    if (typeof n === 'string' || n instanceof Uint8Array || vars.has(n.param)) continue;
    vars.set(n.param, defaultString(n));
  }
  return vars;
}

function defaultString(n: FuncNode): Uint8Array {
  if (n.args.length === 0) return EMPTY;
  const parts = n.args.map((a) => (a instanceof Uint8Array ? a : toBytes(`\${${a.param}}`)));
  return parts.length === 1 ? parts[0]! : concatBytes(parts);
}

function sortedNames(names: Iterable<string>): string[] {
  return [...names].sort(compareGoStrings);
}

/**
 * clusterctl's check before substituting: every variable used without a default must be set (else
 * MissingVariablesError naming them all). Returns the values of the set ones, through `convert`.
 */
function requireVariables<V>(
  nodes: readonly (Node | string)[],
  lookup: (name: string) => string | undefined,
  convert: (value: string) => V,
): Map<string, V> {
  const values = new Map<string, V>();
  const missing: string[] = [];
  for (const [name, def] of inventory(nodes)) {
    const v = lookup(name);
    if (v === undefined) {
      if (def.length === 0) missing.push(name);
    } else {
      values.set(name, convert(v));
    }
  }
  if (missing.length > 0) throw new MissingVariablesError(sortedNames(missing));
  return values;
}

/**
 * clusterctl `SimpleProcessor.Process` on bytes. `lookup(name)` returns the value, or undefined when unset.
 * Throws TemplateSyntaxError, MissingVariablesError, or EnvsubstPanic (an InputError).
 */
export function processBytes(raw: Uint8Array, lookup: (name: string) => string | undefined): Uint8Array {
  const buf = rewriteLegacyVariables(raw);
  const nodes = parseBytes(buf);
  const values = requireVariables(nodes, lookup, toBytes);
  return evalNodes(nodes, (name) => {
    let b = values.get(name);
    if (b === undefined) {
      const v = lookup(name);
      b = v === undefined || v === '' ? EMPTY : toBytes(v);
      values.set(name, b);
    }
    return b;
  });
}

/** clusterctl `SimpleProcessor.Process` with a lookup function (undefined = unset, `""` = set-empty). */
export function process(text: string, lookup: (name: string) => string | undefined): string {
  // Without `$` nothing can change, except that Go's scanner stops at the first NUL (rune 0 doubles as end of input).
  if (text.indexOf('$') < 0 && text.indexOf('\0') < 0) return text;
  // Fast path: top-level text stays a string; only the substitutions are handled as bytes.
  const nodes = parseString(rewriteLegacyVariablesString(text));
  const strings = requireVariables(nodes, lookup, (v) => v);
  const stringValue = (name: string): string => {
    let v = strings.get(name);
    if (v === undefined) {
      v = lookup(name) ?? '';
      strings.set(name, v);
    }
    return v;
  };
  const bytes = new Map<string, Uint8Array>();
  const out = evalNodesToString(nodes, (name) => {
    let b = bytes.get(name);
    if (b === undefined) {
      const v = stringValue(name);
      b = v === '' ? EMPTY : toBytes(v);
      bytes.set(name, b);
    }
    return b;
  }, stringValue);
  // A substitution cut a character in two: evaluate on bytes, where the pieces can rejoin, as Go's output does.
  return out ?? decode(processBytes(toBytes(text), lookup));
}

function lookupIn(variables: Variables): (name: string) => string | undefined {
  if (variables instanceof Map) return (name) => variables.get(name);
  return (name) => (Object.prototype.hasOwnProperty.call(variables, name) ? variables[name] : undefined);
}

/** Substitutes `${…}` in text exactly as clusterctl does; variables absent from `variables` are unset. */
export function substitute(text: string, variables: Variables): string {
  return process(text, lookupIn(variables));
}

/** {@link substitute} on raw bytes; the result may be invalid UTF-8, exactly as Go produces it. */
export function substituteBytes(bytes: Uint8Array, variables: Variables): Uint8Array {
  // A plain view: Buffer#subarray is much slower than Uint8Array#subarray.
  return processBytes(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), lookupIn(variables));
}

/**
 * `envsubst.Eval(text, mapping)`: the library alone, with no legacy rewrite and no missing check. `mapping`
 * returns the value, `""` when unset.
 */
export function envsubstEval(text: string, mapping: (name: string) => string): string {
  const nodes = parseBytes(toBytes(text));
  const cache = new Map<string, Uint8Array>();
  return decode(
    evalNodes(nodes, (name) => {
      let b = cache.get(name);
      if (b === undefined) {
        b = toBytes(mapping(name));
        cache.set(name, b);
      }
      return b;
    }),
  );
}

/**
 * The template's variables in UTF-8 byte order with their defaults (`--list-variables`, clusterctl
 * `GetVariableMap`). Throws TemplateSyntaxError.
 */
export function listVariables(text: string): TemplateVariable[] {
  const vars = inventory(parseString(rewriteLegacyVariablesString(text)));
  return sortedNames(vars.keys()).map((name) => {
    const def = vars.get(name)!;
    return { name, default: def.length === 0 ? null : decode(def) };
  });
}

/** clusterctl `GetVariables`: the sorted, de-duplicated variable names. Throws TemplateSyntaxError. */
export function getVariables(text: string): string[] {
  return sortedNames(inventory(parseString(rewriteLegacyVariablesString(text))).keys());
}

/** clusterctl `GetVariableMap`: name → default string, or null when required. */
export function getVariableMap(text: string): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  // defineProperty: `__proto__` is a valid variable name.
  for (const v of listVariables(text)) {
    Object.defineProperty(out, v.name, { value: v.default, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

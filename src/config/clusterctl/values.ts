/**
 * clusterctl.yaml as viper sees it: YAML 1.2 read the way go.yaml.in/yaml/v3 decodes into `map[string]any`,
 * keys lower-cased (viper is case-insensitive), nested lookups by `.`-separated paths, and `cast.ToString` /
 * mapstructure "weak" conversions of scalars to strings.
 */
import { ConfigError } from '../../errors.js';
import {
  checkNodeDepth,
  isStackOverflow,
  isYamlAlias,
  isYamlMap,
  isYamlScalar,
  isYamlSeq,
  MAX_NESTING_DEPTH,
  parseYamlDocuments,
  readPortableYaml,
  ValueSyntaxError,
  type PortableNode,
  type YamlDocument,
  type YamlNode,
} from '../../yaml/index.js';

/** A scalar with its yaml.v3 type and its `cast.ToString` text (`""` for null). */
export interface ConfigScalar {
  kind: 'str' | 'int' | 'float' | 'bool' | 'null';
  text: string;
}
export type ConfigValue = ConfigScalar | ConfigValue[] | ConfigMap;
export type ConfigMap = Map<string, ConfigValue>;

export function isConfigMap(v: ConfigValue | undefined): v is ConfigMap {
  return v instanceof Map;
}
export function isConfigScalar(v: ConfigValue | undefined): v is ConfigScalar {
  return v !== undefined && !(v instanceof Map) && !Array.isArray(v);
}

const yamlStyleFloat = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;

/** Go `strconv.FormatFloat(f, 'f', -1, 64)`. */
export function formatFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (f === Infinity) return '+Inf';
  if (f === -Infinity) return '-Inf';
  if (Object.is(f, -0)) return '-0';
  const s = String(f);
  if (!/e/i.test(s)) return s;
  // Expand exponent notation without losing the shortest digits.
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const sign = m[1] ?? '';
  const digits = (m[2] ?? '') + (m[3] ?? '');
  const exp = Number(m[4]);
  const point = 1 + exp;
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** Go `strconv.ParseInt(s, 0, 64)` then `ParseUint(s, 0, 64)`: decimal text of the value, or null. */
function parseGoInt(plain: string): string | null {
  const m = /^([-+]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/.exec(plain);
  if (!m) return null;
  const sign = m[1] === '-' ? -1n : 1n;
  const body = m[2] ?? '0';
  let n: bigint;
  if (/^0[oO]/.test(body)) n = BigInt(`0o${body.slice(2)}`);
  else if (/^0[0-7]+$/.test(body)) n = BigInt(`0o${body.slice(1)}`);
  else n = BigInt(body);
  n *= sign;
  if (n < -(1n << 63n) || n > (1n << 64n) - 1n) return null;
  if (n > (1n << 63n) - 1n && sign < 0n) return null;
  return n.toString();
}

/** yaml.v3 `resolve` for a plain (untagged, unquoted) scalar. */
export function resolvePlainScalar(text: string): ConfigScalar {
  switch (text) {
    case '':
    case '~':
    case 'null':
    case 'Null':
    case 'NULL':
      return { kind: 'null', text: '' };
    case 'true':
    case 'True':
    case 'TRUE':
      return { kind: 'bool', text: 'true' };
    case 'false':
    case 'False':
    case 'FALSE':
      return { kind: 'bool', text: 'false' };
    case '.inf':
    case '.Inf':
    case '.INF':
    case '+.inf':
    case '+.Inf':
    case '+.INF':
      return { kind: 'float', text: '+Inf' };
    case '-.inf':
    case '-.Inf':
    case '-.INF':
      return { kind: 'float', text: '-Inf' };
    case '.nan':
    case '.NaN':
    case '.NAN':
      return { kind: 'float', text: 'NaN' };
  }
  const c = text[0] ?? '';
  if (/[-+.0-9]/.test(c)) {
    const plain = text.replace(/_/g, '');
    const int = parseGoInt(plain);
    if (int !== null) return { kind: 'int', text: int };
    if (yamlStyleFloat.test(plain)) {
      const f = Number(plain);
      if (!Number.isNaN(f)) return { kind: 'float', text: formatFloat(f) };
    }
  }
  return { kind: 'str', text };
}

function scalarFromNode(node: YamlNode): ConfigScalar {
  if (!isYamlScalar(node)) return { kind: 'str', text: '' };
  const value = node.value;
  const text = value === null || value === undefined ? '' : String(value);
  const tag = node.tag;
  if (tag === '!!str' || tag === 'tag:yaml.org,2002:str') return { kind: 'str', text };
  if (tag === '!!null' || tag === 'tag:yaml.org,2002:null') return { kind: 'null', text: '' };
  if (node.type === 'PLAIN' || (tag !== undefined && tag !== null)) return resolvePlainScalar(text);
  return { kind: 'str', text };
}

const maxNodes = 1_000_000;

/** Converts a parsed document to config values, resolving aliases with a bound on total work. */
function toConfigValue(doc: YamlDocument, node: unknown, budget: { n: number }): ConfigValue {
  if (--budget.n < 0) throw new ConfigError('While parsing config: document too large or too many alias expansions');
  if (isYamlAlias(node)) return toConfigValue(doc, node.resolve(doc), budget);
  if (isYamlMap(node)) {
    const out: ConfigMap = new Map();
    const merged: ConfigMap[] = [];
    for (const pair of node.items) {
      const keyNode = isYamlAlias(pair.key) ? pair.key.resolve(doc) : pair.key;
      const key = isYamlScalar(keyNode) ? String(keyNode.value ?? '') : String(keyNode ?? '');
      const value = toConfigValue(doc, pair.value, budget);
      if (key === '<<' && isYamlScalar(keyNode) && keyNode.type === 'PLAIN') {
        // yaml.v3 merge keys: explicit keys win over merged ones, earlier merged maps over later ones.
        for (const m of Array.isArray(value) ? value : [value]) if (isConfigMap(m)) merged.push(m);
        continue;
      }
      out.set(goToLower(key), value);
    }
    for (const m of merged) for (const [k, v] of m) if (!out.has(k)) out.set(k, v);
    return out;
  }
  if (isYamlSeq(node)) return node.items.map((item) => toConfigValue(doc, item, budget));
  if (isYamlScalar(node)) return scalarFromNode(node);
  return { kind: 'null', text: '' };
}

function tooDeepConfig(source: string, line: number | undefined): ConfigError {
  return new ConfigError(`While parsing config: nesting is deeper than ${MAX_NESTING_DEPTH} levels of mappings and sequences`, {
    where: line === undefined ? source : `${source}:${line}`,
    hint: 'flatten the clusterctl configuration file; its values nest a few levels at most',
  }, 'E_INPUT_TOO_DEEP');
}

/**
 * The config values of a portable document (most clusterctl.yaml files: URLs, names, versions), typed by yaml.v3's
 * rules as the package's path types them; undefined past the node budget, for that path to report.
 */
function fromPortable(node: PortableNode, budget: { n: number }): ConfigValue | undefined {
  if (--budget.n < 0) return undefined;
  if (node.t === 'scalar') return node.plain === null ? { kind: 'str', text: String(node.value) } : resolvePlainScalar(node.plain);
  if (node.t === 'seq') {
    const items: ConfigValue[] = [];
    for (const item of node.items) {
      const v = fromPortable(item, budget);
      if (v === undefined) return undefined;
      items.push(v);
    }
    return items;
  }
  const out: ConfigMap = new Map();
  for (const [key, item] of node.entries) {
    const v = fromPortable(item, budget);
    if (v === undefined) return undefined;
    out.set(goToLower(key), v);
  }
  return out;
}

/**
 * Parses clusterctl.yaml (or .json) text as viper reads it. Errors are ConfigErrors `While parsing config: …`
 * with `where` = `source:line`.
 */
export function parseConfigText(text: string, source: string): ConfigMap {
  const portable = readPortableYaml(text);
  if (portable === null) return new Map();
  if (portable?.t === 'map') {
    const value = fromPortable(portable, { n: maxNodes });
    if (value !== undefined) return value as ConfigMap;
  }
  const first = parseYamlDocuments(text, 'clusterctl')[0];
  if (!first) return new Map();
  const err = first.errors[0];
  if (err && isStackOverflow(err)) throw tooDeepConfig(source, err.linePos?.[0]?.line);
  if (err) {
    const line = err.linePos?.[0]?.line;
    const summary = (err.message.split('\n')[0] ?? err.message).replace(/ at line \d+, column \d+:?$/, '');
    throw new ConfigError(`While parsing config: yaml: ${line ? `line ${line}: ` : ''}${summary}`, {
      where: line ? `${source}:${line}` : source,
      hint: 'fix the YAML syntax of the clusterctl configuration file',
    });
  }
  const contents = first.contents;
  if (contents === null || contents === undefined) return new Map();
  try {
    checkNodeDepth(contents, text);
  } catch (e) {
    if (e instanceof ValueSyntaxError) throw tooDeepConfig(source, e.line);
    throw e;
  }
  let value: ConfigValue;
  try {
    value = toConfigValue(first, contents, { n: maxNodes });
  } catch (e) {
    if (!(e instanceof ConfigError) || e.where !== undefined) throw e;
    // The message is clusterctl's; where and how to fix are capiform's.
    throw new ConfigError(e.message, {
      where: source,
      hint: `the clusterctl configuration file expands to more than ${maxNodes} values: remove the aliases that repeat one another (an alias bomb)`,
    }, 'E_YAML_ALIASES');
  }
  if (isConfigScalar(value) && value.kind === 'null') return new Map();
  if (!isConfigMap(value)) {
    const what = Array.isArray(value) ? '!!seq' : '!!str';
    throw new ConfigError(
      `While parsing config: yaml: unmarshal errors:\n  line 1: cannot unmarshal ${what} into map[string]interface {}`,
      { where: source, hint: 'the clusterctl configuration file must be a mapping of keys to values' },
    );
  }
  return value;
}

/** Converts JSON.parse output into config values (viper's JSON codec). */
export function fromJson(value: unknown): ConfigValue {
  if (value === null || value === undefined) return { kind: 'null', text: '' };
  if (typeof value === 'string') return { kind: 'str', text: value };
  if (typeof value === 'boolean') return { kind: 'bool', text: String(value) };
  if (typeof value === 'number') return { kind: 'float', text: formatFloat(value) };
  if (Array.isArray(value)) return value.map(fromJson);
  const out: ConfigMap = new Map();
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out.set(goToLower(k), fromJson(v));
  return out;
}

/** viper `searchIndexableWithPathPrefixes`: longest matching prefix first; lists are indexed by number. */
export function searchIndexable(source: ConfigValue, path: string[]): ConfigValue | undefined {
  if (path.length === 0) return source;
  for (let i = path.length; i > 0; i--) {
    const prefixKey = goToLower(path.slice(0, i).join('.'));
    let next: ConfigValue | undefined;
    if (isConfigMap(source)) next = source.get(prefixKey);
    else if (Array.isArray(source)) {
      if (/^[-+]?[0-9]+$/.test(prefixKey)) {
        const idx = Number(prefixKey);
        if (idx >= 0 && idx < source.length) next = source[idx];
      }
    }
    if (next === undefined || (isConfigScalar(next) && next.kind === 'null')) continue;
    if (i === path.length) return next;
    if (isConfigScalar(next)) continue;
    const found = searchIndexable(next, path.slice(i));
    if (found !== undefined) return found;
  }
  return undefined;
}

/** viper `searchMap`: exact nested path (used for values set by clusterctl itself). */
export function searchMap(source: ConfigMap, path: string[]): ConfigValue | undefined {
  let cur: ConfigValue | undefined = source;
  for (const p of path) {
    if (!isConfigMap(cur)) return undefined;
    cur = cur.get(goToLower(p));
  }
  if (isConfigScalar(cur) && cur.kind === 'null') return undefined;
  return cur;
}

/** viper `isPathShadowedInDeepMap`: a proper prefix of the path holds a leaf value. */
export function isPathShadowed(source: ConfigMap, path: string[]): boolean {
  let cur: ConfigValue | undefined = source;
  for (let i = 0; i < path.length - 1; i++) {
    if (!isConfigMap(cur)) return false;
    cur = cur.get(goToLower(path[i] ?? ''));
    if (cur === undefined) return false;
    if (isConfigScalar(cur)) return cur.kind !== 'null';
  }
  return false;
}

/** `cast.ToString`: scalars as text, maps and lists as `""`. */
export function castToString(v: ConfigValue): string {
  return isConfigScalar(v) ? v.text : '';
}

/**
 * mapstructure weak decoding of a value into a Go `string` field: strings as-is, ints and floats as decimal text,
 * bools as `"1"`/`"0"`, null as `""`. Maps and lists cannot be converted (returns null).
 */
export function weakString(v: ConfigValue | undefined): string | null {
  if (v === undefined) return '';
  if (!isConfigScalar(v)) return null;
  if (v.kind === 'bool') return v.text === 'true' ? '1' : '0';
  return v.text;
}

/** Go `strconv.ParseBool`. */
export function parseGoBool(s: string): boolean | null {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(s)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(s)) return false;
  return null;
}

/** mapstructure weak decoding into a Go `bool` field. */
export function weakBool(v: ConfigValue | undefined): boolean | null {
  if (v === undefined) return false;
  if (!isConfigScalar(v)) return null;
  switch (v.kind) {
    case 'null':
      return false;
    case 'bool':
      return v.text === 'true';
    case 'int':
    case 'float':
      return Number(v.text) !== 0;
    case 'str':
      return v.text === '' ? false : parseGoBool(v.text);
  }
}

/** A plain JS view of a config value (maps become objects), for display and tests. */
export function toPlain(v: ConfigValue): unknown {
  if (isConfigMap(v)) return Object.fromEntries([...v].map(([k, x]) => [k, toPlain(x)]));
  if (Array.isArray(v)) return v.map(toPlain);
  return v.kind === 'null' ? null : v.text;
}

/** Builds config values from plain JS data (tests and vectors): strings, numbers, booleans, null, arrays, objects. */
export function fromPlain(value: unknown): ConfigValue {
  if (typeof value === 'number') {
    return Number.isInteger(value) ? { kind: 'int', text: String(value) } : { kind: 'float', text: formatFloat(value) };
  }
  return fromJson(value);
}

/** Go `strings.ToLower`: per code point, simple (1:1) case mapping only. */
export function goToLower(s: string): string {
  let out = '';
  for (const ch of s) {
    if (ch === '\u0130') {
      out += 'i';
      continue;
    }
    const l = ch.toLowerCase();
    out += [...l].length === 1 ? l : ch;
  }
  return out;
}

/** Go `strings.ToUpper`: per code point, simple (1:1) case mapping only. */
export function goToUpper(s: string): string {
  let out = '';
  for (const ch of s) {
    const u = ch.toUpperCase();
    out += [...u].length === 1 ? u : ch;
  }
  return out;
}

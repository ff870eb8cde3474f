/**
 * The complete (slow) path: one document parsed with the `yaml` package's `manifest` profile for syntax, converted to
 * JSON with go-yaml v2's scalar resolution (resolve.ts), merge keys, "last duplicate key wins", and go-yaml's alias
 * budget.
 */
import { keyToString, resolvePlain, type Scalar } from './resolve.js';
import { setKey } from './fast-parse.js';
import { lineCol, MAX_NESTING_DEPTH } from './input.js';
import { parseYamlDocument, yamlPackage, type YamlError } from './package.js';

export class YamlSyntaxError extends Error {
  constructor(
    message: string,
    /** 1-based line inside the document, when known. */
    readonly line: number | undefined,
  ) {
    super(message);
  }
}

const STR = 'tag:yaml.org,2002:str';
const NON_STR = new Set([
  'tag:yaml.org,2002:int',
  'tag:yaml.org,2002:float',
  'tag:yaml.org,2002:bool',
  'tag:yaml.org,2002:null',
]);

/** A document nested deeper than MAX_NESTING_DEPTH; `line` is 1-based inside the document. */
export class YamlDepthError extends Error {
  constructor(readonly line: number | undefined) {
    super(`nesting is deeper than ${MAX_NESTING_DEPTH} levels`);
  }
}

export interface SlowParseOptions {
  /** Called for a key a mapping already has (go-yaml keeps the last value, and so do we); `line` is 1-based. */
  onDuplicateKey?: (key: string, line: number) => void;
}

function lineAt(text: string, offset: number | undefined): number | undefined {
  return offset === undefined ? undefined : lineCol(text, offset).line;
}

/** go-yaml v2 decoder's alias guard (`allowedAliasRatio`). */
function allowedAliasRatio(decodeCount: number): number {
  const low = 400000;
  const high = 4000000;
  if (decodeCount <= low) return 0.99;
  if (decodeCount >= high) return 0.1;
  return 0.99 - 0.89 * ((decodeCount - low) / (high - low));
}

/** Parses one document's text. Returns undefined for an empty document (nothing but comments or whitespace). */
export function slowParseDocument(text: string, opts: SlowParseOptions = {}): unknown {
  const Y = yamlPackage();
  const doc = parseYamlDocument(text, 'manifest');
  if (doc.errors.length > 0) {
    const e = doc.errors[0] as YamlError;
    const off = e.pos?.[0];
    // The package catches its own stack overflow on absurdly deep input and reports it as a parse error.
    if (/Maximum call stack size exceeded/.test(e.message)) throw new YamlDepthError(e.linePos?.[0]?.line ?? lineAt(text, off));
    const line = e.linePos?.[0]?.line ?? (off === undefined ? undefined : text.slice(0, off).split('\n').length);
    const msg = e.message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '') ?? 'invalid YAML';
    throw new YamlSyntaxError(msg, line);
  }
  if (doc.contents === null) return undefined;
  let decodeCount = 0;
  let aliasCount = 0;
  let aliasDepth = 0;
  let depth = 0;
  const nodeLine = (node: unknown): number | undefined => lineAt(text, (node as { range?: [number] } | null)?.range?.[0]);
  const endsText = (node: unknown): boolean => {
    const end = (node as { range?: [number, number, number] }).range?.[1];
    return !text.endsWith('\n') && end !== undefined && text.slice(end).trim() === '' && /[^ \t\n]/.test(text.slice(text.lastIndexOf('\n') + 1));
  };
  const blockWithoutFinalBreak = (tag: string | undefined, raw: string): unknown => {
    const value = raw.slice(0, -1);
    return tag && NON_STR.has(tag) ? resolvePlain(value) : value;
  };
  const convert = (node: unknown): unknown => {
    decodeCount++;
    if (aliasDepth > 0) aliasCount++;
    if (aliasCount > 100 && decodeCount > 1000 && aliasCount / decodeCount > allowedAliasRatio(decodeCount))
      throw new YamlSyntaxError('document contains excessive aliasing', undefined);
    if (node === null || node === undefined) return null;
    if (Y.isAlias(node)) {
      const target = node.resolve(doc);
      if (!target) throw new YamlSyntaxError(`unknown anchor '${node.source}' referenced`, undefined);
      aliasDepth++;
      try {
        return convert(target);
      } finally {
        aliasDepth--;
      }
    }
    if (Y.isScalar(node)) {
      const v = node.value;
      const raw = typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v);
      // go-yaml's block scalar takes its final line break from the text: a scalar whose last line ends the text without
      // one has none (`|\n  a` is "a"), where YAML 1.2 readers add it under clip and keep chomping.
      if ((node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED') && raw.endsWith('\n') && endsText(node)) return blockWithoutFinalBreak(node.tag, raw);
      if (node.tag === STR) return raw;
      if (node.tag && NON_STR.has(node.tag)) return resolvePlain(raw);
      if (node.tag) return raw;
      // go-yaml's scanner makes `]`, `}` and `,` flow tokens wherever a token starts, even in block context, and the
      // parser finds no node there; YAML 1.2 readers take them as plain text.
      if (node.type === 'PLAIN' && /^[\]},]/.test(raw)) throw new YamlSyntaxError('did not find expected node content', nodeLine(node));
      return node.type === 'PLAIN' ? resolvePlain(raw) : raw;
    }
    if ((Y.isMap(node) || Y.isSeq(node)) && depth >= MAX_NESTING_DEPTH) throw new YamlDepthError(nodeLine(node));
    if (Y.isMap(node)) {
      depth++;
      const out: Record<string, unknown> = {};
      const explicit = opts.onDuplicateKey ? new Set<string>() : undefined;
      for (const pair of node.items) {
        const k = pair.key as unknown;
        const isMerge = Y.isScalar(k) && k.type === 'PLAIN' && k.value === '<<' && !k.tag;
        if (isMerge) {
          const v = convert(pair.value);
          const sources = Array.isArray(v) ? v : [v];
          for (const src of sources) {
            if (src === null || typeof src !== 'object' || Array.isArray(src))
              throw new YamlSyntaxError('map merge requires map or sequence of maps as the value', undefined);
            for (const [mk, mv] of Object.entries(src as Record<string, unknown>)) setKey(out, mk, mv);
          }
          continue;
        }
        const kv = convert(k);
        if (kv !== null && typeof kv === 'object')
          throw new YamlSyntaxError('invalid map key: a collection cannot be a key', undefined);
        // sigs.k8s.io/yaml's convertToJSONableObject turns string, int, float and bool keys into strings; a null key
        // (`~:`, `null:`, a bare `?`) has no JSON spelling and fails the whole read.
        if (kv === null) throw new YamlSyntaxError('error converting YAML to JSON: unsupported map key of type: %!s(<nil>), key: <nil>', nodeLine(k));
        const key = keyToString(kv as Scalar);
        if (explicit) {
          if (explicit.has(key) && aliasDepth === 0) opts.onDuplicateKey?.(key, nodeLine(k) ?? 1);
          explicit.add(key);
        }
        setKey(out, key, convert(pair.value));
      }
      depth--;
      return out;
    }
    if (Y.isSeq(node)) {
      depth++;
      const items = node.items.map((it) => convert(it));
      depth--;
      return items;
    }
    if (Y.isPair(node)) return convert(node.value);
    return null;
  };
  return convert(doc.contents);
}

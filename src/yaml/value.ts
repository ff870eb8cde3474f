/**
 * Plain YAML and JSON values for the files capiform owns the format of (capi.config.yaml/.json, capi.lock.yaml):
 * YAML 1.2 with the `yaml` package's core schema (the `config` profile of profiles.ts), where a duplicate key, nesting deeper than MAX_NESTING_DEPTH and
 * alias expansion beyond a fixed budget are errors at a line. Provider manifests go through parse.ts instead
 * (clusterctl's YAML 1.1 reading).
 */
import { lineCol, MAX_NESTING_DEPTH } from './input.js';
import { isYamlMap, isYamlPair, isYamlSeq, parseYamlDocument, yamlDocumentValue } from './package.js';
import { MAX_ALIAS_COUNT } from './profiles.js';
import { portableValue, readPortableYaml } from './portable.js';

/** Why a text is not an acceptable value, at a 1-based line (and column) when known. */
export class ValueSyntaxError extends Error {
  constructor(
    message: string,
    readonly code: 'E_YAML_SYNTAX' | 'E_JSON_SYNTAX' | 'E_DUPLICATE_KEY' | 'E_INPUT_TOO_DEEP' | 'E_YAML_ALIASES',
    readonly line?: number,
    readonly col?: number,
  ) {
    super(message);
  }
}

/** The `yaml` package catches its own stack overflow on absurdly deep input and reports it as a parse error. */
export function isStackOverflow(err: { message: string }): boolean {
  return /Maximum call stack size exceeded/.test(err.message);
}

function tooDeep(line: number | undefined, col?: number): ValueSyntaxError {
  return new ValueSyntaxError(`nesting is deeper than ${MAX_NESTING_DEPTH} levels of mappings and sequences`, 'E_INPUT_TOO_DEEP', line, col);
}

/** One YAML document as a plain value (undefined when empty). Throws ValueSyntaxError. */
export function parseYamlValue(text: string): unknown {
  // The lock capiform writes (and most YAML configs) is portable: same value, without loading the package.
  const portable = readPortableYaml(text);
  if (portable !== undefined) return portable === null ? null : portableValue(portable);
  const doc = parseYamlDocument(text, 'config');
  const err = doc.errors[0];
  if (err) {
    const at = err.linePos?.[0] ?? lineCol(text, err.pos[0]);
    if (isStackOverflow(err)) throw tooDeep(at?.line, at?.col);
    if (err.code === 'DUPLICATE_KEY') {
      const raw = /^\s*("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^:\n]*?)\s*:(?:\s|$)/.exec(text.slice(err.pos[0]))?.[1] ?? text.slice(err.pos[0], err.pos[1]);
      const key = /^["']/.test(raw) ? raw.slice(1, -1) : raw;
      throw new ValueSyntaxError(`mapping key ${JSON.stringify(key)} appears more than once`, 'E_DUPLICATE_KEY', at?.line, at?.col);
    }
    const first = (err.message.split('\n')[0] ?? err.message).replace(/ at line \d+, column \d+:?$/, '');
    throw new ValueSyntaxError(first, 'E_YAML_SYNTAX', at?.line, at?.col);
  }
  checkNodeDepth(doc.contents, text);
  try {
    return yamlDocumentValue(doc, 'config');
  } catch (e) {
    if (e instanceof ReferenceError && /alias/i.test(e.message)) {
      throw new ValueSyntaxError(`aliases expand to too much data (more than ${MAX_ALIAS_COUNT} expansions)`, 'E_YAML_ALIASES');
    }
    throw e;
  }
}

/** Refuses a parsed `yaml` document nested deeper than MAX_NESTING_DEPTH (throws ValueSyntaxError). */
export function checkNodeDepth(root: unknown, text: string): void {
  // Iterative: the check must not itself overflow the stack on the input it guards against.
  const stack: Array<{ node: unknown; depth: number }> = [{ node: root, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (!isYamlMap(node) && !isYamlSeq(node)) continue;
    if (depth >= MAX_NESTING_DEPTH) {
      const at = node.range ? lineCol(text, node.range[0]) : undefined;
      throw tooDeep(at?.line, at?.col);
    }
    for (const item of node.items as unknown[]) {
      if (isYamlPair(item)) stack.push({ node: item.value, depth: depth + 1 }, { node: item.key, depth: depth + 1 });
      else stack.push({ node: item, depth: depth + 1 });
    }
  }
}

/** JSON.parse, with duplicate keys and nesting deeper than MAX_NESTING_DEPTH as errors at their line. */
export function parseJsonValue(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (e) {
    const pos = /at position (\d+)/.exec((e as Error).message)?.[1];
    const at = pos === undefined ? undefined : lineCol(text, Number(pos));
    throw new ValueSyntaxError((e as Error).message.replace(/ in JSON at position \d+.*$/, ''), 'E_JSON_SYNTAX', at?.line, at?.col);
  }
  checkJsonStructure(text);
  return value;
}

/** Scans valid JSON text for repeated keys in one object and for deep nesting. */
function checkJsonStructure(text: string): void {
  // One entry per open collection: the keys seen so far for an object, null for an array.
  const open: Array<Set<string> | null> = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const top = open[open.length - 1];
      if (expectKey && top) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (top.has(key)) {
          const at = lineCol(text, i);
          throw new ValueSyntaxError(`mapping key ${JSON.stringify(key)} appears more than once`, 'E_DUPLICATE_KEY', at.line, at.col);
        }
        top.add(key);
        expectKey = false;
      }
      i = j;
    } else if (c === '{' || c === '[') {
      if (open.length >= MAX_NESTING_DEPTH) {
        const at = lineCol(text, i);
        throw tooDeep(at.line, at.col);
      }
      open.push(c === '{' ? new Set() : null);
      expectKey = c === '{';
    } else if (c === '}' || c === ']') {
      open.pop();
    } else if (c === ',') {
      expectKey = open[open.length - 1] instanceof Set;
    }
  }
}

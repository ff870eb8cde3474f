/**
 * The vector handler registry and the rules that map a vector to its op key. Shared by the vector runner (which runs
 * every vector file it finds) and the spec-coverage test (which checks every function the specs name is handled).
 *
 * Op keys: `clusterctl:<input.op>`, `envsubst:<file stem>`, `capi-plan:<file stem>:<input.operation ?? "*">`.
 * A capi-plan file the repo has never seen (a new stem) still runs: its operations fall back to `capi-plan:*:<op>`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { aliases } from './aliases.js';
import type { Vector, VectorFile, VectorHandler } from './types.js';
import { unsupported } from './unsupported.js';

const here = dirname(fileURLToPath(import.meta.url));

export const handlers: Record<string, VectorHandler> = {};
for (const name of readdirSync(join(here, 'handlers')).sort()) {
  if (!/\.ts$/.test(name) || name.endsWith('.d.ts')) continue;
  const mod = (await import(pathToFileURL(join(here, 'handlers', name)).href)) as {
    handlers?: Record<string, VectorHandler>;
  };
  for (const [key, fn] of Object.entries(mod.handlers ?? {})) {
    if (handlers[key]) throw new Error(`vector handler ${key} is registered twice (second in ${name})`);
    handlers[key] = fn;
  }
}
for (const [alias, target] of Object.entries(aliases)) {
  const fn = handlers[target];
  if (!fn) throw new Error(`vector alias ${alias} points to ${target}, which has no handler`);
  if (handlers[alias]) throw new Error(`vector alias ${alias} is also registered as a handler`);
  handlers[alias] = fn;
}

/** The three vector formats (shared/vectors/<format>/README.md). */
export type VectorFormat = 'clusterctl' | 'capi-plan' | 'envsubst';
const formats: readonly VectorFormat[] = ['clusterctl', 'capi-plan', 'envsubst'];

/**
 * The format of a vector file: its folder's name when that is one of the three, else what the document looks like
 * (a bare array is envsubst; a `schema: clusterctl-test-vectors/…` or `input.op` is clusterctl; `description` plus
 * vectors is capi-plan). Null when nothing fits.
 */
export function formatOf(folder: string, doc: unknown): VectorFormat | null {
  if ((formats as readonly string[]).includes(folder)) return folder as VectorFormat;
  if (Array.isArray(doc)) return 'envsubst';
  if (typeof doc !== 'object' || doc === null) return null;
  const d = doc as Record<string, unknown>;
  if (typeof d.schema === 'string' && d.schema.startsWith('clusterctl-test-vectors')) return 'clusterctl';
  const vectors = Array.isArray(d.vectors) ? (d.vectors as Array<{ input?: Record<string, unknown> }>) : [];
  if (vectors.some((v) => typeof v.input?.op === 'string')) return 'clusterctl';
  if (vectors.length > 0) return 'capi-plan';
  return null;
}

export function opKey(file: VectorFile, vector: Vector): string {
  if (file.folder === 'capi-plan') return `capi-plan:${file.stem}:${vector.input.operation ?? '*'}`;
  if (file.folder === 'envsubst') return `envsubst:${file.stem}`;
  return `${file.folder}:${vector.input.op ?? '*'}`;
}

/**
 * Which envsubst handler a case of a file of a new name needs, from the case itself: base64 output is the byte-level
 * form, a case without `env` expecting variables (or an error) is a variable listing, anything else is `Process`.
 */
export function envsubstShape(vector: Vector): 'bytes' | 'list' | 'process' {
  const expected = (vector.expected ?? {}) as Record<string, unknown>;
  if (expected.outputBase64 !== undefined) return 'bytes';
  if (vector.env === undefined && (expected.variables !== undefined || expected.variableMap !== undefined || expected.error === true)) {
    return 'list';
  }
  return 'process';
}

/** The keys tried for a vector, most specific first. */
export function candidateKeys(file: VectorFile, vector: Vector): string[] {
  const key = opKey(file, vector);
  if (file.folder === 'capi-plan') {
    const op = vector.input.operation ?? '*';
    const keys = [key];
    if (op !== '*') keys.push(`capi-plan:*:${op}`);
    // A file named after a known one (`move-graph-more.json`, `variable-validation-cel.json`) follows its format.
    for (const stem of knownCapiPlanStems()) {
      if (stem !== file.stem && file.stem.startsWith(stem)) keys.push(`capi-plan:${stem}:${op}`);
    }
    if (op === '*' && vector.expected.moveGroups !== undefined) keys.push('capi-plan:move-order:*');
    const variables = variableShape(vector);
    if (op === '*' && variables) keys.push(`capi-plan:${variables}:*`);
    if (op === '*' && isNamingVector(vector.input)) keys.push('capi-plan:naming:*');
    if (isPatchVector(vector)) keys.push('capi-plan:json-patch-generator:*');
    return keys;
  }
  if (file.folder === 'envsubst') return [key, `envsubst:*:${envsubstShape(vector)}`];
  const keys = [key];
  // `repository.NewComponents`, `client.ProcessYAML`: the Go package in front of a function named without it.
  const m = /^clusterctl:(?:repository|client|cluster|config|util|utilyaml|yaml|yamlprocessor|v1alpha3|clusterctlv1)\.(.+)$/.exec(key);
  if (m) keys.push(`clusterctl:${m[1]}`);
  // An op named with its argument (`AlterComponents(addCommonLabels)`, `AlterComponents with addCommonLabels`): the
  // function in front; its handler reads the rest of the op.
  for (const k of [...keys]) {
    const fn = /^(clusterctl:[\w.]+)[^\w.]/.exec(k);
    if (fn) keys.push(fn[1] as string);
  }
  // The same name in another case (`certManager.ShouldUpgrade`), when exactly one handler matches.
  for (const k of [...keys]) {
    const same = Object.keys(handlers).filter((h) => h !== k && h.toLowerCase() === k.toLowerCase());
    if (same.length === 1) keys.push(same[0] as string);
  }
  return keys;
}

/**
 * ClusterClass variable vectors in a file of a new name, from their input: a `createVariable(s)` flag is defaulting;
 * ClusterClass variable definitions, or definitions with values, are validation.
 */
function variableShape(vector: Vector): 'variable-defaulting' | 'variable-validation' | undefined {
  const i = vector.input;
  if (i.createVariable !== undefined || i.createVariables !== undefined) return 'variable-defaulting';
  if (i.clusterClassVariable !== undefined || i.clusterClassVariables !== undefined) return 'variable-validation';
  const hasDefinitions = i.definition !== undefined || i.definitions !== undefined;
  const hasValues = i.value !== undefined || i.values !== undefined || i.clusterVariable !== undefined;
  if (hasDefinitions && hasValues && vector.expected.errors !== undefined) return 'variable-validation';
  return undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A vector of ClusterClass patches (builtin variables, value templates, enabledIf, selectors, variable paths, the
 * inline generator), recognised by its input when its file's name says nothing.
 */
function isPatchVector(vector: Vector): boolean {
  const i = vector.input;
  if (i.variableDefinitionsForPatch !== undefined || i.enabledIf !== undefined) return true;
  if (typeof i.segment === 'string' || isRecord(i.selector)) return true;
  if (isRecord(i.patch)) return true;
  return i.variablesRawJSON !== undefined && (i.template !== undefined || vector.expected.data !== undefined);
}

/**
 * A topology naming vector (naming.json's shapes): a ClusterClass naming template checked by the webhook, the name
 * of a topology object, or a naming template rendered with explicit data (no template variables as raw JSON).
 */
function isNamingVector(input: Vector['input']): boolean {
  if (typeof input.namingTemplateOf === 'string') return true;
  if (typeof input.object === 'string' && typeof input.clusterName === 'string') return true;
  return typeof input.template === 'string' && 'data' in input && input.variablesRawJSON === undefined && input.variables === undefined;
}

let stems: string[] | undefined;
/** The capi-plan file stems handlers or ./unsupported.ts name, longest first. */
function knownCapiPlanStems(): string[] {
  stems ??= [
    ...new Set(
      [...Object.keys(handlers), ...Object.keys(unsupported)]
        .map((k) => /^capi-plan:([^:*][^:]*):/.exec(k)?.[1])
        .filter((s): s is string => s !== undefined),
    ),
  ].sort((a, b) => b.length - a.length);
  return stems;
}

export interface Dispatch {
  key: string;
  handler?: VectorHandler;
  /** Set when the op is listed in ./unsupported.ts and has no handler. */
  unsupported?: string;
}

export function dispatch(file: VectorFile, vector: Vector): Dispatch {
  const keys = candidateKeys(file, vector);
  for (const key of keys) {
    const handler = handlers[key];
    if (handler) return { key, handler };
  }
  for (const key of keys) {
    const reason = unsupported[key];
    if (reason) return { key, unsupported: reason };
  }
  return { key: keys[0] as string };
}

/** Is `key` (a `format:op` or `capi-plan:stem:op` key) handled or documented as unsupported? */
export function isCovered(key: string): boolean {
  if (handlers[key] || unsupported[key]) return true;
  const m = /^capi-plan:[^:]+:(.+)$/.exec(key);
  return m !== null && (handlers[`capi-plan:*:${m[1]}`] !== undefined || unsupported[`capi-plan:*:${m[1]}`] !== undefined);
}

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8')) as unknown;
}

function toFile(folder: string, path: string, name: string, doc: unknown): VectorFile | string {
  const format = formatOf(folder, doc);
  if (!format) return `${path}: not a vector file of a known format (clusterctl, capi-plan, envsubst)`;
  return { folder: format, stem: name.slice(0, -'.json'.length), path, doc: doc as Record<string, unknown> };
}

/**
 * Every vector file under `dir`: `<dir>/<folder>/*.json`, and `*.json` directly in `dir` (format inferred). A file
 * that is not valid JSON or of no known format is returned as an error string, so the runner fails it by name.
 */
export function loadVectorFiles(dir: string): Array<{ group: string; files: Array<VectorFile | string> }> {
  if (!existsSync(dir)) return [];
  const groups: Array<{ group: string; files: Array<VectorFile | string> }> = [];
  const load = (folder: string, folderPath: string): Array<VectorFile | string> =>
    readdirSync(folderPath)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => {
        const path = join(folderPath, f);
        try {
          return toFile(folder, path, f, readJson(path));
        } catch (err) {
          return `${path}: ${(err as Error).message}`;
        }
      });
  const top = readdirSync(dir).sort();
  const loose = top.filter((f) => f.endsWith('.json') && statSync(join(dir, f)).isFile());
  if (loose.length > 0) groups.push({ group: '.', files: load('', dir) });
  for (const folder of top) {
    const path = join(dir, folder);
    if (!statSync(path).isDirectory()) continue;
    const files = load(folder, path);
    if (files.length > 0) groups.push({ group: folder, files });
  }
  return groups;
}

/** The vectors of a file: envsubst files are arrays of cases; the others wrap them in `{vectors: [...]}`. */
export function vectorsOf(file: VectorFile): Vector[] {
  const doc = file.doc as unknown;
  if (Array.isArray(doc)) return doc as Vector[];
  return ((file.doc.vectors as Vector[] | undefined) ?? []).filter((v) => typeof v === 'object' && v !== null);
}

/**
 * Finding and reading `capi.config.*`. Stage 1 (parse against the schema) happens here; TypeScript configs are
 * loaded with jiti, imported only when needed so commands that never read a config do not pay for it. The schema
 * (and with it zod) is loaded only to validate a config, not by everything that imports this folder's door.
 */
import { existsSync, statSync } from 'node:fs';
import { extname, isAbsolute, join, resolve as resolvePath } from 'node:path';
import type { z } from 'zod';
import { serialize } from 'node:v8';
import { defaultCacheDir, rememberValid, sha256Hex, validatedBefore } from '../cache/index.js';
import { codeFingerprint } from '../version.js';
import { ConfigError } from '../errors.js';
import { MAX_CONFIG_SIZE, parseJsonValue, parseYamlValue, readTextFile, ValueSyntaxError } from '../yaml/index.js';
import { configTimeoutMs, DEFAULT_CONFIG_TIMEOUT_SECONDS, importConfigIsolated } from './load-isolated.js';
import { configIssuesError, formatConfigPath, type ConfigIssue } from './issues.js';
import { checkConfig, checkForm, normaliseConfig } from './normalise.js';
import { secretValues } from './secrets.js';
import type { ResolvedConfig } from './types.js';
import type { configSchema as ConfigSchema } from './schema.js';

type ParsedConfig = z.output<typeof ConfigSchema>;

/** Discovery order in the working directory (the first that exists wins). */
export const configFileNames = [
  'capi.config.ts',
  'capi.config.mts',
  'capi.config.js',
  'capi.config.mjs',
  'capi.config.json',
  'capi.config.yaml',
] as const;

export function findConfigFile(cwd: string, explicit?: string): string {
  if (explicit) {
    const file = isAbsolute(explicit) ? explicit : resolvePath(cwd, explicit);
    if (!existsSync(file)) throw new ConfigError(`config file "${explicit}" does not exist`, { where: file, hint: 'pass an existing file to --config' });
    if (!statSync(file).isFile()) {
      throw new ConfigError(`config file "${explicit}" is a folder, not a file`, { where: file, hint: 'pass the config file itself to --config, e.g. --config path/capi.config.ts' });
    }
    return file;
  }
  for (const name of configFileNames) {
    const file = join(cwd, name);
    if (existsSync(file)) return file;
  }
  throw new ConfigError(`no capiform config found in ${cwd}`, {
    hint: `create one of ${configFileNames.join(', ')} or pass --config <file>`,
  });
}

/**
 * Reads the file and returns the plain value it exports (before validation). TypeScript and JavaScript configs run
 * in a worker thread bounded by `timeoutMs` (load-isolated.ts); with `cacheDir`, compiled TypeScript is reused.
 */
export async function readConfigFile(file: string, timeoutMs = DEFAULT_CONFIG_TIMEOUT_SECONDS * 1000): Promise<unknown> {
  return (await readConfigValue(file, timeoutMs)).value;
}

/** `readConfigFile` with the compiled-config cache in `cacheDir`; `keepCompiled` as in load-isolated.ts. */
async function readConfigValue(
  file: string,
  timeoutMs: number,
  cacheDir?: string,
): Promise<{ value: unknown; keepCompiled?: (secrets: readonly string[]) => void }> {
  const ext = extname(file);
  if (ext === '.json' || ext === '.yaml' || ext === '.yml') {
    const text = readTextFile(file, MAX_CONFIG_SIZE, 'config file');
    const format = ext === '.json' ? 'JSON' : 'YAML';
    try {
      return { value: format === 'JSON' ? parseJsonValue(text) : parseYamlValue(text) };
    } catch (err) {
      if (!(err instanceof ValueSyntaxError)) throw err;
      const where = err.line === undefined ? file : `${file}:${err.line}${err.col === undefined ? '' : `:${err.col}`}`;
      const hint = err.code === 'E_DUPLICATE_KEY' ? 'keep one of the two keys: which value was meant is ambiguous' : undefined;
      throw new ConfigError(`config is not valid ${format}: ${err.message}`, { where, ...(hint ? { hint } : {}) }, err.code);
    }
  }
  if (ext !== '.ts' && ext !== '.mts' && ext !== '.js' && ext !== '.mjs') {
    throw new ConfigError(`unsupported config file type "${ext}"`, { where: file, hint: `use one of ${configFileNames.join(', ')}` });
  }
  const reply = await importConfigIsolated(file, timeoutMs, cacheDir);
  if (!reply.ok) {
    if (reply.notPlainData) {
      throw new ConfigError(`the config's value is not plain data: ${reply.message}`, {
        where: file,
        hint: 'export objects, arrays, strings, numbers and booleans only (no functions or class instances)',
      });
    }
    const lines = reply.message.split('\n');
    // jiti puts the position of a syntax error on the message's second line: ` /path/capi.config.ts:3:18`.
    const at = lines.slice(1).map((l) => /:(\d+):(\d+)\s*$/.exec(l.trim())).find((m) => m !== null);
    throw new ConfigError(`failed to load the config: ${(lines[0] ?? '').trim()}`, {
      where: at ? `${file}:${at[1]}:${at[2]}` : file,
      hint: 'fix the syntax or the import in the config file',
    });
  }
  if (reply.value === undefined) {
    throw new ConfigError('the config file exports no config', {
      where: file,
      hint: 'export the config: `export default defineConfig({ … })` or `export const config = defineConfig({ … })`',
    });
  }
  return reply.keepCompiled ? { value: reply.value, keepCompiled: reply.keepCompiled } : { value: reply.value };
}

type AnySchema = z.core.$ZodType;

/** The object schema at `path` inside `schema` (the config schema), to list the allowed keys of an object. */
function shapeAt(path: readonly PropertyKey[], schema: AnySchema): string[] | null {
  let s = schema;
  for (;;) {
    const def = s._zod.def as { type: string; innerType?: AnySchema };
    if ((def.type === 'optional' || def.type === 'nullable' || def.type === 'default') && def.innerType) s = def.innerType;
    else break;
  }
  const def = s._zod.def as {
    type: string;
    shape?: Record<string, AnySchema>;
    element?: AnySchema;
    valueType?: AnySchema;
    options?: AnySchema[];
  };
  // `core: entry | [entry]`: the path decides which side it is in.
  if (def.type === 'union' && def.options) {
    for (const option of def.options) {
      const keys = shapeAt(path, option);
      if (keys) return keys;
    }
    return null;
  }
  const [seg, ...rest] = path;
  if (seg === undefined) return def.type === 'object' && def.shape ? Object.keys(def.shape).filter((k) => k !== '$schema') : null;
  if (def.type === 'object' && def.shape && typeof seg === 'string' && def.shape[seg]) return shapeAt(rest, def.shape[seg]);
  if (def.type === 'array' && def.element && typeof seg === 'number') return shapeAt(rest, def.element);
  if (def.type === 'record' && def.valueType) return shapeAt(rest, def.valueType);
  return null;
}

type SchemaIssue = z.core.$ZodIssue;

/** A union branch the value clearly was not meant for: it failed on its type at the union itself. */
function wrongShape(branch: readonly SchemaIssue[]): boolean {
  return branch.every((i) => i.code === 'invalid_type' && i.path.length === 0);
}

/** zod issues of the config schema → config issues with a path and what is allowed. */
function schemaIssues(error: z.ZodError, schema: AnySchema): ConfigIssue[] {
  return issuesOf(error.issues, schema);
}

function issuesOf(issues: readonly SchemaIssue[], schema: AnySchema): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      const allowed = shapeAt(issue.path, schema);
      for (const key of issue.keys) {
        out.push({
          path: formatConfigPath([...issue.path, key]),
          message: `unknown field${allowed ? `; allowed: ${allowed.join(', ')}` : ''}`,
        });
      }
      continue;
    }
    if (issue.code === 'invalid_union' && issue.path.length > 0 && issue.path[issue.path.length - 2] === 'patch') {
      out.push({ path: formatConfigPath(issue.path), message: 'is not an RFC 6902 operation (op: add|remove|replace|move|copy|test, path, value|from)' });
      continue;
    }
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      // zod reports "Invalid input" for the whole union; say what is wrong in the branch the value was meant for
      // (a typo in `core: { … }` is about the entry, not about `core` not being a list).
      const meant = issue.errors.filter((branch) => !wrongShape(branch));
      if (meant.length === 1 && meant[0]) {
        out.push(...issuesOf(meant[0].map((i) => ({ ...i, path: [...issue.path, ...i.path] }) as SchemaIssue), schema));
        continue;
      }
      if (meant.length === 0) {
        const expected = [...new Set(issue.errors.flatMap((b) => b.map((i) => (i.code === 'invalid_type' ? String(i.expected) : ''))))].filter(Boolean);
        const received = / (received \S+)$/.exec(issue.errors[0]?.[0]?.message ?? '')?.[1];
        const list = expected.length > 1 ? `${expected.slice(0, -1).join(', ')} or ${expected[expected.length - 1]}` : expected.join('');
        out.push({ path: formatConfigPath(issue.path), message: `expected ${list}${received ? `, ${received}` : ''}` });
        continue;
      }
    }
    if (issue.code === 'invalid_type' && / received undefined$/.test(issue.message)) {
      out.push({ path: formatConfigPath(issue.path), message: `is required (${String(issue.expected)})` });
      continue;
    }
    out.push({ path: formatConfigPath(issue.path), message: issue.message.replace(/^Invalid input: /, '') });
  }
  return out;
}

export interface LoadConfigOptions {
  cwd: string;
  /** `--config`: a path relative to cwd or absolute. */
  configFile?: string;
  /** Environment for `{ env: NAME }` variable values. */
  env?: NodeJS.ProcessEnv;
}

/** The digest a valid config value is remembered under (see cache/validated.ts), or undefined if it has none. */
function validConfigKey(value: unknown): string | undefined {
  try {
    return sha256Hex(`config\0${codeFingerprint()}\0${sha256Hex(serialize(value))}`);
  } catch {
    return undefined;
  }
}

/**
 * Validates an already-read config value; every problem is reported at once. With `cacheDir`, a value that passed
 * the schema before skips it (the schema only checks: its output is its input).
 */
export async function validateConfig(value: unknown, file: string, env: NodeJS.ProcessEnv = {}, cacheDir?: string): Promise<ResolvedConfig> {
  const key = cacheDir === undefined ? undefined : validConfigKey(value);
  let data: ParsedConfig;
  if (key !== undefined && validatedBefore(cacheDir, key)) data = value as ParsedConfig;
  else {
    const { configSchema } = await import('./schema.js');
    const parsed = configSchema.safeParse(value);
    if (!parsed.success) throw configIssuesError(file, schemaIssues(parsed.error, configSchema));
    data = parsed.data;
    if (key !== undefined) rememberValid(cacheDir, key);
  }
  const form = checkForm(data);
  if (form.length > 0) throw configIssuesError(file, form);
  const config = normaliseConfig(data, file, env);
  const issues = checkConfig(config);
  if (issues.length > 0) throw configIssuesError(file, issues);
  return config;
}

/** Finds, reads, validates and normalises the config. */
export async function loadConfig(opts: LoadConfigOptions): Promise<ResolvedConfig> {
  const file = findConfigFile(opts.cwd, opts.configFile);
  const cacheDir = defaultCacheDir(opts.env ?? {});
  const { value, keepCompiled } = await readConfigValue(file, configTimeoutMs(opts.env ?? {}), cacheDir);
  const config = await validateConfig(value, file, opts.env ?? {}, cacheDir);
  keepCompiled?.(secretValues(config));
  return config;
}

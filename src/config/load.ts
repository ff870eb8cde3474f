/**
 * Finding and reading `capi.config.*`. Stage 1 (parse against the schema) happens here; TypeScript configs are
 * loaded with jiti, imported only when needed so commands that never read a config do not pay for it.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, isAbsolute, join, resolve as resolvePath } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { z } from 'zod';
import { ConfigError } from '../errors.js';
import { configIssuesError, formatConfigPath, type ConfigIssue } from './issues.js';
import { checkConfig, normaliseConfig } from './normalise.js';
import { configSchema } from './schema.js';
import type { ResolvedConfig } from './types.js';

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
    if (!existsSync(file) || !statSync(file).isFile()) {
      throw new ConfigError(`config file "${explicit}" does not exist`, { where: file, hint: 'pass an existing file to --config' });
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

/** Reads the file and returns the plain value it exports (before validation). */
export async function readConfigFile(file: string): Promise<unknown> {
  const ext = extname(file);
  if (ext === '.json' || ext === '.yaml' || ext === '.yml') {
    const text = readFileSync(file, 'utf8');
    if (ext === '.json') {
      try {
        return JSON.parse(text) as unknown;
      } catch (err) {
        throw new ConfigError(`config is not valid JSON: ${(err as Error).message}`, { where: file });
      }
    }
    try {
      return parseYaml(text, { prettyErrors: true }) as unknown;
    } catch (err) {
      const where = err instanceof YAMLParseError && err.linePos ? `${file}:${err.linePos[0].line}:${err.linePos[0].col}` : file;
      throw new ConfigError(`config is not valid YAML: ${(err as Error).message.split('\n')[0]}`, { where });
    }
  }
  if (ext !== '.ts' && ext !== '.mts' && ext !== '.js' && ext !== '.mjs') {
    throw new ConfigError(`unsupported config file type "${ext}"`, { where: file, hint: `use one of ${configFileNames.join(', ')}` });
  }
  let mod: Record<string, unknown>;
  try {
    if (ext === '.ts' || ext === '.mts') {
      const [{ createJiti }, api] = await Promise.all([import('jiti'), import('../index.js')]);
      // `import { defineConfig } from 'capiform'` works from any directory and means this copy of capiform, already
      // loaded natively: handing jiti the module (instead of an alias it would transpile, with every module behind
      // it) keeps loading a config at ~0.3 s instead of ~10 s.
      const jiti = createJiti(import.meta.url, { moduleCache: false, fsCache: false, virtualModules: { capiform: api } });
      mod = (await jiti.import(file)) as Record<string, unknown>;
    } else {
      mod = (await import(`${pathToFileURL(file).href}?mtime=${statSync(file).mtimeMs}`)) as Record<string, unknown>;
    }
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    const message = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new ConfigError(`failed to load the config: ${message}`, { where: file, hint: 'fix the syntax or the import in the config file' });
  }
  const value = mod.default ?? mod.config;
  if (value === undefined) {
    throw new ConfigError('the config file exports no config', {
      where: file,
      hint: 'export the config: `export default defineConfig({ … })` or `export const config = defineConfig({ … })`',
    });
  }
  return value;
}

type AnySchema = z.core.$ZodType;

/** The object schema at `path` inside the config schema, to list the allowed keys of an object. */
function shapeAt(path: readonly PropertyKey[]): string[] | null {
  let s: AnySchema = configSchema;
  const unwrap = (x: AnySchema): AnySchema => {
    let cur = x;
    for (;;) {
      const def = cur._zod.def as { type: string; innerType?: AnySchema; element?: AnySchema; valueType?: AnySchema };
      if ((def.type === 'optional' || def.type === 'nullable' || def.type === 'default') && def.innerType) cur = def.innerType;
      else return cur;
    }
  };
  for (const seg of path) {
    s = unwrap(s);
    const def = s._zod.def as { type: string; shape?: Record<string, AnySchema>; element?: AnySchema; valueType?: AnySchema };
    if (def.type === 'object' && def.shape && typeof seg === 'string' && def.shape[seg]) s = def.shape[seg];
    else if (def.type === 'array' && def.element) s = def.element;
    else if (def.type === 'record' && def.valueType) s = def.valueType;
    else return null;
  }
  s = unwrap(s);
  const def = s._zod.def as { type: string; shape?: Record<string, AnySchema> };
  return def.type === 'object' && def.shape ? Object.keys(def.shape).filter((k) => k !== '$schema') : null;
}

/** zod issues → config issues with a path and what is allowed. */
export function schemaIssues(error: z.ZodError): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      const allowed = shapeAt(issue.path);
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

/** Validates an already-read config value; every problem is reported at once. */
export function validateConfig(value: unknown, file: string, env: NodeJS.ProcessEnv = {}): ResolvedConfig {
  const parsed = configSchema.safeParse(value);
  if (!parsed.success) throw configIssuesError(file, schemaIssues(parsed.error));
  const config = normaliseConfig(parsed.data, file, env);
  const issues = checkConfig(config);
  if (issues.length > 0) throw configIssuesError(file, issues);
  return config;
}

/** Finds, reads, validates and normalises the config. */
export async function loadConfig(opts: LoadConfigOptions): Promise<ResolvedConfig> {
  const file = findConfigFile(opts.cwd, opts.configFile);
  const value = await readConfigFile(file);
  return validateConfig(value, file, opts.env ?? {});
}

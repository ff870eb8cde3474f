/**
 * clusterctl's configuration file (`clusterctl.yaml`) and variable lookup, as `client/config/reader_viper.go` does it:
 *
 * - location: `--config <path>`, else the first `clusterctl.{json,yaml,yml}` in `$XDG_CONFIG_HOME/cluster-api/`,
 *   then `$HOME/.cluster-api/` (viper's extension order; no file at all is fine);
 * - `get(name)`: values clusterctl sets itself > OS environment (name upper-cased, `-` → `_`, empty counts as set) >
 *   the file (case-insensitive, `.` = nested path; numbers/bools as text, maps/lists as `""`, null = unset);
 * - structured keys: `providers:`, `images:`, `cert-manager:`, `overridesFolder`.
 */
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { extname, isAbsolute, join, resolve } from 'node:path';
import { CapiformError, ConfigError } from '../../errors.js';
import { MAX_CONFIG_SIZE, readTextFile } from '../../yaml/index.js';
import { defaultCertManagerConfig, type CertManagerConfig } from './cert-manager.js';
import type { ImageMeta } from './images.js';
import { evalWithEnvOrThrow, type Env } from './os-env.js';
import {
  castToString,
  fromJson,
  goToLower,
  goToUpper,
  isConfigMap,
  isConfigScalar,
  isPathShadowed,
  parseConfigText,
  searchIndexable,
  searchMap,
  weakBool,
  weakString,
  type ConfigMap,
  type ConfigValue,
} from './values.js';

export type { Env } from './os-env.js';
export type { ImageMeta } from './images.js';
export { imageMetaFor } from './images.js';
export type { CertManagerConfig } from './cert-manager.js';
export {
  certManagerDefaultTimeout,
  certManagerDefaultURL,
  certManagerDefaultVersion,
  certManagerWaitTimeout,
  defaultCertManagerConfig,
} from './cert-manager.js';
export { formatGoDuration, parseGoDuration } from './duration.js';
export { evalWithEnv, evalWithEnvOrThrow } from './os-env.js';

/** A `providers:` entry as written (URL already envsubst-evaluated with the OS environment). */
export interface UserProviderEntry {
  name: string;
  url: string;
  type: string;
  /** Config path for errors, e.g. `clusterctl.yaml: providers[2]`. */
  where: string;
}

/** viper's `SupportedExts`, in its search order. */
const viperExtensions = ['json', 'toml', 'yaml', 'yml', 'properties', 'props', 'prop', 'hcl', 'tfvars', 'dotenv', 'env', 'ini'];

/** `$XDG_CONFIG_HOME` (default `$HOME/.config`). */
export function xdgConfigHome(env: Env): string {
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg && isAbsolute(xdg)) return xdg;
  return join(homeDir(env), '.config');
}

export function homeDir(env: Env): string {
  return env.HOME && env.HOME !== '' ? env.HOME : homedir();
}

/** The default config file clusterctl would read, or null (`checkDefaultConfig` + viper's search). */
export function findDefaultConfigFile(env: Env): string | null {
  for (const dir of [join(xdgConfigHome(env), 'cluster-api'), join(homeDir(env), '.cluster-api')]) {
    for (const ext of viperExtensions) {
      const p = join(dir, `clusterctl.${ext}`);
      try {
        if (statSync(p).isFile()) return p;
      } catch {
        // not there
      }
    }
  }
  return null;
}

export class ClusterctlConfig {
  /** The file read, or null when none exists. */
  readonly path: string | null;
  readonly env: Env;
  private readonly file: ConfigMap;
  private readonly overrides: ConfigMap = new Map();
  private cachedProviders: UserProviderEntry[] | undefined;
  private cachedImages: Record<string, ImageMeta> | undefined;
  private cachedCertManager: CertManagerConfig | undefined;

  constructor(file: ConfigMap, env: Env, path: string | null = null) {
    this.file = file;
    this.env = env;
    this.path = path;
  }

  private get source(): string {
    return this.path ?? 'clusterctl configuration';
  }

  /** Sets a value the way clusterctl does with `viper.Set` (highest precedence), e.g. `CLUSTER_NAME`. */
  set(name: string, value: string): void {
    const path = goToLower(name).split('.');
    let cur = this.overrides;
    for (const p of path.slice(0, -1)) {
      let next = cur.get(p);
      if (!isConfigMap(next)) {
        next = new Map();
        cur.set(p, next);
      }
      cur = next;
    }
    cur.set(path[path.length - 1] ?? '', { kind: 'str', text: value });
  }

  /** The raw value viper's `Get(name)` finds, or undefined when unset. */
  getValue(name: string): ConfigValue | undefined {
    const lcaseKey = goToLower(name);
    const path = lcaseKey.split('.');
    const nested = path.length > 1;
    const o = searchMap(this.overrides, path);
    if (o !== undefined) return o;
    if (nested && isPathShadowed(this.overrides, path)) return undefined;
    const envKey = goToUpper(lcaseKey).replace(/-/g, '_');
    const e = Object.hasOwn(this.env, envKey) ? this.env[envKey] : undefined;
    if (e !== undefined) return { kind: 'str', text: e };
    if (nested) {
      for (let i = 1; i < path.length; i++) {
        const k = goToUpper(path.slice(0, i).join('.')).replace(/-/g, '_');
        if (Object.hasOwn(this.env, k) && this.env[k] !== undefined) return undefined;
      }
    }
    const f = searchIndexable(this.file, path);
    if (f !== undefined) return f;
    return undefined;
  }

  /** A variable's value as clusterctl's variables client returns it; undefined when unset. */
  get(name: string): string | undefined {
    const v = this.getValue(name);
    return v === undefined ? undefined : castToString(v);
  }

  /** `get` as a lookup function (for envsubst `process`). */
  readonly lookup = (name: string): string | undefined => this.get(name);

  /** User `providers:` entries, in file order, URLs envsubst-evaluated with the OS environment. Not validated. */
  get providers(): UserProviderEntry[] {
    this.cachedProviders ??= this.decodeProviders();
    return this.cachedProviders;
  }

  /** `images:` keyed by lower-cased `all` | `<label>` | `<label>/<image>`. */
  get images(): Record<string, ImageMeta> {
    this.cachedImages ??= this.decodeImages();
    return this.cachedImages;
  }

  /** `cert-manager:` with clusterctl's defaults applied (the URL envsubst-evaluated with the OS environment). */
  get certManager(): CertManagerConfig {
    this.cachedCertManager ??= this.decodeCertManager();
    return this.cachedCertManager;
  }

  /** `github-token` (env `GITHUB_TOKEN`); never print it. */
  get githubToken(): string | undefined {
    const v = this.get('github-token');
    return v === '' ? undefined : v;
  }

  /** `gitlab-access-token` (env `GITLAB_ACCESS_TOKEN`); never print it. */
  get gitlabAccessToken(): string | undefined {
    const v = this.get('gitlab-access-token');
    return v === '' ? undefined : v;
  }

  /** The `overridesFolder` variable after envsubst with the OS environment; undefined when unset or blank. */
  get overridesFolder(): string | undefined {
    const v = this.get('overridesFolder');
    if (v === undefined || v.trim() === '') return undefined;
    return evalWithEnvOrThrow(v, this.env, 'unable to evaluate overridesFolder', `${this.source}: overridesFolder`);
  }

  private decodeProviders(): UserProviderEntry[] {
    const raw = this.getValue('providers');
    if (raw === undefined) return [];
    let list: ConfigValue[];
    if (Array.isArray(raw)) list = raw;
    else if (isConfigMap(raw)) list = [raw];
    else if (raw.kind === 'null') list = [];
    else throw this.unmarshalError('providers', 'failed to unmarshal providers from the clusterctl configuration file');
    return list.map((item, i) => {
      const where = `${this.source}: providers[${i}]`;
      if (!isConfigMap(item)) {
        throw new ConfigError(
          `failed to unmarshal providers from the clusterctl configuration file: '[${i}]' expected a map, got '${describe(item)}'`,
          { where, hint: 'each providers entry needs name, url and type' },
        );
      }
      const field = (k: string): string => {
        const s = weakString(item.get(k));
        if (s === null) {
          throw new ConfigError(
            `failed to unmarshal providers from the clusterctl configuration file: '[${i}].${k}' expected type 'string', got unconvertible type '${describe(item.get(k))}'`,
            { where },
          );
        }
        return s;
      };
      const url = field('url');
      return {
        name: field('name'),
        url: evalWithEnvOrThrow(url, this.env, `unable to evaluate url: ${JSON.stringify(url)}`, where),
        type: field('type'),
        where,
      };
    });
  }

  private decodeImages(): Record<string, ImageMeta> {
    const raw = this.getValue('images');
    const out: Record<string, ImageMeta> = Object.create(null) as Record<string, ImageMeta>;
    if (raw === undefined || (isConfigScalar(raw) && raw.kind === 'null')) return out;
    if (!isConfigMap(raw)) throw this.unmarshalError('images', 'failed to unmarshal image override configurations');
    for (const [key, value] of raw) {
      if (isConfigScalar(value) && value.kind === 'null') {
        out[key] = {};
        continue;
      }
      if (!isConfigMap(value)) {
        throw new ConfigError(
          `failed to unmarshal image override configurations: '[${key}]' expected a map, got '${describe(value)}'`,
          { where: `${this.source}: images.${key}`, hint: 'write each image override as {repository, name, tag}' },
        );
      }
      const meta: ImageMeta = {};
      for (const f of ['repository', 'name', 'tag'] as const) {
        const s = weakString(value.get(f));
        if (s === null) {
          throw new ConfigError(
            `failed to unmarshal image override configurations: '[${key}].${f}' expected type 'string', got unconvertible type '${describe(value.get(f))}'`,
            { where: `${this.source}: images.${key}.${f}` },
          );
        }
        if (s !== '') meta[f] = s;
      }
      out[key] = meta;
    }
    return out;
  }

  private decodeCertManager(): CertManagerConfig {
    const cfg = defaultCertManagerConfig();
    const raw = this.getValue('cert-manager');
    const where = `${this.source}: cert-manager`;
    const prefix = 'failed to unmarshal certManager from the clusterctl configuration file';
    if (raw !== undefined && !(isConfigScalar(raw) && raw.kind === 'null')) {
      if (!isConfigMap(raw)) throw this.unmarshalError('cert-manager', prefix);
      const str = (k: string): string => {
        const s = weakString(raw.get(k.toLowerCase()));
        if (s === null) {
          throw new ConfigError(`${prefix}: '${k}' expected type 'string', got unconvertible type '${describe(raw.get(k.toLowerCase()))}'`, {
            where: `${where}.${k}`,
          });
        }
        return s;
      };
      const url = str('url');
      const version = str('version');
      const timeout = str('timeout');
      const ep = weakBool(raw.get('externallyprovisioned'));
      if (ep === null) {
        const v = raw.get('externallyprovisioned');
        throw new ConfigError(
          `${prefix}: cannot parse 'externallyProvisioned' as bool: strconv.ParseBool: parsing ${JSON.stringify(castToString(v ?? { kind: 'null', text: '' }))}: invalid syntax`,
          { where: `${where}.externallyProvisioned`, hint: 'use true or false' },
        );
      }
      if (url !== '') cfg.url = url;
      if (version !== '') cfg.version = version;
      if (timeout !== '') cfg.timeout = timeout;
      cfg.externallyProvisioned = ep;
    }
    cfg.url = evalWithEnvOrThrow(cfg.url, this.env, `unable to evaluate url: ${JSON.stringify(cfg.url)}`, where);
    return cfg;
  }

  private unmarshalError(key: string, message: string): ConfigError {
    return new ConfigError(`${message}: '' expected a map or a list, got '${describe(this.getValue(key))}'`, {
      where: `${this.source}: ${key}`,
    });
  }
}

function describe(v: ConfigValue | undefined): string {
  if (v === undefined) return 'nil';
  if (isConfigMap(v)) return 'map[string]interface {}';
  if (Array.isArray(v)) return '[]interface {}';
  switch (v.kind) {
    case 'str':
      return 'string';
    case 'int':
      return 'int';
    case 'float':
      return 'float64';
    case 'bool':
      return 'bool';
    case 'null':
      return 'nil';
  }
}

/** Parses clusterctl.yaml text (YAML 1.2, or JSON for `format: 'json'`). */
export function parseClusterctlConfig(
  text: string,
  opts: { env?: Env; source?: string; format?: 'yaml' | 'json' } = {},
): ClusterctlConfig {
  const source = opts.source ?? 'clusterctl.yaml';
  let file: ConfigMap;
  if (opts.format === 'json') {
    let parsed: unknown;
    try {
      parsed = text.trim() === '' ? {} : JSON.parse(text);
    } catch (err) {
      throw new ConfigError(`While parsing config: ${(err as Error).message}`, { where: source });
    }
    const v = fromJson(parsed);
    if (!isConfigMap(v)) {
      throw new ConfigError('While parsing config: json: cannot unmarshal into Go value of type map[string]interface {}', {
        where: source,
      });
    }
    file = v;
  } else {
    file = parseConfigText(text, source);
  }
  return new ClusterctlConfig(file, opts.env ?? {}, opts.source ?? null);
}

/**
 * Loads clusterctl's configuration: `path` (the `--config` flag; relative to `cwd`) or the default locations.
 * No default file at all gives an empty configuration (environment only).
 */
export function loadClusterctlConfig(opts: { path?: string; env: Env; cwd: string }): ClusterctlConfig {
  try {
    return readClusterctlConfig(opts);
  } catch (err) {
    // clusterctl: `errors.Wrap(err, "failed to initialize the configuration reader")`.
    if (err instanceof ConfigError) err.message = `failed to initialize the configuration reader: ${err.message}`;
    throw err;
  }
}

function readClusterctlConfig(opts: { path?: string; env: Env; cwd: string }): ClusterctlConfig {
  let file: string | null;
  if (opts.path !== undefined && opts.path !== '') {
    if (/^https?:\/\//i.test(opts.path)) {
      throw new ConfigError(`reading the clusterctl configuration from a URL is not supported: ${opts.path}`, {
        where: '--config',
        hint: 'download the file and pass its local path to --config',
      });
    }
    file = resolve(opts.cwd, opts.path);
    if (!existsSync(file)) {
      throw new ConfigError(`stat ${opts.path}: no such file or directory`, {
        where: '--config',
        hint: 'check the path of the clusterctl configuration file',
      });
    }
  } else {
    file = findDefaultConfigFile(opts.env);
    if (file === null) return new ClusterctlConfig(new Map(), opts.env, null);
  }
  const ext = extname(file).slice(1);
  if (!['yaml', 'yml', 'json'].includes(ext)) {
    const supported = viperExtensions.includes(ext);
    throw new ConfigError(
      supported ? `config file type "${ext}" is not supported by capiform` : `Unsupported Config Type "${ext}"`,
      { where: file, hint: 'use a .yaml, .yml or .json clusterctl configuration file' },
    );
  }
  let text: string;
  try {
    if (statSync(file).isDirectory()) throw new Error('is a directory');
    text = readTextFile(file, MAX_CONFIG_SIZE, 'clusterctl configuration file');
  } catch (err) {
    if (err instanceof CapiformError) throw err;
    throw new ConfigError(`failed to read the clusterctl configuration file ${file}: ${(err as Error).message}`, {
      where: file,
      hint: 'check that the file exists and is readable',
    });
  }
  return parseClusterctlConfig(text, { env: opts.env, source: file, format: ext === 'json' ? 'json' : 'yaml' });
}

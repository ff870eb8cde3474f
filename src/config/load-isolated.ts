/**
 * Loading a TypeScript or JavaScript config runs the user's code. It runs in a worker thread, so that a config that
 * never finishes (an endless loop, a promise that never settles) can be stopped after a bounded time, and one that
 * calls `process.exit` ends only its thread. Only the exported value comes back, as plain data.
 *
 * The worker gets the `capiform` module configs import: just `defineConfig` when that is all the config imports
 * (every config we have seen; loading the whole library into the worker would cost more than the config itself),
 * else the whole library.
 *
 * Compiling TypeScript is most of a load: jiti and its Babel build are ~1.7 MB of code. A config that imports nothing
 * but `defineConfig` is therefore compiled once; the compiled code is kept in the cache under the sha256 of the
 * source (with jiti's version and the file's path) and run again on later loads, afresh each time (a config may read
 * its environment), without loading jiti. Any other import, or a compile error, takes jiti's own path every time, and
 * a config holding one of its credential values as a literal is never kept.
 */
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { sha256Incremental, writeFileAtomic } from '../cache/index.js';
import { ConfigError } from '../errors.js';

/** Default bound on loading a config, in seconds (`CAPIFORM_CONFIG_TIMEOUT` overrides it). */
export const DEFAULT_CONFIG_TIMEOUT_SECONDS = 10;

/** Memory the config's code may use (MiB of heap): configs are a few KB of data. */
const CONFIG_HEAP_MB = 256;

/** The load bound from the environment, in milliseconds. */
export function configTimeoutMs(env: NodeJS.ProcessEnv): number {
  const raw = env.CAPIFORM_CONFIG_TIMEOUT;
  if (raw === undefined || raw === '') return DEFAULT_CONFIG_TIMEOUT_SECONDS * 1000;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new ConfigError(`CAPIFORM_CONFIG_TIMEOUT must be a positive number of seconds, not "${raw}"`, {
      where: 'CAPIFORM_CONFIG_TIMEOUT',
      hint: `unset it for the default of ${DEFAULT_CONFIG_TIMEOUT_SECONDS} s, or set it to e.g. 30`,
    });
  }
  return seconds * 1000;
}

/** Whether the config imports anything from `capiform` at run time besides `defineConfig`. */
export function needsFullApi(source: string): boolean {
  const specifier = /\bfrom\s*['"]capiform['"]|\b(?:require|import)\s*\(\s*['"]capiform['"]\s*\)/g;
  for (const m of source.matchAll(specifier)) {
    if (!m[0].startsWith('from')) return true;
    // The statement's start: `import { a, type B } from 'capiform'` or `import type { … } from 'capiform'`.
    const head = source.slice(0, m.index);
    const start = head.lastIndexOf('import');
    const clause = head.slice(start + 'import'.length).trim();
    if (/^type\b/.test(clause)) continue;
    const names = /^\{([^}]*)\}$/.exec(clause)?.[1];
    if (names === undefined) return true;
    for (const name of names.split(',').map((n) => n.trim()).filter(Boolean)) {
      if (!/^type\s/.test(name) && name !== 'defineConfig') return true;
    }
  }
  return false;
}

export interface WorkerRequest {
  file: string;
  typescript: boolean;
  /** CommonJS entry of jiti (for TypeScript configs). */
  jitiPath: string;
  /** The library to offer as `capiform`, or null for `{ defineConfig }` alone. */
  apiUrl: string | null;
  mtime: number;
  /** The source the cache key was computed from (compiled again on a miss). */
  source: string;
  /** The cached compiled config to run instead of jiti, or null. */
  compiled: string | null;
  /** Whether to send the compiled code back for the cache (a miss that may be cached). */
  wantCompiled: boolean;
}

export type WorkerReply = { ok: true; value: unknown; compiled?: string } | { ok: false; message: string; notPlainData?: boolean };

/**
 * A loaded config's value, and on a cache miss a way to keep its compiled code: the caller keeps it only once it knows
 * the config's credential values, none of which may reach the cache (a config may hold one as a literal).
 */
export type ConfigLoad = { ok: true; value: unknown; keepCompiled?: (secrets: readonly string[]) => void } | { ok: false; message: string; notPlainData?: boolean };

/** Bump when the way compiled configs are run changes. */
const COMPILED_FORMAT = 'capiform-compiled-config-v1';

// Runs as a CommonJS script in the worker (eval), so it works the same from dist/ and from the TypeScript sources.
// A compiled config runs the way jiti runs it (an async CommonJS-style wrapper), with `capiform` as the only import.
const workerScript = String.raw`
const { parentPort, workerData: req } = require('node:worker_threads');
const { pathToFileURL } = require('node:url');
const { dirname } = require('node:path');
// A promise that never settles leaves the thread with nothing to do, and it would end as quietly as process.exit(0):
// this keeps it alive until the answer or the load bound.
setInterval(() => {}, 1 << 30);
const defineConfigOnly = { defineConfig: (config) => config };
// Compiled code that needs nothing from jiti at run time: its only import is \`capiform\`.
const runsWithoutJiti = (code) =>
  !/\brequire\b|jitiESMResolve|__JITI_ERROR__|import\.meta|\bimport\s*\(/.test(code) &&
  (code.match(/jitiImport/g) || []).length === (code.match(/await jitiImport\("capiform"\)/g) || []).length;
async function runCompiled(code) {
  const wrapper = require('node:vm').runInThisContext(
    '(async function (exports, require, module, __filename, __dirname, jitiImport, jitiESMResolve) { ' + code + '\n});',
    { filename: req.file },
  );
  const module = { exports: {} };
  const jitiImport = async (id) => {
    if (id !== 'capiform') throw new Error('Cannot find module ' + JSON.stringify(id));
    return defineConfigOnly;
  };
  await wrapper(module.exports, undefined, module, req.file, dirname(req.file), jitiImport, undefined);
  return module.exports;
}
(async () => {
  let mod;
  let compiled;
  try {
    if (req.typescript && req.compiled !== null) {
      mod = await runCompiled(req.compiled);
    } else if (req.typescript) {
      const { createJiti } = require(req.jitiPath);
      let api = defineConfigOnly;
      if (req.apiUrl) {
        api = req.apiUrl.endsWith('.ts')
          ? await createJiti(req.apiUrl, { moduleCache: true, fsCache: false }).import(req.apiUrl)
          : await import(req.apiUrl);
      }
      const jiti = createJiti(pathToFileURL(req.file).href, { moduleCache: false, fsCache: false, virtualModules: { capiform: api } });
      mod = await jiti.import(req.file);
      if (req.wantCompiled) {
        try {
          const code = jiti.transform({ source: req.source, filename: req.file, ts: true, async: true });
          if (runsWithoutJiti(code)) compiled = code;
        } catch {
          // not cached: the next load compiles again
        }
      }
    } else {
      mod = await import(pathToFileURL(req.file).href + '?mtime=' + req.mtime);
    }
  } catch (err) {
    parentPort.postMessage({ ok: false, message: err instanceof Error ? err.message : String(err) });
    return;
  }
  // jiti gives a module without a default export a non-enumerable default (the namespace itself): only an
  // enumerable default is the config.
  const value = Object.keys(mod).includes('default') ? mod.default : mod.config;
  try {
    parentPort.postMessage({ ok: true, value: await value, ...(compiled === undefined ? {} : { compiled }) });
  } catch (err) {
    parentPort.postMessage({ ok: false, notPlainData: true, message: err instanceof Error ? err.message : String(err) });
  }
})();
`;

/** jiti's version: compiled output is only reused by the jiti that made it. */
function jitiVersion(jitiPath: string): string {
  try {
    for (let dir = dirname(jitiPath); dir !== dirname(dir); dir = dirname(dir)) {
      const pkg = join(dir, 'package.json');
      let text: string;
      try {
        text = readFileSync(pkg, 'utf8');
      } catch {
        continue;
      }
      const v = (JSON.parse(text) as { name?: string; version?: string });
      if (v.name === 'jiti' && typeof v.version === 'string') return v.version;
    }
  } catch {
    // unknown: no reuse
  }
  return '';
}

/** Where a compiled config is kept, or undefined when it is not cached (no cache folder, unknown jiti). */
function compiledConfigPath(cacheDir: string | undefined, jitiPath: string, file: string, source: string): string | undefined {
  if (!cacheDir) return undefined;
  const jiti = jitiVersion(jitiPath);
  if (!jiti) return undefined;
  const key = sha256Incremental().update(`${COMPILED_FORMAT}\0${jiti}\0${file}\0`).update(source).hex();
  return join(cacheDir, 'config', key.slice(0, 2), `${key}.js`);
}

/**
 * Imports the config file in a worker thread and returns its exported value (undefined when it exports none).
 * Throws ConfigError when loading fails, takes longer than `timeoutMs`, or ends the thread. With `cacheDir`, a
 * TypeScript config that imports only `defineConfig` is compiled once and its compiled code kept there.
 */
export function importConfigIsolated(file: string, timeoutMs: number, cacheDir?: string): Promise<ConfigLoad> {
  const typescript = /\.(m?ts)$/.test(file);
  const source = readFileSync(file, 'utf8');
  const jitiPath = createRequire(import.meta.url).resolve('jiti');
  // From the sources (tests), the library is TypeScript too.
  const apiUrl = typescript && needsFullApi(source) ? new URL(`../index.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url).href : null;
  const compiledPath = typescript && apiUrl === null ? compiledConfigPath(cacheDir, jitiPath, file, source) : undefined;
  let compiled: string | null = null;
  if (compiledPath) {
    try {
      compiled = readFileSync(compiledPath, 'utf8');
    } catch {
      compiled = null;
    }
  }
  const request: WorkerRequest = {
    file,
    typescript,
    jitiPath,
    apiUrl,
    mtime: statSync(file).mtimeMs,
    source,
    compiled,
    wantCompiled: compiledPath !== undefined && compiled === null,
  };
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerScript, {
      eval: true,
      workerData: request,
      resourceLimits: { maxOldGenerationSizeMb: CONFIG_HEAP_MB },
    });
    let settled = false;
    const finish = (f: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      f();
      // A config may leave timers or sockets open: its thread ends with the answer.
      void worker.terminate();
    };
    const timer = setTimeout(() => {
      finish(() =>
        reject(
          new ConfigError(`the config did not finish loading within ${timeoutMs / 1000} s`, {
            where: file,
            hint: 'look for an endless loop or a promise that never settles in the config; if it is just slow, raise the bound with CAPIFORM_CONFIG_TIMEOUT=<seconds>',
          }, 'E_CONFIG_TIMEOUT'),
        ),
      );
    }, timeoutMs);
    worker.on('message', (reply: WorkerReply) =>
      finish(() => {
        if (!reply.ok) return resolve(reply);
        const code = reply.compiled;
        if (code === undefined || !compiledPath) return resolve({ ok: true, value: reply.value });
        const keepCompiled = (secrets: readonly string[]): void => {
          if (secrets.some((v) => code.includes(v) || source.includes(v))) return;
          try {
            writeFileAtomic(compiledPath, code);
          } catch {
            // the cache is an optimisation: the next load compiles again
          }
        };
        resolve({ ok: true, value: reply.value, keepCompiled });
      }),
    );
    worker.on('error', (err: Error & { code?: string }) =>
      finish(() =>
        reject(
          err.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new ConfigError(`the config used more than ${CONFIG_HEAP_MB} MiB of memory while loading`, {
                where: file,
                hint: 'a config is a few KB of data: look for a loop that keeps allocating',
              }, 'E_CONFIG_MEMORY')
            : new ConfigError(`failed to load the config: ${err.message}`, { where: file, hint: 'fix the error in the config file' }),
        ),
      ),
    );
    worker.on('exit', (code) =>
      finish(() =>
        reject(
          new ConfigError(`the config ended its loading with process.exit(${code}) instead of exporting a config`, {
            where: file,
            hint: 'remove the process.exit call: a config only exports its value',
          }, 'E_CONFIG_EXIT'),
        ),
      ),
    );
  });
}

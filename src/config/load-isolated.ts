/**
 * Loading a TypeScript or JavaScript config runs the user's code. It runs in a worker thread, so that a config that
 * never finishes (an endless loop, a promise that never settles) can be stopped after a bounded time, and one that
 * calls `process.exit` ends only its thread. Only the exported value comes back, as plain data.
 *
 * The worker gets the `capiform` module configs import: just `defineConfig` when that is all the config imports
 * (every config we have seen; loading the whole library into the worker would cost more than the config itself),
 * else the whole library.
 */
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
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
}

export type WorkerReply = { ok: true; value: unknown } | { ok: false; message: string; notPlainData?: boolean };

// Runs as a CommonJS script in the worker (eval), so it works the same from dist/ and from the TypeScript sources.
const workerScript = String.raw`
const { parentPort, workerData: req } = require('node:worker_threads');
const { pathToFileURL } = require('node:url');
// A promise that never settles leaves the thread with nothing to do, and it would end as quietly as process.exit(0):
// this keeps it alive until the answer or the load bound.
setInterval(() => {}, 1 << 30);
(async () => {
  let mod;
  try {
    if (req.typescript) {
      const { createJiti } = require(req.jitiPath);
      let api = { defineConfig: (config) => config };
      if (req.apiUrl) {
        api = req.apiUrl.endsWith('.ts')
          ? await createJiti(req.apiUrl, { moduleCache: true, fsCache: false }).import(req.apiUrl)
          : await import(req.apiUrl);
      }
      const jiti = createJiti(pathToFileURL(req.file).href, { moduleCache: false, fsCache: false, virtualModules: { capiform: api } });
      mod = await jiti.import(req.file);
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
    parentPort.postMessage({ ok: true, value: await value });
  } catch (err) {
    parentPort.postMessage({ ok: false, notPlainData: true, message: err instanceof Error ? err.message : String(err) });
  }
})();
`;

/**
 * Imports the config file in a worker thread and returns its exported value (undefined when it exports none).
 * Throws ConfigError when loading fails, takes longer than `timeoutMs`, or ends the thread.
 */
export function importConfigIsolated(file: string, timeoutMs: number): Promise<WorkerReply> {
  const typescript = /\.(m?ts)$/.test(file);
  const source = readFileSync(file, 'utf8');
  const request: WorkerRequest = {
    file,
    typescript,
    jitiPath: createRequire(import.meta.url).resolve('jiti'),
    // From the sources (tests), the library is TypeScript too.
    apiUrl: typescript && needsFullApi(source) ? new URL(`../index.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url).href : null,
    mtime: statSync(file).mtimeMs,
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
    worker.on('message', (reply: WorkerReply) => finish(() => resolve(reply)));
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

/**
 * The OS environment as clusterctl reads it, and `envsubst.Eval(text, os.Getenv)`, which clusterctl applies to
 * provider URLs, the cert-manager URL and `overridesFolder` (unset variables expand to "", no missing-variable error).
 */
import { ConfigError } from '../../errors.js';
import { envsubstEval } from '../../envsubst/index.js';

export type Env = Record<string, string | undefined>;

/** `envsubst.Eval(text, os.Getenv)` with drone/envsubst's semantics (src/envsubst). */
export function evalWithEnv(text: string, env: Env): string {
  return envsubstEval(text, (name) => (Object.hasOwn(env, name) ? (env[name] ?? '') : ''));
}

/** `evalWithEnv` with clusterctl's wrapping of a syntax error (`unable to evaluate url: "…": …`) as a ConfigError. */
export function evalWithEnvOrThrow(text: string, env: Env, prefix: string, where?: string): string {
  try {
    return evalWithEnv(text, env);
  } catch (err) {
    throw new ConfigError(`${prefix}: ${(err as Error).message}`, {
      where,
      hint: 'fix the ${...} expression (clusterctl expands it with the OS environment)',
      cause: err,
    });
  }
}

/**
 * HTTP(S) proxies from the environment, which Node 20's built-in fetch ignores. When one of `HTTPS_PROXY`,
 * `HTTP_PROXY` (or their lower-case forms, which win, as in curl) is set, requests go through undici's
 * EnvHttpProxyAgent: https URLs through `HTTPS_PROXY` (else `HTTP_PROXY`), http URLs through `HTTP_PROXY`, both as
 * CONNECT tunnels (undici 6 has no absolute-URI mode; undici 7 has, but needs Node ≥ 20.18.1 and we support Node 20),
 * and hosts matched by `NO_PROXY` (`host`, `.suffix`, `host:port`, `*`) directly. undici is loaded only then, so runs
 * without a proxy keep using the built-in fetch.
 */

export interface ProxySettings {
  httpProxy: string | undefined;
  httpsProxy: string | undefined;
  noProxy: string;
}

function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const v = env[name.toLowerCase()] ?? env[name];
  return v !== undefined && v.trim() !== '' ? v.trim() : undefined;
}

/** The proxy settings in `env`, or `null` when no proxy is configured. */
export function proxySettings(env: NodeJS.ProcessEnv): ProxySettings | null {
  const httpProxy = envValue(env, 'HTTP_PROXY');
  const httpsProxy = envValue(env, 'HTTPS_PROXY');
  if (!httpProxy && !httpsProxy) return null;
  return { httpProxy, httpsProxy, noProxy: envValue(env, 'NO_PROXY') ?? '' };
}

/** `HTTPS_PROXY=http://proxy:3128` for messages: user and password removed. */
export function describeProxies(settings: ProxySettings): string {
  const shown = (name: string, url: string): string => {
    try {
      const u = new URL(url);
      return `${name}=${u.protocol}//${u.host}`;
    } catch {
      return `${name} (not a URL)`;
    }
  };
  return [settings.httpsProxy && shown('HTTPS_PROXY', settings.httpsProxy), settings.httpProxy && shown('HTTP_PROXY', settings.httpProxy)]
    .filter(Boolean)
    .join(', ');
}

/**
 * Runs `create` with undici's "EnvHttpProxyAgent is experimental" warning (code UNDICI-EHPA) held back: users with
 * HTTPS_PROXY set would otherwise see it on every command, about an API they never chose. Every other warning passes
 * through; the constructor emits synchronously, so nothing else runs while the filter is in place.
 */
export function withoutExperimentalWarning<T>(create: () => T): T {
  const emit = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]): void {
    const options = rest[0];
    const code = typeof options === 'object' && options !== null ? (options as { code?: unknown }).code : rest[1];
    if (code === 'UNDICI-EHPA') return;
    (emit as (...args: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return create();
  } finally {
    process.emitWarning = emit;
  }
}

/**
 * A fetch that honours the proxy settings in `env`, or `undefined` (use the built-in fetch) when there are none.
 * Every HTTP request capiform makes, octokit's included, goes through the HttpClient and so through this fetch.
 */
export function proxyFetch(env: NodeJS.ProcessEnv): typeof fetch | undefined {
  const settings = proxySettings(env);
  if (!settings) return undefined;
  let loaded: Promise<typeof fetch> | undefined;
  const load = async (): Promise<typeof fetch> => {
    const undici = await import('undici');
    const agent = withoutExperimentalWarning(
      () =>
        new undici.EnvHttpProxyAgent({
          // Explicit values, so undici never falls back to process.env (the CLI's environment is the one passed in).
          httpProxy: settings.httpProxy ?? '',
          httpsProxy: settings.httpsProxy ?? settings.httpProxy ?? '',
          noProxy: settings.noProxy,
        }),
    );
    // undici's fetch and Response are the ones Node's global fetch is built from; the global types describe them.
    return ((input: Parameters<typeof fetch>[0], init?: RequestInit) =>
      undici.fetch(input as Parameters<typeof undici.fetch>[0], { ...(init as Parameters<typeof undici.fetch>[1]), dispatcher: agent })) as unknown as typeof fetch;
  };
  return async (input, init) => (await (loaded ??= load()))(input, init);
}

/**
 * Version listing through a Go module proxy (`internal/goproxy/goproxy.go`): GitHub-hosted providers are Go modules,
 * so `<proxy>/github.com/<owner>/<repo>/@v/list` lists their tags without touching the GitHub API.
 */
import { NetworkError, ResolutionError } from '../../errors.js';
import type { HttpClient } from '../http/client.js';
import { parseGoUrl, compareSemantic, formatSemantic, parseTolerant as parseTolerantSemantic, type SemanticVersion } from '../../go/index.js';

export interface GoproxyTarget {
  scheme: string;
  host: string;
}

/**
 * `GetSchemeAndHost(GOPROXY)`: empty → proxy.golang.org; the first entry of a `,`/`|` list; `off` or `direct` →
 * `{ scheme: '', host: '' }` (disabled); `https://` added to bare hosts.
 */
export function goproxySchemeAndHost(goproxy: string | undefined): GoproxyTarget {
  let rest = goproxy ?? '';
  if (rest === '') return { scheme: 'https', host: 'proxy.golang.org' };
  while (rest !== '') {
    let rawUrl: string;
    const i = rest.search(/[,|]/);
    if (i >= 0) {
      rawUrl = rest.slice(0, i);
      rest = rest.slice(i + 1);
    } else {
      rawUrl = rest;
      rest = '';
    }
    rawUrl = rawUrl.trim();
    if (rawUrl === '') continue;
    if (rawUrl === 'off' || rawUrl === 'direct') return { scheme: '', host: '' };
    if (/[.:/]/.test(rawUrl) && !rawUrl.includes(':/') && !rawUrl.startsWith('/')) rawUrl = `https://${rawUrl}`;
    let parsed;
    try {
      parsed = parseGoUrl(rawUrl);
    } catch (err) {
      throw new ResolutionError(`parse GOPROXY url ${JSON.stringify(rawUrl)}: ${(err as Error).message}`, {
        where: 'GOPROXY',
      });
    }
    return { scheme: parsed.scheme, host: parsed.host };
  }
  return { scheme: '', host: '' };
}

/** blang/semver `ParseTolerant` → `Version.String()` (no `v`), or `null` when unparseable. */
export function parseTolerant(line: string): string | null {
  const v = parseTolerantSemantic(line);
  return v ? formatSemantic(v) : null;
}

export class GoproxyClient {
  constructor(
    private readonly http: HttpClient,
    readonly target: GoproxyTarget,
  ) {}

  /**
   * `GetVersions(module)`: `<module>/@v/list`, then `/v2/@v/list`, `/v3/…` until a 404/410; unparseable lines dropped;
   * ascending semver, each as `v<version>`. No versions → error (callers fall back to the GitHub API).
   */
  async listVersions(module: string): Promise<string[]> {
    const found: SemanticVersion[] = [];
    for (let major = 1; ; major++) {
      const suffix = major > 1 ? `/v${major}` : '';
      const url = `${this.target.scheme}://${this.target.host}/${module}${suffix}/@v/list`;
      const res = await this.http.request({ url, service: 'goproxy', what: `version list of ${module}${suffix}`, revalidate: true });
      if (res.status === 404 || res.status === 410) break;
      if (res.status !== 200) throw new NetworkError(`failed to get versions: response status code ${res.status}`);
      for (const line of new TextDecoder().decode(res.body).split('\n')) {
        if (line === '') continue;
        const v = parseTolerantSemantic(line);
        if (v !== null) found.push(v);
      }
    }
    if (found.length === 0) throw new ResolutionError(`no versions found for go module ${JSON.stringify(module)}`);
    return found.sort(compareSemantic).map((v) => `v${formatSemantic(v)}`);
  }
}

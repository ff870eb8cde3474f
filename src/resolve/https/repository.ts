/**
 * A plain HTTPS mirror as a provider repository: the URL names a components file, and `metadata.yaml`, cluster
 * templates and ClusterClasses sit next to it. It offers one version: the folder the file is in when that folder is a
 * semantic version (`…/v1.2.3/infrastructure-components.yaml`), else the `version` given in the config.
 */
import { posix } from 'node:path';
import { NetworkError, ResolutionError } from '../../errors.js';
import type { HttpClient } from '../http/client.js';
import { parseGoUrl } from '../../go/index.js';
import { isSemanticVersion } from '../github/semantic.js';
import { isLoopbackHost } from '../repository-kind.js';
import type { ProviderRepository } from '../repository.js';
import { PromiseMemo } from '../memo.js';

export interface HttpsRepositoryOptions {
  http: HttpClient;
  /** The version, when the URL does not carry it as its folder name. */
  version?: string | undefined;
  /** Extra request headers (e.g. `authorization` for a private mirror); their values are redacted. */
  headers?: Record<string, string>;
}

export class HttpsRepository implements ProviderRepository {
  readonly kind = 'https' as const;
  readonly url: string;
  readonly componentsFile: string;
  readonly defaultVersion: string;
  readonly rootPath = '.';
  private readonly base: string;
  private readonly http: HttpClient;
  private readonly headers: Record<string, string>;
  private readonly files = new PromiseMemo<string, Uint8Array | null>();

  constructor(url: string, opts: HttpsRepositoryOptions) {
    let u;
    try {
      u = parseGoUrl(url);
    } catch (err) {
      throw new ResolutionError(`failed to parse repository url ${JSON.stringify(url)}: ${(err as Error).message}`);
    }
    const loopbackHttp = u.scheme === 'http' && isLoopbackHost(u.host);
    if ((u.scheme !== 'https' && !loopbackHttp) || u.host === '' || u.path === '' || u.path.endsWith('/')) {
      throw new ResolutionError(`invalid url: an https repository url should be in the form https://{host}/{path}/{components file}`, {
        where: url,
        hint: 'plain http:// is accepted only for loopback hosts (127.0.0.1, localhost)',
      });
    }
    this.url = url;
    this.base = url.slice(0, url.lastIndexOf('/'));
    this.componentsFile = posix.basename(u.path);
    const folder = posix.basename(posix.dirname(u.path));
    const version = opts.version ?? (isSemanticVersion(folder) ? folder : undefined);
    if (!version) {
      throw new ResolutionError(`cannot tell the version of ${url}`, {
        where: url,
        hint: 'put the files in a folder named after the version (…/v1.2.3/components.yaml) or set `version` for this provider',
      });
    }
    this.defaultVersion = version;
    this.http = opts.http;
    this.headers = opts.headers ?? {};
  }

  async listVersions(): Promise<string[]> {
    return [this.defaultVersion];
  }

  fileLocation(_version: string, file: string): string {
    return `${this.base}/${file}`;
  }

  getFile(version: string, file: string): Promise<Uint8Array | null> {
    if (version !== this.defaultVersion) return Promise.resolve(null);
    return this.files.get(file, () => this.fetchFile(file));
  }

  private async fetchFile(file: string): Promise<Uint8Array | null> {
    const url = this.fileLocation(this.defaultVersion, file);
    const res = await this.http.request({ url, service: 'https', what: file, headers: this.headers, revalidate: true });
    if (res.status === 200) {
      await this.http.cache?.put(res.body);
      return res.body;
    }
    if (res.status === 404 || res.status === 410) return null;
    throw new NetworkError(`failed to get file ${JSON.stringify(file)} from ${JSON.stringify(this.http.redact(url))}, got ${res.status}`);
  }
}

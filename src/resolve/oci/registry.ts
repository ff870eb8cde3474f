/**
 * The distribution API, read-only: tag lists (`GET /v2/<name>/tags/list`, following `Link: <…>; rel="next"`),
 * manifests and blobs. Authentication follows the registry's challenge: a request goes anonymous first; a 401's
 * `WWW-Authenticate` then says Basic (credentials sent as they are) or Bearer (a token fetched from the `realm`,
 * with the credentials when there are some). Tokens and credentials go over https only, or plain http to a
 * loopback registry or token server.
 */
import { IntegrityError, NetworkError, ResolutionError } from '../../errors.js';
import { sha256Hex } from '../../cache/index.js';
import type { HttpClient, HttpResponse } from '../http/client.js';
import { statusText } from '../http/client.js';
import { isLoopbackHost } from '../repository-kind.js';
import { dockerConfigPath, type OciCredentials } from './credentials.js';
import { dockerManifestMediaType, dockerListMediaType, maxManifestBytes, ociIndexMediaType, ociManifestMediaType } from './artifact.js';
import type { OciReference } from './reference.js';

/** Where a repository's manifests, blobs and tags come from: a registry, or an OCI image layout folder. */
export interface OciStore {
  /** Every tag, in the store's order. */
  tags(): Promise<string[]>;
  /** The manifest a tag points at, or `null` when there is no such tag. */
  manifest(tag: string): Promise<{ bytes: Uint8Array; digest: string; contentType: string | undefined } | null>;
  /** A blob's bytes, verified against `digest`. */
  blob(digest: string, size: number, what: string): Promise<Uint8Array>;
  /** For messages: `oci://127.0.0.1:5000/capi/cluster-api`. */
  readonly location: string;
}

/** Tags per page asked for (`n=`); registries may answer fewer and link the next page. */
export const tagPageSize = 1000;
/** Pages of tags read at most (a million tags): a registry that links pages forever is stopped. */
export const maxTagPages = 1000;
const maxTokenBytes = 1024 * 1024;
const manifestAccept = [ociManifestMediaType, dockerManifestMediaType, ociIndexMediaType, dockerListMediaType].join(', ');

interface Challenge {
  scheme: string;
  params: Record<string, string>;
}

export function parseChallenge(header: string): Challenge | null {
  const m = /^\s*([A-Za-z]+)\s*(.*)$/.exec(header);
  if (!m) return null;
  const params: Record<string, string> = {};
  const re = /([A-Za-z_]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*))/g;
  for (let p = re.exec(m[2]!); p; p = re.exec(m[2]!)) params[p[1]!.toLowerCase()] = (p[2] ?? p[3] ?? '').replace(/\\(.)/g, '$1');
  return { scheme: m[1]!.toLowerCase(), params };
}

function nextLink(link: string | null, base: string): string | undefined {
  if (!link) return undefined;
  for (const part of link.split(',')) {
    const m = /<([^>]*)>\s*;(.*)/.exec(part.trim());
    if (m && /rel="?next"?/i.test(m[2]!)) return new URL(m[1]!, base).href;
  }
  return undefined;
}

export class RegistryStore implements OciStore {
  readonly location: string;
  private authorization: string | undefined;
  private readonly http: HttpClient;

  constructor(
    private readonly ref: OciReference,
    http: HttpClient,
    private readonly credentials: OciCredentials | undefined,
    private readonly env: Record<string, string | undefined>,
  ) {
    this.http = http;
    this.location = `oci://${ref.registry}/${ref.repository}`;
    http.addSecret(credentials?.password);
    http.addSecret(credentials?.accessToken);
    if (credentials?.username && credentials.password) http.addSecret(Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64'));
  }

  private url(path: string): string {
    return `${this.ref.base}/v2/${this.ref.repository}/${path}`;
  }

  async tags(): Promise<string[]> {
    const out: string[] = [];
    let url: string | undefined = this.url(`tags/list?n=${tagPageSize}`);
    for (let page = 0; url !== undefined; page++) {
      if (page >= maxTagPages) {
        throw new ResolutionError(`${this.location}: the registry's tag list goes on for more than ${maxTagPages} pages`, {
          where: this.location,
          hint: 'name the release in the url (oci://<registry>/<repository>:<tag>) so the tag list is not read',
        });
      }
      const res = await this.get(url, 'application/json', `tags of ${this.location}`, true);
      if (res.status === 404) {
        throw new ResolutionError(`${this.location}: the registry has no repository ${JSON.stringify(this.ref.repository)} (404 ${registryErrorCode(res)})`, {
          where: this.location,
          hint: 'check the repository path in the url; `oras repo ls <registry>` lists what the registry has',
        });
      }
      if (res.status !== 200) throw this.failed(res, `tags of ${this.location}`);
      let body: { tags?: unknown };
      try {
        body = JSON.parse(new TextDecoder().decode(res.body)) as { tags?: unknown };
      } catch {
        throw new NetworkError(`${this.location}: the registry's tag list is not JSON`, { where: this.http.redact(url) });
      }
      // `tags: null` is what distribution answers for a repository whose tags were all deleted.
      if (body.tags !== null && body.tags !== undefined) {
        if (!Array.isArray(body.tags) || body.tags.some((t) => typeof t !== 'string')) {
          throw new NetworkError(`${this.location}: the registry's tag list has no list of tags`, { where: this.http.redact(url) });
        }
        out.push(...(body.tags as string[]));
      }
      url = nextLink(res.headers.get('link'), this.ref.base);
      if (url !== undefined && new URL(url).origin !== new URL(this.ref.base).origin) {
        throw new NetworkError(`${this.location}: the registry links its next tag page to another host (${this.http.redact(url)})`);
      }
    }
    return out;
  }

  async manifest(tag: string): Promise<{ bytes: Uint8Array; digest: string; contentType: string | undefined } | null> {
    const what = `manifest of ${this.location}:${tag}`;
    const res = await this.get(this.url(`manifests/${tag}`), manifestAccept, what, true);
    if (res.status === 404) return null;
    if (res.status !== 200) throw this.failed(res, what);
    if (res.body.byteLength > maxManifestBytes) {
      throw new ResolutionError(`${what} is ${res.body.byteLength} bytes, more than the ${maxManifestBytes} a registry accepts`, { where: `${this.location}:${tag}` });
    }
    const digest = `sha256:${sha256Hex(res.body)}`;
    const claimed = res.headers.get('docker-content-digest');
    if (claimed !== null && claimed.startsWith('sha256:') && claimed !== digest) {
      throw new IntegrityError(`${what}: the registry says its digest is ${claimed}, but the bytes it sent hash to ${digest}`, {
        where: `${this.location}:${tag}`,
        hint: 'the registry or a proxy between it and capiform altered the manifest; try again, or report it to the registry operator',
      });
    }
    return { bytes: res.body, digest, contentType: res.headers.get('content-type') ?? undefined };
  }

  async blob(digest: string, size: number, what: string): Promise<Uint8Array> {
    const res = await this.get(this.url(`blobs/${digest}`), '*/*', what, false);
    if (res.status === 404) {
      throw new ResolutionError(`${what}: the registry has no blob ${digest} (404 ${registryErrorCode(res)})`, {
        where: this.location,
        hint: 'the artifact was pushed incompletely or its blobs were garbage-collected; push the release again',
      });
    }
    if (res.status !== 200) throw this.failed(res, what);
    const actual = `sha256:${sha256Hex(res.body)}`;
    if (actual !== digest || res.body.byteLength !== size) {
      throw new IntegrityError(`${what}: the layer's bytes hash to ${actual} (${res.body.byteLength} bytes), not ${digest} (${size} bytes) as the manifest says`, {
        where: this.location,
        hint: 'the registry or a proxy altered the blob; try again, or report it to the registry operator',
      });
    }
    return res.body;
  }

  /** A GET with the registry's authentication: anonymous first, then what a 401's challenge asks for. */
  private async get(url: string, accept: string, what: string, revalidate: boolean): Promise<HttpResponse> {
    const send = (): Promise<HttpResponse> =>
      this.http.request({
        url,
        what,
        service: 'oci',
        revalidate,
        loopbackCredentials: true,
        headers: { accept, ...(this.authorization ? { authorization: this.authorization } : {}) },
      });
    let res = await send();
    if (res.status === 401) {
      this.authorization = await this.authorize(res, what);
      res = await send();
      if (res.status === 401 || res.status === 403) throw this.denied(res, what);
    }
    if (res.status === 403) throw this.denied(res, what);
    return res;
  }

  private async authorize(res: HttpResponse, what: string): Promise<string> {
    const challenge = parseChallenge(res.headers.get('www-authenticate') ?? '');
    const creds = this.credentials;
    if (challenge?.scheme === 'basic') {
      if (!creds?.username || !creds.password) throw this.denied(res, what);
      return `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}`;
    }
    if (challenge?.scheme !== 'bearer' || !challenge.params.realm) {
      throw new NetworkError(`${what}: the registry asks for authentication capiform does not speak (${JSON.stringify(res.headers.get('www-authenticate') ?? '')})`, {
        where: this.location,
      });
    }
    if (creds?.accessToken) return `Bearer ${creds.accessToken}`;
    const realm = new URL(challenge.params.realm, this.ref.base);
    if (realm.protocol !== 'https:' && !(realm.protocol === 'http:' && isLoopbackHost(realm.host))) {
      throw new NetworkError(`${what}: the registry's token service ${this.http.redact(realm.origin)} is not https`, {
        where: this.location,
        hint: 'capiform sends credentials over https only (plain http only to a loopback host); fix the registry\'s token realm',
      });
    }
    if (challenge.params.service) realm.searchParams.set('service', challenge.params.service);
    realm.searchParams.set('scope', challenge.params.scope ?? `repository:${this.ref.repository}:pull`);
    const basic = creds?.username && creds.password ? `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}` : undefined;
    const tokenRes = await this.http.request({
      url: realm.href,
      what: `a token for ${this.location}`,
      service: 'oci',
      loopbackCredentials: true,
      headers: { accept: 'application/json', ...(basic ? { authorization: basic } : {}) },
    });
    if (tokenRes.status !== 200) throw this.denied(tokenRes, `a token for ${this.location}`);
    let token: unknown;
    try {
      if (tokenRes.body.byteLength > maxTokenBytes) throw new Error('too large');
      const body = JSON.parse(new TextDecoder().decode(tokenRes.body)) as { token?: unknown; access_token?: unknown };
      token = body.token ?? body.access_token;
    } catch {
      token = undefined;
    }
    if (typeof token !== 'string' || token === '') {
      throw new NetworkError(`a token for ${this.location}: the token service answered without a token`, { where: this.http.redact(realm.origin) });
    }
    this.http.addSecret(token);
    return `Bearer ${token}`;
  }

  private denied(res: HttpResponse, what: string): NetworkError {
    const creds = this.credentials;
    const docker = dockerConfigPath(this.env);
    const given = creds ? `the credentials from ${creds.source} were refused` : 'no credentials were found';
    return new NetworkError(`${what}: the registry ${this.ref.registry} refused access (${res.status} ${statusText(res.status)}): ${given}`, {
      where: this.location,
      hint: creds
        ? `check the credentials in ${creds.source} and that they may pull ${this.ref.repository}`
        : `set OCI_USERNAME and OCI_PASSWORD (or OCI_ACCESS_TOKEN), or log in with \`docker login ${this.ref.registry}\`${docker ? ` (capiform reads ${docker})` : ''}`,
    });
  }

  private failed(res: HttpResponse, what: string): NetworkError {
    return new NetworkError(`${what}: the registry answered ${res.status} ${statusText(res.status)} ${registryErrorCode(res)}`.trim(), { where: this.location });
  }
}

/** The first error code of a distribution error body (`MANIFEST_UNKNOWN`), or ''. */
function registryErrorCode(res: HttpResponse): string {
  try {
    const body = JSON.parse(new TextDecoder().decode(res.body.subarray(0, 64 * 1024))) as { errors?: { code?: unknown }[] };
    const code = body.errors?.[0]?.code;
    return typeof code === 'string' ? code : '';
  } catch {
    return '';
  }
}

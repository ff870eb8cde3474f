/**
 * `generate cluster --from <url>` and `generate yaml --from <url>` (clusterctl `client/cluster/template.go`
 * `getURLContent`): stdin, GitHub blob and release-asset URLs, other https URLs, and local files, with clusterctl's
 * error texts.
 */
import { statSync, readFileSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { InputError, IntegrityError, NetworkError, ResolutionError } from '../../errors.js';
import { sha256Hex } from '../../cache/index.js';
import { createOctokit, defaultGitHubApiUrl, githubApiUrlFrom, githubFailure } from '../github/client.js';
import { contentFileSchema, releaseSchema } from '../github/schema.js';
import { digestOf } from '../github/repository.js';
import type { HttpClient } from '../http/client.js';
import { parseGoUrl, type GoUrl } from '../../go/index.js';

export interface TemplateSourceOptions {
  http: HttpClient;
  /** Relative local paths resolve against this. */
  cwd: string;
  /** `--from -`. */
  readStdin?: () => Promise<Uint8Array>;
  /** `github-token` / GITHUB_TOKEN. */
  token?: string | undefined;
  /** GitHub API base URL: `GITHUB_API_URL`, else https://api.github.com. */
  githubApiUrl?: string | undefined;
}

export function invalidGitHubUrlMessage(url: string): string {
  return (
    `invalid GitHub url ${JSON.stringify(url)}: a GitHub url should be in on of these the forms\n` +
    '- https://github.com/{owner}/{repository}/blob/{branch}/{path-to-file}\n' +
    '- https://github.com/{owner}/{repository}/releases/download/{tag}/{asset-file-name}'
  );
}

/** The raw bytes of a template source, decoded as UTF-8. */
export async function readTemplateSource(url: string, opts: TemplateSourceOptions): Promise<string> {
  return new TextDecoder().decode(await readTemplateSourceBytes(url, opts));
}

export async function readTemplateSourceBytes(url: string, opts: TemplateSourceOptions): Promise<Uint8Array> {
  if (url === '-') {
    if (!opts.readStdin) throw new InputError('unable to read from stdin');
    return opts.readStdin();
  }
  let u: GoUrl;
  try {
    u = parseGoUrl(url);
  } catch (err) {
    throw new InputError(`failed to parse ${JSON.stringify(url)}: ${(err as Error).message}`);
  }
  if (u.scheme === 'https') {
    if (u.host === 'github.com') return readGitHubContent(url, u, opts);
    return readRawUrl(url, opts);
  }
  if (u.scheme === 'file' || u.scheme === '') return readLocalFile(u.path, opts.cwd);
  throw new InputError(
    `unable to read content from ${JSON.stringify(url)}. Only reading from GitHub and local file system is supported`,
  );
}

/** `getLocalFileContent`. */
export function readLocalFile(path: string, cwd: string): Uint8Array {
  const abs = resolvePath(cwd, path);
  let isDir: boolean;
  try {
    isDir = statSync(abs).isDirectory();
  } catch {
    throw new InputError(`failed to read file ${JSON.stringify(path)}`, { where: abs });
  }
  if (isDir) throw new InputError(`invalid path: file ${JSON.stringify(path)} is actually a directory`, { where: abs });
  return readFileSync(abs);
}

/** `getRawURLFileContent`: a plain GET; anything but 200 → `failed to get file, got <code>`. */
export async function readRawUrl(url: string, opts: Pick<TemplateSourceOptions, 'http'>): Promise<Uint8Array> {
  const res = await opts.http.request({ url, service: 'https', what: url, revalidate: true });
  if (res.status !== 200) throw new NetworkError(`failed to get file, got ${res.status}`, { where: opts.http.redact(url) });
  return res.body;
}

/** `getGitHubFileContent`: blob URLs through the contents API, release-asset URLs through the releases API. */
export async function readGitHubContent(url: string, u: GoUrl, opts: TemplateSourceOptions): Promise<Uint8Array> {
  const parts = u.path.replace(/^\//, '').split('/');
  if (parts.length < 5) throw new InputError(invalidGitHubUrlMessage(url));
  const [owner, repo, kind, fourth] = parts as [string, string, string, string];
  const octokit = createOctokit({
    http: opts.http,
    token: opts.token,
    baseUrl: githubApiUrlFrom({ GITHUB_API_URL: opts.githubApiUrl }) ?? defaultGitHubApiUrl,
  });
  if (kind === 'blob') {
    const path = parts.slice(4).join('/');
    let data: unknown;
    try {
      data = (
        await octokit.rest.repos.getContent({
          owner,
          repo,
          path,
          ref: fourth,
          headers: { 'x-capiform-what': `${path} at ${fourth} of ${owner}/${repo}` },
        })
      ).data;
    } catch (err) {
      const f = githubFailure(err);
      throw new ResolutionError(`failed to get ${JSON.stringify(path)}: ${f.status} ${f.message}`, { where: url });
    }
    const parsed = contentFileSchema.safeParse(data);
    if (!parsed.success || Array.isArray(data)) {
      throw new ResolutionError(`${JSON.stringify(path)} does not return a valid file content`, { where: url });
    }
    if (parsed.data.encoding !== 'base64') {
      throw new ResolutionError(`invalid encoding detected for ${JSON.stringify(path)}. Only base64 encoding supported`, {
        where: url,
      });
    }
    const content = (parsed.data.content ?? '').replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(content) || content.length % 4 !== 0) {
      throw new ResolutionError(`failed to decode file ${JSON.stringify(path)}: illegal base64 data`, { where: url });
    }
    return Buffer.from(content, 'base64');
  }
  if (kind === 'releases' && fourth === 'download' && parts[4] !== undefined && parts[5] !== undefined) {
    const tag = parts[4];
    const assetName = parts[5];
    let data: unknown;
    try {
      data = (await octokit.rest.repos.getReleaseByTag({ owner, repo, tag })).data;
    } catch (err) {
      const f = githubFailure(err);
      throw new ResolutionError(
        `failed to get release '${tag}' from ${owner}/${repo} repository: ${f.status} ${f.message}`,
        { where: url },
      );
    }
    const release = releaseSchema.safeParse(data);
    if (!release.success) throw new ResolutionError(`no release found for ${tag}`, { where: url });
    const asset = release.data.assets.find((a) => a.name === assetName);
    if (!asset) throw new ResolutionError(`failed to get asset ${assetName} from ${owner}/${repo} repository`, { where: url });
    let bytes: Uint8Array;
    try {
      const res = await octokit.request('GET /repos/{owner}/{repo}/releases/assets/{asset_id}', {
        owner,
        repo,
        asset_id: asset.id,
        headers: { accept: 'application/octet-stream', 'x-capiform-what': `${assetName} (${owner}/${repo} ${tag})` },
      });
      const body = res.data as unknown;
      bytes = body instanceof ArrayBuffer ? new Uint8Array(body) : new TextEncoder().encode(String(body));
    } catch (err) {
      const f = githubFailure(err);
      throw new ResolutionError(
        `failed to download asset ${JSON.stringify(assetName)} from ${owner}/${repo} repository: ${f.status} ${f.message}`,
        { where: url },
      );
    }
    const expected = digestOf(asset);
    if (expected && sha256Hex(bytes) !== expected) {
      throw new IntegrityError(
        `digest mismatch for asset ${JSON.stringify(assetName)} of release ${tag} (${owner}/${repo}): GitHub reports sha256 ${expected}, the downloaded bytes have sha256 ${sha256Hex(bytes)}`,
        { where: url },
      );
    }
    return bytes;
  }
  throw new InputError(`unknown github URL: ${url}`);
}

/** clusterctl's GitHub repository URL (`repository_github.go` `NewGitHubRepository`), with its exact errors. */
import { posix } from 'node:path';
import { ResolutionError } from '../../errors.js';
import { parseGoUrl } from '../../go/index.js';

export const githubDomain = 'github.com';

export const githubUrlFormMessage =
  'invalid url: a GitHub repository url should be in the form https://github.com/{owner}/{Repository}/releases/{latest|version-tag}/{componentsClient.yaml}';

export interface GitHubLocation {
  /** `github.com`, or a GitHub Enterprise host when the provider is declared `type: github`. */
  host: string;
  owner: string;
  repository: string;
  /** Segment 4: a tag, or `latest` (resolved by the caller with latestContractRelease). */
  defaultVersion: string;
  /** `dir(path)`: `.` normally. */
  rootPath: string;
  componentsPath: string;
}

/** `getComponentsPath`: path minus the rootPath prefix, leading `/` trimmed. */
export function componentsPathOf(path: string, rootPath: string): string {
  const rest = path.startsWith(rootPath) ? path.slice(rootPath.length) : path;
  return rest.replace(/^\/+/, '');
}

/**
 * Parses `https://github.com/{owner}/{repo}/releases/{latest|tag}/{path…}`. With `anyHost` (an explicit
 * `type: github` provider), any https host is accepted, for GitHub Enterprise.
 */
export function parseGitHubUrl(url: string, opts: { anyHost?: boolean } = {}): GitHubLocation {
  let u;
  try {
    u = parseGoUrl(url);
  } catch (err) {
    throw new ResolutionError(`invalid url: ${(err as Error).message}`, { where: url });
  }
  if (u.scheme !== 'https' || (u.host !== githubDomain && !(opts.anyHost && u.host !== ''))) {
    throw new ResolutionError(`invalid url: a GitHub repository url should start with https://${githubDomain}`, {
      where: url,
    });
  }
  const parts = u.path.replace(/^\//, '').split('/');
  if (parts.length < 5 || parts[2] !== 'releases') {
    throw new ResolutionError(githubUrlFormMessage, { where: url });
  }
  const path = parts.slice(4).join('/');
  const rootPath = posix.dirname(path);
  return {
    host: u.host,
    owner: parts[0]!,
    repository: parts[1]!,
    defaultVersion: parts[3]!,
    rootPath,
    componentsPath: componentsPathOf(path, rootPath),
  };
}

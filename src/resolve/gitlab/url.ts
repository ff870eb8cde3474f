/** clusterctl's GitLab generic-package URL (`repository_gitlab.go` `NewGitLabRepository`), with its exact errors. */
import { ResolutionError } from '../../errors.js';
import { escapedPath, parseGoUrl } from '../../go/index.js';
import { isLoopbackHost } from '../repository-kind.js';

export const gitlabUrlFormMessage =
  'invalid url: a GitLab repository url should be in the form https://{host}/api/v4/projects/{projectSlug}/packages/generic/{packageName}/{defaultVersion}/{componentsPath}';

export interface GitLabLocation {
  /** `https`; `http` only for a loopback host when allowed (a local mirror). */
  scheme: 'https' | 'http';
  host: string;
  /** Project id (`42`) or URL-escaped path (`group%2Fproject`), kept escaped. */
  projectSlug: string;
  packageName: string;
  defaultVersion: string;
  rootPath: '.';
  componentsPath: string;
}

/** `https://{host}/api/v4/projects/{projectSlug}/packages/generic/{packageName}/{defaultVersion}/{componentsPath}`. */
export function parseGitLabUrl(url: string, opts: { loopbackHttp?: boolean } = {}): GitLabLocation {
  let u;
  try {
    u = parseGoUrl(url);
  } catch (err) {
    throw new ResolutionError(`invalid url: ${(err as Error).message}`, { where: url });
  }
  const parts = escapedPath(u).replace(/^\//, '').split('/');
  const scheme = u.scheme === 'http' && opts.loopbackHttp && isLoopbackHost(u.host) ? 'http' : u.scheme === 'https' ? 'https' : null;
  if (
    scheme === null ||
    parts.length !== 9 ||
    parts[0] !== 'api' ||
    parts[1] !== 'v4' ||
    parts[2] !== 'projects' ||
    parts[4] !== 'packages' ||
    parts[5] !== 'generic'
  ) {
    throw new ResolutionError(gitlabUrlFormMessage, {
      where: url,
      ...(u.scheme === 'http'
        ? { hint: `use https://${u.host}…; plain http:// is accepted only for a loopback host (127.0.0.1, localhost) of a provider declared \`type: 'gitlab'\`, and no token is sent over it` }
        : {}),
    });
  }
  return {
    scheme,
    host: u.host,
    projectSlug: parts[3]!,
    packageName: parts[6]!,
    defaultVersion: parts[7]!,
    rootPath: '.',
    componentsPath: parts[8]!,
  };
}

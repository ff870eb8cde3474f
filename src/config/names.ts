/**
 * The grammar of the names a config or flag gives that end up in file names: a flavor picks
 * `cluster-template-<flavor>.yaml` inside a provider release, so it must stay a file-name fragment, and is checked
 * before anything is read (`flavor: '../../x'` would otherwise read a file outside the repository and pin it in the
 * lock). Provider, cluster and namespace names follow Kubernetes/clusterctl (DNS-1123) and are checked by the schema.
 */

/** How a flavor is described in messages and in docs/configuration.md. */
export const flavorGrammar = 'a flavor is the <flavor> in cluster-template-<flavor>.yaml: it cannot contain "/", "\\", ".." or control characters (e.g. "development")';

/** The flavor grammar as one pattern (also the committed JSON Schema's, for editors). */
export const flavorPattern = /^(?!.*\.\.)[^/\\\x00-\x1f\x7f]+$/;

/** Why `flavor` is not a flavor name, or null when it is one. */
export function flavorProblem(flavor: string): string | null {
  if (flavor === '') return 'a flavor cannot be empty (leave it out for cluster-template.yaml)';
  return flavorPattern.test(flavor) ? null : `${JSON.stringify(flavor)} is not a flavor name: ${flavorGrammar}`;
}

/*
 * Argo CD settings end up in other systems: `namePrefix` starts every Application (and ApplicationSet) name, which
 * Argo CD also writes as the value of its tracking label on every resource it deploys; `path` becomes the Applications'
 * `source.path` and git generator paths inside the repository; `repoURL` is what Argo CD clones. Each is checked
 * against what those systems accept before anything is rendered, so a value is refused with its config path instead of
 * being rewritten, rejected at sync time, or pointing outside the repository.
 */

/**
 * Names longer than 63 characters are cut to 54 plus `-` and 8 hex digits of a hash (render/argocd/names.ts): a
 * longer prefix would itself be cut away and every name would differ only by the hash.
 */
export const maxNamePrefixLength = 54;

/** What `argocd.namePrefix` may be: the start of a lowercase RFC 1123 label. */
export const namePrefixGrammar = `the start of an Argo CD Application name, a lowercase RFC 1123 label: a-z, 0-9 and "-", starting with a letter or digit, at most ${maxNamePrefixLength} characters (e.g. "capi-"), or "" for none`;
export const namePrefixPattern = /^([a-z0-9][-a-z0-9]*)?$/;

/** What `argocd.path` may be: a folder inside the repository. */
export const repoPathGrammar = 'a folder inside the git repository, relative to its root, with "/" between names and no "." or ".." parts (e.g. "clusters/prod"), or "" for the root';
export const repoPathPattern = /^((?!\.\.?(\/|$))[^/\\\x00-\x1f\x7f]+\/)*((?!\.\.?$)[^/\\\x00-\x1f\x7f]+)?$/;

/** What `argocd.repoURL` (and `init --argocd`) may be: a URL Argo CD can clone. */
export const repoUrlGrammar = 'a git repository URL Argo CD can clone: scheme://host/path (https://github.com/org/repo.git, ssh://git@host/repo.git) or git@host:org/repo.git, without spaces';
export const repoUrlPattern = /^([a-z][a-z0-9+.-]*:\/\/[^\s/\x00-\x1f\x7f]+(\/[^\s\x00-\x1f\x7f]*)?|[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:[^\s\x00-\x1f\x7f]+)$/;

/** Why `url` is not a repository URL Argo CD can clone, or null when it is one. */
export function repoUrlProblem(url: string): string | null {
  return repoUrlPattern.test(url) ? null : `${JSON.stringify(url)} is not ${repoUrlGrammar}`;
}

/**
 * The grammar of the names a config or flag gives that end up in file names: a flavor picks
 * `cluster-template-<flavor>.yaml` inside a provider release, so it must stay a file-name fragment, and is checked
 * before anything is read (`flavor: '../../x'` would otherwise read a file outside the repository and pin it in the
 * lock). Provider, cluster and namespace names follow Kubernetes/clusterctl (DNS-1123) and are checked by the schema.
 */

/** How a flavor is described in messages and in README "Configuration reference". */
export const flavorGrammar = 'a flavor is the <flavor> in cluster-template-<flavor>.yaml: it cannot contain "/", "\\", ".." or control characters (e.g. "development")';

/** The flavor grammar as one pattern (also the committed JSON Schema's, for editors). */
export const flavorPattern = /^(?!.*\.\.)[^/\\\x00-\x1f\x7f]+$/;

/** Why `flavor` is not a flavor name, or null when it is one. */
export function flavorProblem(flavor: string): string | null {
  if (flavor === '') return 'a flavor cannot be empty (leave it out for cluster-template.yaml)';
  return flavorPattern.test(flavor) ? null : `${JSON.stringify(flavor)} is not a flavor name: ${flavorGrammar}`;
}

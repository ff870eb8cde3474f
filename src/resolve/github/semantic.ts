/**
 * `k8s.io/apimachinery/pkg/util/version.ParseSemantic` as a predicate (src/go/semver.ts): GitHub tags that fail
 * it are not versions (the user can still pin such a release explicitly).
 */
import { tryParseSemantic } from '../../go/index.js';

export function isSemanticVersion(tag: string): boolean {
  return tryParseSemantic(tag) !== null;
}

/**
 * The release a template pin (`clusters[].templateVersion`) names: the lock's version while it still fits, else the
 * highest release of the provider's repository that satisfies the constraint. Only templates are read from it, so no
 * contract is checked: the provider installed stays the one its own entry resolves.
 */
import { ResolutionError } from '../errors.js';
import { npmSemver } from '../config/index.js';
import { constraintRule, settledCandidates } from './candidates.js';
import type { RepositoryRef } from './resolve-config.js';

export interface TemplatePinResolution {
  readonly label: string;
  readonly constraint: string;
  readonly version: string;
  readonly ref: RepositoryRef;
}

/** Resolves one pin; `kept` is the lock's version when it can stay. */
export async function resolveTemplatePin(
  pin: { label: string; constraint: string; configPaths: readonly string[] },
  ref: RepositoryRef,
  kept: string | undefined,
): Promise<TemplatePinResolution> {
  if (kept !== undefined) return { label: pin.label, constraint: pin.constraint, version: kept, ref };
  for await (const v of settledCandidates(ref.repo, constraintRule(pin.constraint))) return { label: pin.label, constraint: pin.constraint, version: v, ref };
  const all = (await ref.repo.listVersions()).filter((v) => npmSemver().valid(v)).sort((a, b) => npmSemver().rcompare(a, b));
  throw new ResolutionError(`${pin.label} (${pin.configPaths.join(', ')}): no release satisfies "${pin.constraint}"; available: ${all.length ? all.slice(0, 12).join(', ') : 'none'}`, {
    where: ref.repo.url,
    hint: 'set templateVersion to a release the repository has',
  });
}

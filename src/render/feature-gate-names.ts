/**
 * `manager.featureGates` names checked against the gates the release's manager knows. k8s.io/component-base's
 * featuregate `Set` refuses a name it has not registered ("unrecognized feature gate"), so the manager exits at
 * start and Argo CD's sync succeeds while the provider never runs. What a release knows is read from the
 * `--feature-gates` default string its manager ships with, not from a list of our own.
 */
import { featureGatesArg, parseFeatureGates } from '../capi/index.js';
import { InputError } from '../errors.js';
import { closestNames } from '../resolve/index.js';
import type { ResolvedProvider } from '../config/index.js';
import type { KubeObject } from './tree/deps.js';
import type { Problem } from './problems.js';
import { asObject as rec } from '../go/index.js';

/**
 * Managers built from kubernetes-sigs/cluster-api register every gate of its `feature` package
 * (`feature.MutableGates.AddFlag` in main.go, bootstrap/kubeadm/main.go, controlplane/kubeadm/main.go,
 * test/infrastructure/docker/main.go), while each one's flag names only some: CAPD knows KubeadmBootstrapFormatIgnition
 * without passing it. Their known gates are what any of them passes.
 */
const capiFeaturePackage: ReadonlySet<string> = new Set(['cluster-api', 'bootstrap-kubeadm', 'control-plane-kubeadm', 'infrastructure-docker']);

/** The gate names the release's `manager` container passes in `--feature-gates`; null: it passes no such flag. */
export function releaseGateNames(objects: readonly KubeObject[]): string[] | null {
  for (const o of objects) {
    if (o.kind !== 'Deployment') continue;
    const containers = rec(rec(rec(o.spec)?.template)?.spec)?.containers;
    const manager = Array.isArray(containers) ? containers.map(rec).find((c) => c?.name === 'manager') : undefined;
    if (!manager) continue;
    const args = Array.isArray(manager.args) ? manager.args.filter((a): a is string => typeof a === 'string') : [];
    const value = featureGatesArg(args);
    if (value !== undefined) return parseFeatureGates(value).map(([name]) => name);
  }
  return null;
}

/**
 * Every `manager.featureGates` name the provider's release does not know: an error (with the gates it knows and a
 * did-you-mean) where the release's list is read, a note where its manager passes no `--feature-gates` (the list is
 * unknown, so nothing is decided). `release` holds each rendered provider's gate names by label.
 */
export function unknownFeatureGates(providers: readonly ResolvedProvider[], release: ReadonlyMap<string, string[] | null>): { problems: Problem[]; notes: string[] } {
  const problems: Problem[] = [];
  const notes: string[] = [];
  const shared = new Set<string>();
  for (const [label, names] of release) if (capiFeaturePackage.has(label)) for (const n of names ?? []) shared.add(n);
  for (const p of providers) {
    const wanted = Object.keys(p.manager?.featureGates ?? {}).sort();
    if (wanted.length === 0 || !release.has(p.label)) continue;
    const own = release.get(p.label) ?? null;
    if (own === null) {
      notes.push(`warning: ${p.label}: its manager passes no --feature-gates, so the gates ${p.configPath}.manager.featureGates names (${wanted.join(', ')}) are not checked against the release; a name it does not know stops the manager at start`);
      continue;
    }
    const known = new Set([...own, ...(capiFeaturePackage.has(p.label) ? shared : [])]);
    for (const gate of wanted) {
      if (known.has(gate)) continue;
      const close = closestNames(gate, known);
      const list = [...known].sort();
      problems.push({
        where: `${p.configPath}.manager.featureGates.${gate}`,
        error: new InputError(`${p.label}: the release's manager does not know the feature gate "${gate}": it would exit at start (unrecognized feature gate: ${gate})`, {
          where: `${p.configPath}.manager.featureGates.${gate}`,
          hint: `${close.length > 0 ? `did you mean ${close.join(' or ')}? ` : ''}the gates its --feature-gates default names: ${list.join(', ')}`,
        }),
      });
    }
  }
  return { problems, notes };
}

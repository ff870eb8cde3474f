/**
 * clusterctl's template file names (`simple_processor.go` GetTemplateName / GetClusterClassTemplateName). The one
 * place a flavor or a ClusterClass name becomes a file name, so the last check that it cannot leave the release
 * folder lives here too (configs and flags are checked earlier, with the config path or flag in the message).
 */
import { flavorProblem } from '../config/index.js';
import { InputError } from '../errors.js';
import { isDNS1123Subdomain } from '../resolve/index.js';

/** `cluster-template.yaml`, or `cluster-template-<flavor>.yaml` for a non-empty flavor. */
export function templateFileName(flavor?: string): string {
  if (!flavor) return 'cluster-template.yaml';
  const problem = flavorProblem(flavor);
  if (problem) throw new InputError(problem, { hint: 'use a flavor the provider release ships, e.g. "development"' }, 'E_FLAVOR');
  return `cluster-template-${flavor}.yaml`;
}

/** `clusterclass-<name>.yaml`; the name is a Kubernetes object name (it comes from a template's topology.class). */
export function clusterClassFileName(name: string): string {
  const errs = isDNS1123Subdomain(name);
  if (errs.length > 0) {
    throw new InputError(`ClusterClass name ${JSON.stringify(name)} is not valid: ${errs.join('; ')}`, {
      hint: 'spec.topology.class (or the variable that sets it) must name a ClusterClass, e.g. "quick-start"',
    }, 'E_CLUSTERCLASS_NAME');
  }
  return `clusterclass-${name}.yaml`;
}

/** A cluster template (`cluster-template[-<flavor>].yaml`) or ClusterClass (`clusterclass-<name>.yaml`) file of a release. */
export function isTemplateFileName(name: string): boolean {
  return /^(cluster-template(-.+)?|clusterclass-.+)\.yaml$/.test(name);
}

/**
 * The line a pinned cluster's `cluster.yaml` carries under the generated header, so the tree itself says which release
 * its objects come from (`diff` reads it back on both sides).
 */
export function templatePinNote(label: string, version: string, constraint: string): string {
  return `# templates: ${label} ${version} (templateVersion ${JSON.stringify(constraint)})`;
}

/** The release a rendered `cluster.yaml` names in its template pin line, if it has one. */
export function templatePinOf(text: string): { label: string; version: string; constraint: string } | undefined {
  const m = /^# templates: (\S+) (\S+) \(templateVersion "([^"\n]*)"\)$/m.exec(text.slice(0, 512));
  return m ? { label: m[1]!, version: m[2]!, constraint: m[3]! } : undefined;
}

/**
 * The checks CAPI's ClusterClass webhook (`internal/webhooks/clusterclass.go` `validate`) runs on a class by itself:
 * its variable definitions, its naming templates and its patches. A class that fails them is refused by the
 * management cluster, whatever Cluster uses it, so the engine reports it once per class, in the webhook's words.
 */
import type { KubeObject } from '../yaml/index.js';
import { type FieldError, fieldError } from '../apiextensions/index.js';
import { namingTemplateErrors, type NamedObject } from './names/index.js';
import { aggregateMessage, validatePatches } from './patches/index.js';
import { type ClusterClassVariable, validateClusterClassVariables } from './variables/index.js';
import { isObject as isObj } from '../go/index.js';

type Obj = Record<string, unknown>;

const objects = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);

function namingTemplateOf(holder: unknown): string {
  const naming = isObj(holder) ? holder.naming : undefined;
  return isObj(naming) && typeof naming.template === 'string' ? naming.template : '';
}

/** `validateNamingStrategies`: each naming template renders, for cluster `cluster`, to a DNS-1123 subdomain. */
function namingErrors(spec: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const check = (object: NamedObject, holder: unknown, path: string): void => {
    const template = namingTemplateOf(holder);
    if (template === '') return;
    for (const detail of namingTemplateErrors(object, template)) errs.push(fieldError('FieldValueInvalid', path, template, detail));
  };
  check('infrastructureCluster', spec.infrastructure, 'spec.infrastructure.naming.template');
  check('controlPlane', spec.controlPlane, 'spec.controlPlane.naming.template');
  const workers = isObj(spec.workers) ? spec.workers : {};
  objects(workers.machineDeployments).forEach((md) => check('machineDeployment', md, `spec.workers.machineDeployments[${String(md.class ?? '')}].naming.template`));
  objects(workers.machinePools).forEach((mp) => check('machinePool', mp, `spec.workers.machinePools[${String(mp.class ?? '')}].naming.template`));
  return errs;
}

/**
 * Every reason the ClusterClass webhook would refuse `clusterClass` (in the v1beta2 shape), as field errors in
 * the webhook's order: naming templates, variables, patches. The checks of template references, rollout and
 * health checks are not repeated here: the expansion reports what it cannot use.
 */
export function clusterClassWebhookErrors(clusterClass: KubeObject): FieldError[] {
  const spec = isObj(clusterClass.spec) ? clusterClass.spec : {};
  const variables = objects(spec.variables) as unknown as ClusterClassVariable[];
  return [...namingErrors(spec), ...validateClusterClassVariables(undefined, variables, 'spec.variables'), ...validatePatches(clusterClass as Obj as Parameters<typeof validatePatches>[0])];
}

/** `apierrors.NewInvalid(ClusterClass, name, errs).Error()`. */
export function clusterClassInvalidMessage(name: string, errors: readonly FieldError[]): string {
  return `ClusterClass.cluster.x-k8s.io ${JSON.stringify(name)} is invalid: ${aggregateMessage(errors.map((e) => e.message))}`;
}

/**
 * What Cluster API's defaulting webhooks add to an object before the API server checks it against its CRD. Mutating
 * admission runs between decoding and schema validation, so a field the webhook always fills is never missing when
 * the schema is checked: clusterctl's own templates leave a MachineDeployment's `spec.selector` out for this reason.
 * Only what changes the outcome of a schema check is modelled (core `webhooks/admission` of cluster-api, v1.11+).
 */
import { isRecord } from './findings.js';

const coreGroup = 'cluster.x-k8s.io';
const clusterNameLabel = 'cluster.x-k8s.io/cluster-name';
/** The label each kind's webhook selects its own machines by when the object names no selector. */
const ownNameLabel: Readonly<Record<string, string>> = {
  MachineDeployment: 'cluster.x-k8s.io/deployment-name',
  // The webhook hashes names longer than 63 characters; the value does not matter to the schema.
  MachineSet: 'cluster.x-k8s.io/set-name',
};

/** The object as CAPI's defaulting webhook hands it on, or the object itself when no webhook changes it. */
export function withCapiWebhookDefaults(object: Record<string, unknown>, apiVersion: string, kind: string): Record<string, unknown> {
  const label = ownNameLabel[kind];
  if (!label || !apiVersion.startsWith(`${coreGroup}/`) || !isRecord(object.spec)) return object;
  const spec = { ...object.spec };
  const meta = isRecord(object.metadata) ? object.metadata : {};
  const name = typeof meta.name === 'string' ? meta.name : '';
  const clusterName = typeof spec.clusterName === 'string' ? spec.clusterName : '';
  const selector = isRecord(spec.selector) ? { ...spec.selector } : {};
  const matchLabels: Record<string, unknown> = isRecord(selector.matchLabels) ? { ...selector.matchLabels } : {};
  const template = isRecord(spec.template) ? { ...spec.template } : {};
  const templateMeta = isRecord(template.metadata) ? { ...template.metadata } : {};
  const templateLabels: Record<string, unknown> = isRecord(templateMeta.labels) ? { ...templateMeta.labels } : {};
  const expressions = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [];
  if (Object.keys(matchLabels).length === 0 && expressions.length === 0) {
    matchLabels[label] = name;
    templateLabels[label] = name;
  }
  matchLabels[clusterNameLabel] = clusterName;
  templateLabels[clusterNameLabel] = clusterName;
  selector.matchLabels = matchLabels;
  templateMeta.labels = templateLabels;
  template.metadata = templateMeta;
  spec.selector = selector;
  spec.template = template;
  return { ...object, spec };
}

/**
 * Cluster API Provider Azure (CAPZ)'s validating webhooks, the part decidable offline. Each webhook names the file in
 * kubernetes-sigs/cluster-api-provider-azure at the releases the corpus locks (v1.25.1, v1.26.0). The defaulting a
 * check depends on (a default resource group) is applied first, as the API server does.
 */
import { at, clone, defined, rec, refuse, same, setDefault, str, recreateHint, type Webhook, type WebhookError } from './webhook-fields.js';

type Obj = Record<string, unknown>;

const infra = 'infrastructure.cluster.x-k8s.io';
const capz = 'kubernetes-sigs/cluster-api-provider-azure';

// ---------------------------------------------------------------------------------------------------------------
// AzureCluster (cluster-api-provider-azure internal/webhooks/azurecluster_webhook.go, v1.25.1 and v1.26.0).

/**
 * `webhookutils.ValidateImmutable` (util/webhook/validator.go): changed, newly set and newly unset are refused. `zero`
 * is Go's zero value of the field's type (`reflect.Value.IsZero`), by default an unset or empty value; `unset` is how an
 * absent new value prints (`""` for a string, `null` for a pointer).
 */
export function immutable(
  rule: string,
  path: string,
  oldValue: unknown,
  newValue: unknown,
  hint?: string,
  zero: (v: unknown) => boolean = (v) => !defined(v),
  unset: unknown = '',
): WebhookError[] {
  if (!zero(oldValue)) {
    if (zero(newValue)) return [refuse(rule, 'FieldValueInvalid', path, newValue ?? unset, 'field is immutable, unable to set an empty value if it was already set', hint)];
    if (!same(oldValue, newValue)) return [refuse(rule, 'FieldValueInvalid', path, newValue, 'field is immutable', hint)];
  } else if (!zero(newValue)) return [refuse(rule, 'FieldValueInvalid', path, newValue, 'field is immutable, unable to assign a value if it was already empty', hint)];
  return [];
}

/** The AzureCluster defaulting the update checks read (internal/api/v1beta1/azurecluster_default.go). */
function azureClusterDefaults(input: Obj): Obj {
  const o = clone(input);
  if (typeof o.spec === 'object' && o.spec !== null) {
    setDefault(o, 'spec.resourceGroup', str(at(o, 'metadata.name')) ?? '');
    setDefault(o, 'spec.azureEnvironment', 'AzurePublicCloud');
  }
  return o;
}

/** `EnsureStringSlicesAreEquivalent`: the same strings in any order. */
function sameStrings(a: unknown, b: unknown): boolean {
  const x = (Array.isArray(a) ? a : []).map(String).sort();
  const y = (Array.isArray(b) ? b : []).map(String).sort();
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

function azureClusterUpdate(before: Obj, after: Obj): WebhookError[] {
  const out: WebhookError[] = [];
  const b = rec(before.spec);
  const a = rec(after.spec);
  out.push(...immutable('webhook/AzureCluster.resource-group-immutable', 'spec.resourceGroup', b.resourceGroup, a.resourceGroup, recreateHint('the resource group')));
  out.push(...immutable('webhook/AzureCluster.subscription-immutable', 'spec.subscriptionID', b.subscriptionID, a.subscriptionID, recreateHint('the subscription')));
  out.push(...immutable('webhook/AzureCluster.location-immutable', 'spec.location', b.location, a.location, recreateHint('the Azure location')));
  const oldHost = str(at(b, 'controlPlaneEndpoint.host')) ?? '';
  const newHost = str(at(a, 'controlPlaneEndpoint.host')) ?? '';
  if (oldHost !== '' && oldHost !== newHost) out.push(refuse('webhook/AzureCluster.endpoint-immutable', 'FieldValueInvalid', 'spec.controlPlaneEndpoint.host', newHost, 'field is immutable'));
  const oldPort = at(b, 'controlPlaneEndpoint.port') ?? 0;
  const newPort = at(a, 'controlPlaneEndpoint.port') ?? 0;
  if (oldPort !== 0 && oldPort !== newPort) out.push(refuse('webhook/AzureCluster.endpoint-immutable', 'FieldValueInvalid', 'spec.controlPlaneEndpoint.port', newPort, 'field is immutable'));
  if ((str(b.azureEnvironment) ?? '') !== (str(a.azureEnvironment) ?? '')) {
    out.push(refuse('webhook/AzureCluster.environment-immutable', 'FieldValueInvalid', 'spec.azureEnvironment', str(a.azureEnvironment) ?? '', 'field is immutable'));
  }
  for (const f of ['privateDNSZoneName', 'privateDNSZoneResourceGroup', 'privateDNSZone']) {
    out.push(...immutable('webhook/AzureCluster.private-dns-zone-immutable', `spec.networkSpec.${f}`, at(b, `networkSpec.${f}`), at(a, `networkSpec.${f}`)));
  }
  const oldBastion = at(b, 'bastionSpec.azureBastion');
  if (oldBastion !== undefined && oldBastion !== null && !same(oldBastion, at(a, 'bastionSpec.azureBastion'))) {
    out.push(refuse('webhook/AzureCluster.bastion', 'FieldValueInvalid', 'spec.bastionSpec.azureBastion', at(a, 'bastionSpec.azureBastion') ?? null, 'azure bastion cannot be removed from a cluster'));
  }
  for (const lb of ['apiServerLB', 'nodeOutboundLB', 'controlPlaneOutboundLB']) {
    const o = at(b, `networkSpec.${lb}`);
    const n = at(a, `networkSpec.${lb}`);
    if (o === undefined || o === null || n === undefined || n === null) continue;
    if (!sameStrings(rec(o).availabilityZones, rec(n).availabilityZones)) {
      out.push(refuse('webhook/AzureCluster.availability-zones-immutable', 'FieldValueInvalid', `spec.networkSpec.${lb}.availabilityZones`, rec(n).availabilityZones ?? null, 'field is immutable'));
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// AzureClusterIdentity (cluster-api-provider-azure internal/webhooks/azureclusteridentity_webhook.go and
// azureclusteridentity_validation.go, v1.25.1 and v1.26.0).

function azureClusterIdentityCreate(o: Obj): WebhookError[] {
  const spec = rec(o.spec);
  const type = str(spec.type) ?? '';
  const out: WebhookError[] = [];
  const rule = 'webhook/AzureClusterIdentity.type-fields';
  const resourceID = str(spec.resourceID) ?? '';
  if (type !== 'UserAssignedMSI' && resourceID !== '') out.push(refuse(rule, 'FieldValueForbidden', 'spec.resourceID', '', resourceID, 'resourceID is read only with type UserAssignedMSI: drop it, or set the type'));
  const path = str(spec.userAssignedIdentityCredentialsPath) ?? '';
  const cloud = str(spec.userAssignedIdentityCredentialsCloudType) ?? '';
  if (type !== 'UserAssignedIdentityCredential' && (path !== '' || cloud !== '')) {
    const hint = 'these are read only with type UserAssignedIdentityCredential: drop them, or set the type';
    out.push(refuse(rule, 'FieldValueForbidden', 'spec.userAssignedIdentityCredentialsPath', '', `${path} can only be set when AzureClusterIdentity is of type UserAssignedIdentityCredential`, hint));
    // Upstream's message ends in a space here.
    out.push(refuse(rule, 'FieldValueForbidden', 'spec.userAssignedIdentityCredentialsCloudType', '', `${cloud} can only be set when AzureClusterIdentity is of type UserAssignedIdentityCredential `, hint));
  }
  return out;
}

/** The type cannot change (reported at `Spec.Type`, as upstream writes the path). */
const azureClusterIdentityUpdate = (before: Obj, after: Obj): WebhookError[] =>
  immutable('webhook/AzureClusterIdentity.type-immutable', 'Spec.Type', at(before, 'spec.type'), at(after, 'spec.type'), 'the identity type cannot change: create a new AzureClusterIdentity and point the clusters at it');

export const capzWebhooks: readonly Webhook[] = [
  { group: infra, kind: 'AzureCluster', source: `${capz} internal/webhooks/azurecluster_webhook.go (v1.25.1, v1.26.0)`, defaults: azureClusterDefaults, create: (): WebhookError[] => [], update: azureClusterUpdate },
  {
    group: infra,
    kind: 'AzureClusterIdentity',
    source: `${capz} internal/webhooks/azureclusteridentity_webhook.go, azureclusteridentity_validation.go (v1.25.1, v1.26.0)`,
    defaults: (o: Obj): Obj => o,
    create: azureClusterIdentityCreate,
    update: azureClusterIdentityUpdate,
  },
];

/**
 * The infrastructure providers' validating webhooks, the part decidable offline and most often hit: fields a cluster
 * cannot change once created (region, location, subscription, resource group, endpoint, load balancer scheme and
 * availability zones) and machine template fields the webhook refuses on create. Each webhook names the provider's
 * file at the release the corpus locks (the newest; where the older locked release differs, its comment says so).
 * The defaulting a check depends on (a default resource group, load balancer scheme) is applied first, as the API
 * server does.
 */
import { capvWebhooks } from './capv-webhooks.js';
import { at, defined, rec, refuse, str, type Webhook, type WebhookError } from './webhook-fields.js';

type Obj = Record<string, unknown>;

const infra = 'infrastructure.cluster.x-k8s.io';
const capa = 'kubernetes-sigs/cluster-api-provider-aws';
const capz = 'kubernetes-sigs/cluster-api-provider-azure';

const none = (): WebhookError[] => [];
const clone = (o: Obj): Obj => structuredClone(o);

function setDefault(o: Obj, path: string, value: unknown): void {
  const keys = path.split('.');
  let cur = o;
  for (const k of keys.slice(0, -1)) {
    const next = cur[k];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) cur[k] = {};
    cur = cur[k] as Obj;
  }
  const last = keys[keys.length - 1] as string;
  if (cur[last] === undefined || cur[last] === null || cur[last] === '') cur[last] = value;
}

/** JSON equality of two decoded values (Go's `cmp.Equal`/`reflect.DeepEqual` of the typed fields). */
function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
}

function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (typeof v === 'object' && v !== null) {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sorted((v as Obj)[k])]),
    );
  }
  return v;
}

const recreateHint = (what: string): string => `${what} cannot change on an existing cluster: keep the old value, or create a new cluster under another name`;

// ---------------------------------------------------------------------------------------------------------------
// AWSCluster (cluster-api-provider-aws webhooks/awscluster_webhook.go at v2.11.1; api/v1beta2/awscluster_webhook.go
// in v2.10, with the same update rules).

const externallyManaged = 'cluster.x-k8s.io/managed-by';

/** `SetDefaults_AWSClusterSpec` and the CRD default of the scheme, as far as the update checks read them. */
function awsClusterDefaults(input: Obj): Obj {
  const o = clone(input);
  const spec = rec(o.spec);
  if (!defined(spec.controlPlaneLoadBalancer)) spec.controlPlaneLoadBalancer = { scheme: 'internet-facing' };
  setDefault(o, 'spec.controlPlaneLoadBalancer.loadBalancerType', 'classic');
  setDefault(o, 'spec.controlPlaneLoadBalancer.scheme', 'internet-facing');
  if (defined(spec.secondaryControlPlaneLoadBalancer)) {
    setDefault(o, 'spec.secondaryControlPlaneLoadBalancer.loadBalancerType', 'nlb');
    setDefault(o, 'spec.secondaryControlPlaneLoadBalancer.scheme', 'internal');
  }
  return o;
}

function awsLoadBalancerUpdate(oldLB: unknown, newLB: unknown): WebhookError[] {
  const out: WebhookError[] = [];
  const rule = 'webhook/AWSCluster.load-balancer-immutable';
  // Upstream reports the secondary load balancer at the primary's paths too.
  const p = 'spec.controlPlaneLoadBalancer';
  const n = rec(newLB);
  if (oldLB === undefined || oldLB === null) {
    const scheme = str(n.scheme);
    if (scheme !== undefined && scheme !== 'internet-facing') out.push(refuse(rule, 'FieldValueInvalid', `${p}.scheme`, scheme, 'field is immutable, default value was set to internet-facing'));
    return out;
  }
  const o = rec(oldLB);
  if ((o.loadBalancerType === 'disabled') !== (n.loadBalancerType === 'disabled')) {
    out.push(refuse(rule, 'FieldValueInvalid', `${p}.type`, n.scheme ?? null, 'field is immutable when created of disabled type'));
  }
  if (!same(o.scheme, n.scheme)) out.push(refuse(rule, 'FieldValueInvalid', `${p}.scheme`, n.scheme ?? null, 'field is immutable', 'the load balancer scheme cannot change: keep it, or create a new cluster'));
  if (!same(o.name, n.name)) out.push(refuse(rule, 'FieldValueInvalid', `${p}.name`, n.name ?? null, 'field is immutable'));
  if (o.loadBalancerType !== 'classic' && !same(o.healthCheckProtocol, n.healthCheckProtocol)) {
    out.push(refuse(rule, 'FieldValueInvalid', `${p}.healthCheckProtocol`, n.healthCheckProtocol ?? null, 'field is immutable once set'));
  }
  if (!same(o.targetGroupIPType, n.targetGroupIPType)) out.push(refuse(rule, 'FieldValueForbidden', `${p}.targetGroupIPType`, '', 'field is immutable and cannot be changed after target group creation'));
  return out;
}

function awsClusterUpdate(before: Obj, after: Obj): WebhookError[] {
  const out: WebhookError[] = [];
  const b = rec(before.spec);
  const a = rec(after.spec);
  if ((str(b.region) ?? '') !== (str(a.region) ?? '')) {
    out.push(refuse('webhook/AWSCluster.region-immutable', 'FieldValueInvalid', 'spec.region', str(a.region) ?? '', 'field is immutable', recreateHint('the AWS region')));
  }
  out.push(...awsLoadBalancerUpdate(b.controlPlaneLoadBalancer, a.controlPlaneLoadBalancer));
  if (defined(b.secondaryControlPlaneLoadBalancer) || defined(a.secondaryControlPlaneLoadBalancer)) {
    out.push(...awsLoadBalancerUpdate(defined(b.secondaryControlPlaneLoadBalancer) ? b.secondaryControlPlaneLoadBalancer : undefined, a.secondaryControlPlaneLoadBalancer));
  }
  if (defined(b.controlPlaneEndpoint) && !same(rec(b.controlPlaneEndpoint), rec(a.controlPlaneEndpoint))) {
    out.push(refuse('webhook/AWSCluster.endpoint-immutable', 'FieldValueInvalid', 'spec.controlPlaneEndpoint', { host: str(at(a, 'controlPlaneEndpoint.host')) ?? '', port: at(a, 'controlPlaneEndpoint.port') ?? 0 }, 'field is immutable'));
  }
  const oldVpc = str(at(b, 'network.vpc.id')) ?? '';
  if (oldVpc !== '' && oldVpc !== (str(at(a, 'network.vpc.id')) ?? '')) {
    out.push(refuse('webhook/AWSCluster.vpc-immutable', 'FieldValueInvalid', 'spec.network.vpc.id', str(at(a, 'network.vpc.id')) ?? '', 'field cannot be modified once set', 'a cluster cannot move to another VPC: keep spec.network.vpc.id'));
  }
  const annotations = (o: Obj): Obj => rec(at(o, 'metadata.annotations'));
  if (externallyManaged in annotations(before) && !(externallyManaged in annotations(after))) {
    out.push(refuse('webhook/AWSCluster.externally-managed', 'FieldValueInvalid', 'metadata.annotations', at(after, 'metadata.annotations') ?? null, 'removal of externally managed annotation is not allowed', `keep the ${externallyManaged} annotation`));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// AzureCluster (cluster-api-provider-azure internal/webhooks/azurecluster_webhook.go, v1.25.1 and v1.26.0).

/** `webhookutils.ValidateImmutable` (util/webhook/validator.go): changed, newly set and newly unset are refused. */
function immutable(rule: string, path: string, oldValue: unknown, newValue: unknown, hint?: string): WebhookError[] {
  const zero = (v: unknown): boolean => !defined(v);
  if (!zero(oldValue)) {
    if (zero(newValue)) return [refuse(rule, 'FieldValueInvalid', path, newValue ?? '', 'field is immutable, unable to set an empty value if it was already set', hint)];
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

export const providerWebhooks: readonly Webhook[] = [
  { group: infra, kind: 'AWSCluster', source: `${capa} webhooks/awscluster_webhook.go (v2.11.1; api/v1beta2/awscluster_webhook.go in v2.10.3)`, defaults: awsClusterDefaults, create: none, update: awsClusterUpdate },
  { group: infra, kind: 'AzureCluster', source: `${capz} internal/webhooks/azurecluster_webhook.go (v1.25.1, v1.26.0)`, defaults: azureClusterDefaults, create: none, update: azureClusterUpdate },
  ...capvWebhooks,
];

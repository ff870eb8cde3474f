/**
 * Cluster API Provider AWS (CAPA)'s validating webhooks, the part decidable offline. Each webhook names the file in
 * kubernetes-sigs/cluster-api-provider-aws at the releases the corpus locks (v2.11.1 moved the webhooks from
 * api/v1beta2 to webhooks/; where v2.10.3 differs, the comment says so). The defaulting a check depends on is
 * applied first, as the API server does.
 */
import { at, clone, defined, rec, refuse, same, setDefault, str, recreateHint, type Webhook, type WebhookError } from './webhook-fields.js';

type Obj = Record<string, unknown>;

const infra = 'infrastructure.cluster.x-k8s.io';
const capa = 'kubernetes-sigs/cluster-api-provider-aws';

const none = (): WebhookError[] => [];

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

export const capaWebhooks: readonly Webhook[] = [
  { group: infra, kind: 'AWSCluster', source: `${capa} webhooks/awscluster_webhook.go (v2.11.1; api/v1beta2/awscluster_webhook.go in v2.10.3)`, defaults: awsClusterDefaults, create: none, update: awsClusterUpdate },
];

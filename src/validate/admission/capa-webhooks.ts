/**
 * Cluster API Provider AWS (CAPA)'s validating webhooks, the part decidable offline. Each webhook names the file in
 * kubernetes-sigs/cluster-api-provider-aws at the releases the corpus locks (v2.11.1 moved the webhooks from
 * api/v1beta2 to webhooks/; where v2.10.3 differs, the comment says so). The defaulting a check depends on is
 * applied first, as the API server does.
 */
import { parseGoUrl } from '../../go/index.js';
import { parseCIDR, parseIP } from '../../apiextensions/index.js';
import { dns1123SubdomainErrors } from '../../topology/index.js';
import { at, clone, defined, rec, refuse, same, setDefault, str, recreateHint, withoutFields, type Webhook, type WebhookError } from './webhook-fields.js';

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

// ---------------------------------------------------------------------------------------------------------------
// AWSMachine and AWSMachineTemplate (cluster-api-provider-aws webhooks/awsmachine_webhook.go,
// webhooks/awsmachinetemplate_webhook.go and webhooks/sshkeyname.go at v2.11.1; api/v1beta2/ in v2.10.3, where the
// template lacks the "dynamicHostAllocation needs hostAffinity host" check). The BootstrapFormatIgnition gate check
// is the feature gates' rule (feature-gates.ts). The AWSMachineTemplate update rule is template-immutability.ts.

/** `sshKeyValidNameRegex`: printable ASCII, not starting or ending in whitespace. */
const sshKeyValidName = /^[\x21-\x7e]+([\x20-\x7e]*[\x21-\x7e]+)*$/;
const provisionedVolumeTypes = ['io1', 'io2'];
const tagValue = /^[a-zA-Z0-9\s_.:=+\-@/]*$/;
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function sshKeyName(spec: Obj): WebhookError[] {
  const name = str(spec.sshKeyName);
  if (name === undefined || name === '' || sshKeyValidName.test(name)) return [];
  // Upstream reports it at `sshKeyName`, without the spec prefix.
  return [refuse('webhook/AWSMachine.ssh-key-name', 'FieldValueInvalid', 'sshKeyName', name, 'Name is invalid. Must be specified in ASCII and must not start or end in whitespace', 'use the EC2 key pair name exactly, in ASCII and without leading or trailing spaces')];
}

/** `Tags.Validate` (api/v1beta2/tags.go); Go walks the map in random order, capiform in key order. */
function additionalTags(spec: Obj): WebhookError[] {
  const tags = rec(spec.additionalTags);
  const out: WebhookError[] = [];
  const rule = 'webhook/AWSMachine.additional-tags';
  const p = 'spec.additionalTags';
  for (const k of Object.keys(tags).sort()) {
    const v = String(tags[k] ?? '');
    if (k.length < 1) out.push(refuse(rule, 'FieldValueInvalid', p, k, 'key cannot be empty'));
    if (k.length > 128) out.push(refuse(rule, 'FieldValueInvalid', p, k, 'key cannot be longer than 128 characters'));
    if (v.length > 256) out.push(refuse(rule, 'FieldValueInvalid', p, v, 'value cannot be longer than 256 characters'));
    if (k.length > 3 && k.startsWith('aws:')) out.push(refuse(rule, 'FieldValueInvalid', p, k, "user created tag's key cannot have prefix aws:"));
    if (!tagValue.test(k)) out.push(refuse(rule, 'FieldValueInvalid', p, k, 'key cannot have characters other than alphabets, numbers, spaces and _ . : / = + - @ .'));
    if (!tagValue.test(v)) out.push(refuse(rule, 'FieldValueInvalid', p, v, 'value cannot have characters other than alphabets, numbers, spaces and _ . : / = + - @ .'));
  }
  if (Object.keys(tags).length > 50) out.push(refuse(rule, 'FieldValueInvalid', p, tags, 'user created tags cannot be more than 50'));
  return out;
}

function additionalSecurityGroups(spec: Obj, p: string): WebhookError[] {
  return arr(spec.additionalSecurityGroups)
    .filter((g) => arr(rec(g).filters).length > 0 && rec(g).id !== undefined && rec(g).id !== null)
    .map(() => refuse('webhook/AWSMachine.additional-security-groups', 'FieldValueForbidden', `${p}.additionalSecurityGroups`, '', 'only one of ID or Filters may be specified, specifying both is forbidden', 'give each additional security group either an id or filters'));
}

function cloudInitSecret(spec: Obj, p: string): WebhookError[] {
  const ci = rec(spec.cloudInit);
  const rule = 'webhook/AWSMachine.cloud-init';
  const out: WebhookError[] = [];
  const prefix = str(ci.secretPrefix) ?? '';
  const count = typeof ci.secretCount === 'number' ? ci.secretCount : 0;
  if (ci.insecureSkipSecretsManager === true) {
    const why = `cannot be set if ${p}.cloudInit.insecureSkipSecretsManager is true`;
    if (prefix !== '') out.push(refuse(rule, 'FieldValueForbidden', `${p}.cloudInit.secretPrefix`, '', why));
    if (count !== 0) out.push(refuse(rule, 'FieldValueForbidden', `${p}.cloudInit.secretCount`, '', why));
    if ((str(ci.secureSecretsBackend) ?? '') !== '') out.push(refuse(rule, 'FieldValueForbidden', `${p}.cloudInit.secureSecretsBackend`, '', why));
  }
  if ((prefix !== '') !== (count !== 0)) out.push(refuse(rule, 'FieldValueForbidden', `${p}.cloudInit.secretCount`, '', `must be set together with ${p}.CloudInit.SecretPrefix`));
  return out;
}

function cloudInitConfigured(spec: Obj): boolean {
  const ci = rec(spec.cloudInit);
  return (str(ci.secretPrefix) ?? '') !== '' || (typeof ci.secretCount === 'number' && ci.secretCount !== 0) || (str(ci.secureSecretsBackend) ?? '') !== '' || ci.insecureSkipSecretsManager === true;
}

const urlInvalid = (u: string): boolean => {
  try {
    parseGoUrl(u);
    return false;
  } catch {
    return true;
  }
};

/** The Ignition checks of AWSMachine (the template checks only the cloud-init conflict). */
function ignition(spec: Obj): WebhookError[] {
  if (spec.ignition === undefined || spec.ignition === null) return [];
  const ign = rec(spec.ignition);
  const rule = 'webhook/AWSMachine.ignition';
  const out: WebhookError[] = [];
  if (cloudInitConfigured(spec)) out.push(refuse(rule, 'FieldValueForbidden', 'spec.cloudInit', '', 'cannot be set if spec.ignition is set', 'drop spec.cloudInit: Ignition machines do not read it'));
  const old = ign.version === '2.3' || ign.version === '3.0';
  const proxy = ign.proxy === undefined || ign.proxy === null ? undefined : rec(ign.proxy);
  const tls = ign.tls === undefined || ign.tls === null ? undefined : rec(ign.tls);
  if (old && proxy) out.push(refuse(rule, 'FieldValueForbidden', 'spec.ignition.proxy', '', 'cannot be set if spec.ignition.version is 2.3 or 3.0', 'set spec.ignition.version to 3.1 or later'));
  if (old && tls) out.push(refuse(rule, 'FieldValueForbidden', 'spec.ignition.tls', '', 'cannot be set if spec.ignition.version is 2.3 or 3.0', 'set spec.ignition.version to 3.1 or later'));
  if (proxy) {
    for (const f of ['httpProxy', 'httpsProxy']) {
      const u = str(proxy[f]);
      if (u !== undefined && urlInvalid(u)) out.push(refuse(rule, 'FieldValueInvalid', `spec.ignition.proxy.${f}`, u, 'invalid URL'));
    }
    for (const raw of arr(proxy.noProxy)) {
      let n = String(raw);
      if (n === '*' || parseIP(n) || parseCIDR(n) || splitsHostPort(n)) continue;
      if (n.startsWith('.')) n = n.slice(1);
      const errs = dns1123SubdomainErrors(n);
      if (errs.length > 0) out.push(refuse(rule, 'FieldValueInvalid', 'spec.ignition.proxy.noProxy', n, `invalid noProxy value, please refer to the field documentation: ${errs.join('; ')}`));
    }
  }
  if (tls) {
    for (const source of arr(tls.caSources).map(String)) {
      let scheme = '';
      let opaque = '';
      try {
        const u = parseGoUrl(source);
        scheme = u.scheme;
        opaque = u.opaque;
      } catch {
        out.push(refuse(rule, 'FieldValueInvalid', 'spec.ignition.tls.caSources', source, 'invalid URL'));
      }
      if (['http', 'https', 'tftp', 's3', 'arn', 'gs'].includes(scheme)) continue;
      if (scheme === 'data') {
        const i = opaque.indexOf(',');
        if (i < 0) out.push(refuse(rule, 'FieldValueInvalid', 'spec.ignition.tls.caSources', source, 'invalid data URL'));
        if (!isStdBase64(opaque.slice(i + 1))) out.push(refuse(rule, 'FieldValueInvalid', 'spec.ignition.tls.caSources', source, 'invalid base64 encoding for data url'));
        continue;
      }
      out.push(refuse(rule, 'FieldValueInvalid', 'spec.ignition.tls.caSources', source, 'unsupported URL scheme'));
    }
  }
  return out;
}

/** `net.SplitHostPort` succeeds: `host:port` or `[v6]:port`, one colon outside brackets. */
function splitsHostPort(s: string): boolean {
  if (s.startsWith('[')) return /^\[[^\]]*\]:[^:]*$/.test(s);
  return /^[^:[\]]*:[^:[\]]*$/.test(s);
}

/** `base64.StdEncoding.DecodeString` accepts `s` (padded standard alphabet; newlines are skipped). */
export function isStdBase64(s: string): boolean {
  const t = s.replace(/[\r\n]/g, '');
  return t.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(t);
}

function volumes(spec: Obj, p: string, template: boolean): WebhookError[] {
  const rule = 'webhook/AWSMachine.volumes';
  const out: WebhookError[] = [];
  const iopsHint = "set iops for an 'io1' or 'io2' volume";
  const root = spec.rootVolume === undefined || spec.rootVolume === null ? undefined : rec(spec.rootVolume);
  if (root) {
    if (provisionedVolumeTypes.includes(String(root.type ?? '')) && !root.iops) out.push(refuse(rule, 'FieldValueRequired', `${p}.rootVolume.iops`, '', "iops required if type is 'io1' or 'io2'", iopsHint));
    if (typeof root.throughput === 'number') {
      if (root.type !== 'gp3') out.push(refuse(rule, 'FieldValueRequired', `${p}.rootVolume.throughput`, '', "throughput is valid only for type 'gp3'"));
      if (template) {
        if (root.throughput < 0) out.push(refuse(rule, 'FieldValueRequired', `${p}.rootVolume.throughput`, '', 'throughput must be nonnegative'));
      } else if (root.throughput < 125 || root.throughput > 2000) {
        // Upstream names the launch template's path here.
        out.push(refuse(rule, 'FieldValueRequired', 'spec.awsLaunchTemplate.rootVolume.throughput', '', 'throughput must be between 125 Mib/s and 2000 MiB/s'));
      }
    }
  }
  for (const v of arr(spec.nonRootVolumes).map(rec)) {
    if (provisionedVolumeTypes.includes(String(v.type ?? '')) && !v.iops) out.push(refuse(rule, 'FieldValueRequired', `${p}.nonRootVolumes.iops`, '', "iops required if type is 'io1' or 'io2'", iopsHint));
    if (typeof v.throughput === 'number') {
      if (v.type !== 'gp3') out.push(refuse(rule, 'FieldValueRequired', `${p}.nonRootVolumes.throughput`, '', "throughput is valid only for type 'gp3'"));
      if (v.throughput < 0) out.push(refuse(rule, 'FieldValueRequired', `${p}.nonRootVolumes.throughput`, '', 'throughput must be nonnegative'));
    }
    if ((str(v.deviceName) ?? '') === '') out.push(refuse(rule, 'FieldValueRequired', `${p}.nonRootVolumes.deviceName`, '', 'non root volume should have device name', 'name each non-root volume\'s device, e.g. /dev/sdb'));
  }
  return out;
}

function elasticIPPool(spec: Obj): WebhookError[] {
  if (spec.elasticIpPool === undefined || spec.elasticIpPool === null) return [];
  const pool = rec(spec.elasticIpPool);
  const rule = 'webhook/AWSMachine.elastic-ip-pool';
  const out: WebhookError[] = [];
  if (spec.publicIP !== true) out.push(refuse(rule, 'FieldValueRequired', 'spec.elasticIpPool', '', "publicIp must be set to 'true' to assign custom public IPv4 pools with elasticIpPool"));
  const name = str(pool.publicIpv4Pool);
  if (name !== undefined) {
    if (pool.publicIpv4PoolFallbackOrder === undefined || pool.publicIpv4PoolFallbackOrder === null) out.push(refuse(rule, 'FieldValueInvalid', 'spec.elasticIpPool.publicIpv4PoolFallbackOrder', pool, 'publicIpv4PoolFallbackOrder must be set when publicIpv4Pool is defined.'));
    if (!name.startsWith('ipv4pool-ec2-')) out.push(refuse(rule, 'FieldValueInvalid', 'spec.elasticIpPool.publicIpv4Pool', pool, 'publicIpv4Pool must start with ipv4pool-ec2-.'));
  } else if (pool.publicIpv4PoolFallbackOrder !== undefined && pool.publicIpv4PoolFallbackOrder !== null) {
    out.push(refuse(rule, 'FieldValueInvalid', 'spec.elasticIpPool.publicIpv4PoolFallbackOrder', pool, 'publicIpv4Pool must be set when publicIpv4PoolFallbackOrder is defined.'));
  }
  return out;
}

const isSet = (v: unknown): boolean => v !== undefined && v !== null;

function marketAndCapacity(spec: Obj): WebhookError[] {
  const out: WebhookError[] = [];
  const market = spec.marketType;
  const spot = isSet(spec.spotMarketOptions);
  const pref = str(spec.capacityReservationPreference) ?? '';
  const only = 'CapacityReservationsOnly';
  if (market === 'CapacityBlock' && spot) out.push(refuse('webhook/AWSMachine.market-type', 'FieldValueForbidden', 'spec.marketType', '', 'marketType set to CapacityBlock and spotMarketOptions cannot be used together'));
  if (market === 'OnDemand' && spot) out.push(refuse('webhook/AWSMachine.market-type', 'FieldValueForbidden', 'spec.marketType', '', 'setting marketType to OnDemand and spotMarketOptions cannot be used together'));
  if (market === 'CapacityBlock' && !isSet(spec.capacityReservationId)) out.push(refuse('webhook/AWSMachine.market-type', 'FieldValueForbidden', 'spec.capacityReservationID', '', 'is required when CapacityBlock is provided', 'set spec.capacityReservationId to the Capacity Block reservation'));
  const rule = 'webhook/AWSMachine.capacity-reservation';
  if (isSet(spec.capacityReservationId) && pref !== only && pref !== '') out.push(refuse(rule, 'FieldValueForbidden', 'spec.capacityReservationPreference', '', "when capacityReservationId is specified, capacityReservationPreference may only be 'CapacityReservationsOnly' or empty"));
  if (pref === only && market === 'Spot') out.push(refuse(rule, 'FieldValueForbidden', 'spec.capacityReservationPreference', '', "when marketType is set to 'Spot', capacityReservationPreference cannot be set to 'CapacityReservationsOnly'"));
  if (pref === only && spot) out.push(refuse(rule, 'FieldValueForbidden', 'spec.capacityReservationPreference', '', "when capacityReservationPreference is 'CapacityReservationsOnly', spotMarketOptions cannot be set (which implies marketType: 'Spot')"));
  return out;
}

/** `validateHostAllocation`. */
function hostAllocation(spec: Obj, p: string, template: boolean): WebhookError[] {
  const rule = 'webhook/AWSMachine.host-allocation';
  const out: WebhookError[] = [];
  const hasHostID = (str(spec.hostID) ?? '') !== '';
  const dha = isSet(spec.dynamicHostAllocation);
  const hostTenancy = spec.tenancy === 'host';
  const affinityHost = spec.hostAffinity === 'host';
  if (hasHostID && dha) {
    out.push(refuse(rule, 'FieldValueForbidden', `${p}.hostID`, '', 'hostID and dynamicHostAllocation are mutually exclusive'));
    out.push(refuse(rule, 'FieldValueForbidden', `${p}.dynamicHostAllocation`, '', 'hostID and dynamicHostAllocation are mutually exclusive'));
  }
  if (hasHostID && !hostTenancy) out.push(refuse(rule, 'FieldValueForbidden', `${p}.hostID`, '', "hostID can only be set when tenancy is 'host'", 'set tenancy: host'));
  if (affinityHost && !hostTenancy) out.push(refuse(rule, 'FieldValueForbidden', `${p}.hostAffinity`, '', "hostAffinity can only be set to 'host' when tenancy is 'host'", 'set tenancy: host, or hostAffinity: default'));
  if (dha && !hostTenancy) out.push(refuse(rule, 'FieldValueForbidden', `${p}.dynamicHostAllocation`, '', "dynamicHostAllocation can only be set when tenancy is 'host'", 'set tenancy: host'));
  if (template && affinityHost && !hasHostID && !dha) out.push(refuse(rule, 'FieldValueRequired', `${p}.hostID`, '', "hostID or dynamicHostAllocation must be set when hostAffinity is 'host'"));
  if (dha && !affinityHost) out.push(refuse(rule, 'FieldValueForbidden', `${p}.dynamicHostAllocation`, '', "dynamicHostAllocation can only be set when hostAffinity is 'host'", 'set hostAffinity: host'));
  return out;
}

/** `AWSMachine.Default`: the secrets backend, and the Ignition storage type and version. */
function awsMachineDefaults(input: Obj): Obj {
  const o = clone(input);
  const spec = rec(o.spec);
  const ign = isSet(spec.ignition);
  if (rec(spec.cloudInit).insecureSkipSecretsManager !== true && !ign) setDefault(o, 'spec.cloudInit.secureSecretsBackend', 'secrets-manager');
  if (ign) {
    setDefault(o, 'spec.ignition.storageType', 'ClusterObjectStore');
    if (at(o, 'spec.ignition.storageType') !== 'UnencryptedUserData') setDefault(o, 'spec.ignition.version', '2.3');
  }
  return o;
}

function awsMachineCreate(o: Obj): WebhookError[] {
  const spec = rec(o.spec);
  return [
    ...cloudInitSecret(spec, 'spec'),
    ...ignition(spec),
    ...volumes(spec, 'spec', false),
    ...sshKeyName(spec),
    ...additionalSecurityGroups(spec, 'spec'),
    ...additionalTags(spec),
    ...elasticIPPool(spec),
    ...marketAndCapacity(spec),
    ...hostAllocation(spec, 'spec', false),
  ];
}

/** Go's zero values: an empty string, list or object reads as absent in the typed spec converted to a map. */
/** The AWSMachine spec fields an update may change (ValidateUpdate deletes them before comparing). */
export const awsMachineMutableFields = [
  'providerID',
  'instanceID',
  'additionalTags',
  'additionalSecurityGroups',
  'cloudInit.secretPrefix',
  'cloudInit.secretCount',
  'cloudInit.secureSecretsBackend',
  'privateDnsName.enableResourceNameDnsAAAARecord',
  'privateDnsName.enableResourceNameDnsARecord',
] as const;

function awsMachineUpdate(before: Obj, after: Obj): WebhookError[] {
  const b = rec(before.spec);
  const a = rec(after.spec);
  // ValidateUpdate's own host allocation check lets a stored hostAffinity through; capiform runs the create checks
  // on the new object, so such an inherited AWSMachine is still reported.
  const out: WebhookError[] = [];
  if (!same(withoutFields(b, awsMachineMutableFields), withoutFields(a, awsMachineMutableFields))) {
    out.push(refuse('webhook/AWSMachine.spec-immutable', 'FieldValueForbidden', 'spec', '', 'cannot be modified', `only ${awsMachineMutableFields.join(', ')} can change on an AWSMachine: change its AWSMachineTemplate under a new name and let the owner roll out new machines`));
  }
  return out;
}

function awsMachineTemplateCreate(o: Obj): WebhookError[] {
  const p = 'spec.template.spec';
  const spec = rec(at(o, p));
  const ci = rec(spec.cloudInit);
  const out: WebhookError[] = [];
  const rule = 'webhook/AWSMachineTemplate.template-fields';
  if ((str(ci.secretPrefix) ?? '') !== '') out.push(refuse(rule, 'FieldValueForbidden', `${p}.cloudInit.secretPrefix`, '', 'cannot be set in templates', 'drop it: the controller sets it on each AWSMachine'));
  // Upstream reports the secret count at the AWSMachine's path.
  if (typeof ci.secretCount === 'number' && ci.secretCount !== 0) out.push(refuse(rule, 'FieldValueForbidden', 'spec.cloudInit.secretCount', '', 'cannot be set in templates', 'drop it: the controller sets it on each AWSMachine'));
  if (isSet(spec.providerID)) out.push(refuse(rule, 'FieldValueForbidden', `${p}.providerID`, '', 'cannot be set in templates', 'drop providerID: the controller sets it on each AWSMachine'));
  out.push(...cloudInitSecret(spec, p));
  if (isSet(spec.ignition) && cloudInitConfigured(spec)) out.push(refuse('webhook/AWSMachine.ignition', 'FieldValueForbidden', `${p}.cloudInit`, '', `cannot be set if ${p}.ignition is set`, 'drop cloudInit: Ignition machines do not read it'));
  out.push(...volumes(spec, p, true), ...sshKeyName(spec), ...additionalSecurityGroups(spec, p), ...additionalTags(spec), ...hostAllocation(spec, p, true));
  return out;
}

export const capaWebhooks: readonly Webhook[] = [
  { group: infra, kind: 'AWSCluster', source: `${capa} webhooks/awscluster_webhook.go (v2.11.1; api/v1beta2/awscluster_webhook.go in v2.10.3)`, defaults: awsClusterDefaults, create: none, update: awsClusterUpdate },
  { group: infra, kind: 'AWSMachine', source: `${capa} webhooks/awsmachine_webhook.go (v2.11.1; api/v1beta2/awsmachine_webhook.go in v2.10.3)`, defaults: awsMachineDefaults, create: awsMachineCreate, update: awsMachineUpdate },
  {
    group: infra,
    kind: 'AWSMachineTemplate',
    source: `${capa} webhooks/awsmachinetemplate_webhook.go (v2.11.1; api/v1beta2/awsmachinetemplate_webhook.go in v2.10.3)`,
    defaults: (o: Obj): Obj => o,
    create: awsMachineTemplateCreate,
    update: none,
  },
];

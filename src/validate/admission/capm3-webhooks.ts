/**
 * Cluster API Provider Metal3's (CAPM3) validating webhooks and those of its IP address manager (ipam-metal3), the
 * part decidable offline, at the releases the corpus ships:
 * - metal3-io/cluster-api-provider-metal3 internal/webhooks/v1beta2/*_webhook.go at v1.13.2 (v1beta2 objects), and
 *   internal/webhooks/v1beta1/*_webhook.go at v1.12.7 where a v1beta1 object reads differently (its remediation
 *   `timeout` duration, the `noCloudProvider` field);
 * - metal3-io/ip-address-manager internal/webhooks/v1alpha1/*_webhook.go at v1.13.2 (v1.12.6 has no IP format checks
 *   and reports the name prefix at `spec.NamePrefix`).
 * Checks that read the cluster (an IPPool's allocations in its status, a Metal3Data's owner) are left out.
 */
import { cidrContainsIP, fieldError, parseCIDR, parseIP, type IPAddress } from '../../apiextensions/index.js';
import { durationToSeconds } from '../../topology/index.js';
import { deepEqual } from '../../yaml/index.js';
import { at, int, rec, refuse, str, type Webhook, type WebhookError } from './webhook-fields.js';
import { isObject as isRecord } from '../../go/index.js';

type Obj = Record<string, unknown>;

const infra = 'infrastructure.cluster.x-k8s.io';
const ipam = 'ipam.metal3.io';
const capm3 = 'metal3-io/cluster-api-provider-metal3 internal/webhooks';
const ipamSource = 'metal3-io/ip-address-manager internal/webhooks/v1alpha1';

const none = (): WebhookError[] => [];
const same = (o: Obj): Obj => o;
const s = (v: unknown): string => str(v) ?? '';
const isV1beta1 = (o: Obj): boolean => o.apiVersion === `${infra}/v1beta1`;

// ---------------------------------------------------------------------------------------------------------------
// Metal3Cluster and Metal3ClusterTemplate (metal3cluster_webhook.go, metal3clustertemplate_webhook.go).

function metal3ClusterCreate(o: Obj): WebhookError[] {
  const out: WebhookError[] = [];
  if (s(at(o, 'spec.controlPlaneEndpoint.host')) === '') {
    out.push(refuse('webhook/Metal3Cluster.endpoint', 'FieldValueInvalid', 'spec.controlPlaneEndpoint', '', 'is required', 'set spec.controlPlaneEndpoint.host to the address of the control plane (the CLUSTER_APIENDPOINT_HOST variable of the corpus template)'));
  }
  // v1.12.7 (v1beta1 only): the deprecated noCloudProvider must say the opposite of cloudProviderEnabled.
  const enabled = at(o, 'spec.cloudProviderEnabled');
  const noCloud = at(o, 'spec.noCloudProvider');
  if (typeof enabled === 'boolean' && typeof noCloud === 'boolean' && enabled === noCloud) {
    out.push(refuse('webhook/Metal3Cluster.cloud-provider', 'FieldValueInvalid', 'spec.cloudProviderEnabled', enabled, 'cloudProviderEnabled conflicts the value of noCloudProvider', 'drop the deprecated spec.noCloudProvider'));
  }
  return out;
}

/** `Metal3ClusterSpec.IsValid`: a plain error, printed as is (no field path); the template has no defaulting. */
function metal3ClusterTemplateCreate(o: Obj): WebhookError[] {
  const missing: string[] = [];
  if (s(at(o, 'spec.template.spec.controlPlaneEndpoint.host')) === '') missing.push('ControlPlaneEndpoint.Host');
  if ((int(at(o, 'spec.template.spec.controlPlaneEndpoint.port')) ?? 0) === 0) missing.push('ControlPlaneEndpoint.Port');
  if (missing.length === 0) return [];
  const e = fieldError('FieldValueRequired', 'spec.template.spec.controlPlaneEndpoint', '', '');
  return [{ rule: 'webhook/Metal3ClusterTemplate.endpoint', error: { ...e, message: `missing fields from Spec: [${missing.join(' ')}]` }, hint: 'set spec.template.spec.controlPlaneEndpoint host and port: a Metal3ClusterTemplate gets no default port' }];
}

// ---------------------------------------------------------------------------------------------------------------
// Metal3Machine and Metal3MachineTemplate (metal3machine_webhook.go, metal3machinetemplate_webhook.go).

/** `url.ParseRequestURI`: an absolute URI (a scheme) or an absolute path, without spaces or control characters. */
function isRequestURI(v: string): boolean {
  return /^([a-zA-Z][a-zA-Z0-9+.-]*:|\/)/.test(v) && !/[\s\u0000-\u001f\u007f]/.test(v);
}

/** `Image.Validate` (api/v1beta2/common_types.go), at the capitalised path the webhook gives it. */
function imageErrors(kind: string, image: unknown, path: string): WebhookError[] {
  const rule = `webhook/${kind}.image`;
  const i = rec(image);
  const url = s(i.url);
  const checksum = str(i.checksum);
  if (url === '' && checksum === undefined) return [refuse(rule, 'FieldValueRequired', path, '', 'either image or customDeploy is required', 'set image.url and image.checksum, or customDeploy.method')];
  const out: WebhookError[] = [];
  if (url === '') out.push(refuse(rule, 'FieldValueRequired', `${path}.URL`, '', 'cannot be empty'));
  else if (!isRequestURI(url)) out.push(refuse(rule, 'FieldValueInvalid', `${path}.URL`, url, 'not a valid URL', 'write the image URL with its scheme, e.g. http://images.example/ubuntu.qcow2'));
  if (i.diskFormat !== 'live-iso') {
    if (checksum === undefined || checksum === '') out.push(refuse(rule, 'FieldValueRequired', `${path}.Checksum`, '', 'cannot be empty'));
    else if ((checksum.startsWith('http://') || checksum.startsWith('https://')) && !isRequestURI(checksum)) out.push(refuse(rule, 'FieldValueInvalid', `${path}.Checksum`, checksum, 'not a valid URL'));
  }
  return out;
}

function metal3MachineCreate(o: Obj): WebhookError[] {
  const out: WebhookError[] = [];
  if (s(at(o, 'spec.customDeploy.method')) === '') out.push(...imageErrors('Metal3Machine', at(o, 'spec.image'), 'Spec.Image'));
  const ns = str(at(o, 'metadata.namespace'));
  for (const ref of ['userData', 'metaData', 'networkData']) {
    const refNs = s(at(o, `spec.${ref}.namespace`));
    // Without a namespace in the file the object lands in Argo CD's destination namespace: not decidable here.
    if (ns !== undefined && refNs !== '' && refNs !== ns) {
      out.push(refuse('webhook/Metal3Machine.secret-namespace', 'FieldValueForbidden', `spec.${ref}.namespace`, '', 'cross-namespace secret references are not allowed', `drop spec.${ref}.namespace, or put the Secret in ${ns}`));
    }
  }
  return out;
}

function metal3MachineTemplateCreate(o: Obj): WebhookError[] {
  if (s(at(o, 'spec.template.spec.customDeploy.method')) !== '') return [];
  return imageErrors('Metal3MachineTemplate', at(o, 'spec.template.spec.image'), 'Spec.Template.Spec.Image');
}

// ---------------------------------------------------------------------------------------------------------------
// Metal3Remediation and Metal3RemediationTemplate (metal3remediation_webhook.go, metal3remediationtemplate_webhook.go).

const minTimeout = 100;
const minRetryLimit = 1;

interface RemediationMessages {
  readonly timeout: string;
  readonly type: string;
  readonly retryLimit: string;
}

function strategyErrors(kind: string, o: Obj, strategy: Obj, path: string, messages: RemediationMessages): WebhookError[] {
  const out: WebhookError[] = [];
  const rule = `webhook/${kind}.strategy`;
  if (isV1beta1(o)) {
    const seconds = durationToSeconds(strategy.timeout);
    if (seconds !== undefined && seconds < minTimeout) out.push(refuse(rule, 'FieldValueInvalid', `${path}.timeout`, strategy.timeout, 'min duration is 100s'));
  } else {
    const timeout = int(strategy.timeoutSeconds) ?? 0;
    if (timeout !== 0 && timeout < minTimeout) out.push(refuse(rule, 'FieldValueInvalid', `${path}.timeoutSeconds`, timeout, messages.timeout, `use at least ${minTimeout} seconds`));
  }
  if (strategy.type !== 'Reboot') out.push(refuse(rule, 'FieldValueInvalid', `${path}.type`, s(strategy.type), messages.type, 'type: Reboot is the only strategy'));
  const retryLimit = int(strategy.retryLimit) ?? 0;
  if (retryLimit < minRetryLimit) out.push(refuse(rule, 'FieldValueInvalid', `${path}.retryLimit`, retryLimit, isV1beta1(o) ? messages.retryLimit.replace('minimum retry limit is 1', 'minimun retrylimit is 1') : messages.retryLimit, 'set retryLimit to 1 or more'));
  return out;
}

function metal3RemediationCreate(o: Obj): WebhookError[] {
  const strategy = at(o, 'spec.strategy');
  if (strategy === undefined || strategy === null) return [];
  return strategyErrors('Metal3Remediation', o, rec(strategy), 'spec.strategy', { timeout: `min duration is ${minTimeout} seconds`, type: 'is only supported remediation strategy', retryLimit: 'is minimum retrylimit' });
}

/** The template's defaulting webhook: type Reboot, a 600 s timeout and a retry limit of at least 1. */
function metal3RemediationTemplateDefaults(input: Obj): Obj {
  const o = structuredClone(input);
  let cur: Obj = o;
  for (const k of ['spec', 'template', 'spec', 'strategy']) {
    if (!isRecord(cur[k])) cur[k] = {};
    cur = cur[k] as Obj;
  }
  const st = cur;
  if (s(st.type) === '') st.type = 'Reboot';
  if (isV1beta1(o)) {
    if (st.timeout === undefined || st.timeout === null) st.timeout = '10m0s';
  } else if ((int(st.timeoutSeconds) ?? 0) === 0) st.timeoutSeconds = 600;
  if ((int(st.retryLimit) ?? 0) < minRetryLimit) st.retryLimit = minRetryLimit;
  return o;
}

function metal3RemediationTemplateCreate(o: Obj): WebhookError[] {
  return strategyErrors('Metal3RemediationTemplate', o, rec(at(o, 'spec.template.spec.strategy')), 'spec.template.spec.strategy', {
    timeout: `min duration is ${minTimeout} seconds`,
    type: 'only supported remediation strategy is reboot',
    retryLimit: `minimum retry limit is ${minRetryLimit}`,
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Metal3DataTemplate, Metal3Data and Metal3DataClaim (metal3datatemplate_webhook.go, metal3data_webhook.go,
// metal3dataclaim_webhook.go).

function metal3DataTemplateCreate(o: Obj): WebhookError[] {
  const out: WebhookError[] = [];
  const rule = 'webhook/Metal3DataTemplate.data';
  const interfaces = at(o, 'spec.metaData.fromHostInterfaces');
  (Array.isArray(interfaces) ? interfaces : []).forEach((h, i) => {
    const fromBootMAC = rec(h).fromBootMAC === true;
    const name = s(rec(h).interface);
    const p = `spec.metaData.fromHostInterfaces.${i}.interface`;
    if (!fromBootMAC && name === '') out.push(refuse(rule, 'FieldValueRequired', p, '', 'interface must be specified when fromBootMAC is false'));
    if (fromBootMAC && name !== '') out.push(refuse(rule, 'FieldValueInvalid', p, name, 'interface must be empty when fromBootMAC is true'));
  });
  for (const family of ['ipv4', 'ipv6']) {
    const networks = at(o, `spec.networkData.networks.${family}`);
    (Array.isArray(networks) ? networks : []).forEach((n, i) => {
      const x = rec(n);
      if (s(at(x, 'fromPoolRef.name')) === '' && s(x.ipAddressFromIPPool) === '' && s(at(x, 'fromPoolAnnotation.object')) === '') {
        out.push(refuse(rule, 'FieldValueRequired', `spec.networkData.networks.${family}.${i}.fromPoolRef.name`, '', 'fromPoolRef needs to contain a reference to an IPPool', 'name the IPPool the address comes from (fromPoolRef.name)'));
      }
    });
  }
  return out;
}

function metal3DataTemplateUpdate(before: Obj, after: Obj): WebhookError[] {
  const out: WebhookError[] = [];
  const hint = 'a Metal3DataTemplate is immutable: create one under a new name and point the Metal3MachineTemplate at it';
  if (!deepEqual(at(before, 'spec.metaData') ?? null, at(after, 'spec.metaData') ?? null)) {
    out.push(refuse('webhook/Metal3DataTemplate.immutable', 'FieldValueInvalid', 'spec.MetaData', at(after, 'spec.metaData') ?? null, 'cannot be modified', hint));
  }
  if (!deepEqual(at(before, 'spec.networkData') ?? null, at(after, 'spec.networkData') ?? null)) {
    out.push(refuse('webhook/Metal3DataTemplate.immutable', 'FieldValueInvalid', 'spec.NetworkData', at(after, 'spec.networkData') ?? null, 'cannot be modified', hint));
  }
  return out;
}

function metal3DataCreate(o: Obj): WebhookError[] {
  const out: WebhookError[] = [];
  const index = int(at(o, 'spec.index'));
  const template = at(o, 'spec.template');
  const name = s(at(o, 'metadata.name'));
  if (index !== undefined && isRecord(template) && name !== `${s(template.name)}-${index}`) {
    out.push(refuse('webhook/Metal3Data.name', 'FieldValueInvalid', 'name', name, 'should follow the convention <Metal3Template Name>-<index>', `name it ${s(template.name)}-${index}`));
  }
  if (index !== undefined && index < 0) out.push(refuse('webhook/Metal3Data.index', 'FieldValueInvalid', 'spec.Index', index, 'must be positive value'));
  return out;
}

/** Name, then namespace (and kind, for ObjectReferences) of a reference, as the webhooks compare them. */
function refChanged(before: unknown, after: unknown, keys: readonly string[]): boolean {
  return keys.some((k) => s(rec(before)[k]) !== s(rec(after)[k]));
}

function metal3DataUpdate(before: Obj, after: Obj): WebhookError[] {
  const out: WebhookError[] = [];
  if ((int(at(before, 'spec.index')) ?? 0) !== (int(at(after, 'spec.index')) ?? 0)) out.push(refuse('webhook/Metal3Data.immutable', 'FieldValueInvalid', 'spec.Index', at(after, 'spec.index') ?? null, 'cannot be modified'));
  for (const [field, path] of [
    ['template', 'Template'],
    ['claim', 'claim'],
  ] as const) {
    const b = at(before, `spec.${field}`);
    const a = at(after, `spec.${field}`);
    if ((b !== undefined || a !== undefined) && refChanged(b, a, ['name', 'namespace'])) out.push(refuse('webhook/Metal3Data.immutable', 'FieldValueInvalid', `spec.${path}`, a ?? null, 'cannot be modified'));
  }
  return out;
}

function metal3DataClaimCreate(o: Obj): WebhookError[] {
  const out: WebhookError[] = [];
  if (s(at(o, 'spec.template.name')) === '') out.push(refuse('webhook/Metal3DataClaim.template', 'FieldValueInvalid', 'spec.template.name', '', 'must be set'));
  const ns = str(at(o, 'metadata.namespace'));
  const refNs = s(at(o, 'spec.template.namespace'));
  if (ns !== undefined && refNs !== '' && refNs !== ns) {
    out.push(refuse('webhook/Metal3DataClaim.template', 'FieldValueInvalid', 'spec.template.namespace', refNs, 'must be empty or match the Metal3DataClaim namespace; cross-namespace template references are not allowed'));
  }
  return out;
}

function metal3DataClaimUpdate(before: Obj, after: Obj): WebhookError[] {
  if (!refChanged(at(before, 'spec.template'), at(after, 'spec.template'), ['name', 'namespace'])) return [];
  return [refuse('webhook/Metal3DataClaim.immutable', 'FieldValueInvalid', 'spec.template', at(after, 'spec.template') ?? null, 'cannot be modified')];
}

// ---------------------------------------------------------------------------------------------------------------
// ipam-metal3: IPPool, IPAddress and IPClaim (ippool_webhook.go, ipaddress_webhook.go, ipclaim_webhook.go).

/** `validateIP`: empty is accepted; otherwise `net.ParseIP`. */
const validIP = (v: string): boolean => v === '' || parseIP(v) !== undefined;

/** The 16-byte form Go's `net.ParseIP` returns for both families, for `bytes.Compare`. */
function to16(ip: IPAddress): number[] {
  return ip.bytes.length === 4 ? [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...ip.bytes] : [...ip.bytes];
}

function compareIP(a: IPAddress, b: IPAddress): number {
  const x = to16(a);
  const y = to16(b);
  for (let i = 0; i < 16; i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  return 0;
}

function badIP(rule: string, path: string, v: unknown): WebhookError[] {
  const text = s(v);
  return validIP(text) ? [] : [refuse(rule, 'FieldValueInvalid', path, text, 'is not a valid IP address')];
}

function ipPoolRanges(o: Obj): WebhookError[] {
  const rule = 'webhook/IPPool.ranges';
  const out: WebhookError[] = [];
  const spec = rec(o.spec);
  if (spec.gateway !== undefined && spec.gateway !== null) out.push(...badIP(rule, 'spec.gateway', spec.gateway));
  (Array.isArray(spec.dnsServers) ? spec.dnsServers : []).forEach((d, i) => out.push(...badIP(rule, `spec.dnsServers[${i}]`, d)));
  // Go walks the map in random order; sorted names keep the report stable.
  for (const name of Object.keys(rec(spec.preAllocations)).sort()) out.push(...badIP(rule, `spec.preAllocations.${name}`, rec(spec.preAllocations)[name]));
  (Array.isArray(spec.pools) ? spec.pools : []).forEach((p, i) => {
    const pool = rec(p);
    const path = `spec.pools[${i}]`;
    if (pool.start !== undefined && pool.start !== null) out.push(...badIP(rule, `${path}.start`, pool.start));
    if (pool.end !== undefined && pool.end !== null) out.push(...badIP(rule, `${path}.end`, pool.end));
    if (pool.subnet !== undefined && pool.subnet !== null && !parseCIDR(s(pool.subnet))) out.push(refuse(rule, 'FieldValueInvalid', `${path}.subnet`, s(pool.subnet), 'is not a valid CIDR', 'write the subnet with its prefix length, e.g. 192.168.10.0/24'));
    if (pool.gateway !== undefined && pool.gateway !== null) out.push(...badIP(rule, `${path}.gateway`, pool.gateway));
    (Array.isArray(pool.dnsServers) ? pool.dnsServers : []).forEach((d, j) => out.push(...badIP(rule, `${path}.dnsServers[${j}]`, d)));
    const start = parseIP(s(pool.start));
    const end = parseIP(s(pool.end));
    if (start && end && compareIP(start, end) > 0) {
      out.push(refuse(rule, 'FieldValueInvalid', path, `start: ${s(pool.start)}, end: ${s(pool.end)}`, 'start address must be less than or equal to end address', 'swap start and end'));
    }
  });
  return out;
}

/** `isAddressInBonds`: inside one of the pools (start, end and subnet each where set). */
function inBonds(spec: Obj, address: string): boolean {
  const ip = parseIP(address);
  if (!ip) return false;
  return (Array.isArray(spec.pools) ? spec.pools : []).some((p) => {
    const pool = rec(p);
    const start = typeof pool.start === 'string' ? parseIP(pool.start) : undefined;
    if (start && compareIP(start, ip) > 0) return false;
    const end = typeof pool.end === 'string' ? parseIP(pool.end) : undefined;
    if (end && compareIP(end, ip) < 0) return false;
    const subnet = typeof pool.subnet === 'string' ? parseCIDR(pool.subnet) : undefined;
    if (subnet && !cidrContainsIP(subnet, ip)) return false;
    return true;
  });
}

function ipPoolUpdate(before: Obj, after: Obj): WebhookError[] {
  const out: WebhookError[] = [];
  if (!deepEqual(at(before, 'spec.namePrefix') ?? '', at(after, 'spec.namePrefix') ?? '')) {
    out.push(refuse('webhook/IPPool.name-prefix-immutable', 'FieldValueInvalid', 'spec.namePrefix', s(at(after, 'spec.namePrefix')), 'cannot be modified', 'keep spec.namePrefix: the IPAddresses of the pool are named after it'));
  }
  const spec = rec(after.spec);
  const pre = rec(spec.preAllocations);
  // Upstream walks the map (random order); sorted names keep the report stable.
  for (const name of Object.keys(pre).sort()) {
    const address = s(pre[name]);
    if (!inBonds(spec, address)) out.push(refuse('webhook/IPPool.pre-allocation-bounds', 'FieldValueInvalid', 'spec.preAllocations', address, 'is out of bonds of the pools given', `widen spec.pools to hold ${address}, or drop the pre-allocation ${name}`));
  }
  return out;
}

function ipAddressCreate(o: Obj): WebhookError[] {
  const rule = 'webhook/IPAddress.spec';
  const out: WebhookError[] = [];
  if (s(at(o, 'spec.pool.name')) === '') out.push(refuse(rule, 'FieldValueInvalid', 'spec.pool.name', '', 'cannot be empty'));
  if (s(at(o, 'spec.claim.name')) === '') out.push(refuse(rule, 'FieldValueInvalid', 'spec.claim.name', '', 'cannot be empty'));
  const address = s(at(o, 'spec.address'));
  if (address === '') out.push(refuse(rule, 'FieldValueInvalid', 'spec.address', '', 'cannot be empty'));
  else out.push(...badIP(rule, 'spec.address', address));
  out.push(...requestedIP('IPAddress', o));
  return out;
}

/** The `ipAddress` annotation a claim asks for a given address with. */
function requestedIP(kind: string, o: Obj): WebhookError[] {
  const v = s(rec(at(o, 'metadata.annotations')).ipAddress);
  return v === '' ? [] : badIP(`webhook/${kind}.requested-ip`, 'metadata.annotations.ipAddress', v);
}

const objectRefKeys = ['name', 'namespace', 'kind'] as const;

function ipAddressUpdate(before: Obj, after: Obj): WebhookError[] {
  const out: WebhookError[] = [];
  const rule = 'webhook/IPAddress.immutable';
  if (s(at(before, 'spec.address')) !== s(at(after, 'spec.address'))) out.push(refuse(rule, 'FieldValueInvalid', 'spec.address', s(at(after, 'spec.address')), 'cannot be modified'));
  if (refChanged(at(before, 'spec.pool'), at(after, 'spec.pool'), objectRefKeys)) out.push(refuse(rule, 'FieldValueInvalid', 'spec.pool', at(after, 'spec.pool') ?? {}, 'cannot be modified'));
  if (refChanged(at(before, 'spec.claim'), at(after, 'spec.claim'), objectRefKeys)) out.push(refuse(rule, 'FieldValueInvalid', 'spec.claim', at(after, 'spec.claim') ?? {}, 'cannot be modified'));
  return out;
}

function ipClaimCreate(o: Obj): WebhookError[] {
  const out: WebhookError[] = [];
  if (s(at(o, 'spec.pool.name')) === '') out.push(refuse('webhook/IPClaim.pool', 'FieldValueInvalid', 'spec.pool.name', '', 'cannot be empty'));
  out.push(...requestedIP('IPClaim', o));
  return out;
}

function ipClaimUpdate(before: Obj, after: Obj): WebhookError[] {
  if (!refChanged(at(before, 'spec.pool'), at(after, 'spec.pool'), objectRefKeys)) return [];
  return [refuse('webhook/IPClaim.immutable', 'FieldValueInvalid', 'spec.pool', at(after, 'spec.pool') ?? {}, 'cannot be modified', 'a claim keeps its pool: create a new IPClaim for the other pool')];
}

/**
 * `admit` runs the create half on update too; upstream's ValidateUpdate of IPAddress, Metal3Data and
 * Metal3DataTemplate checks only what their update half lists (the head tree's objects are still validated whole).
 */
export const capm3Webhooks: readonly Webhook[] = [
  { group: infra, kind: 'Metal3Cluster', source: `${capm3}/v1beta2/metal3cluster_webhook.go (v1.13.2; v1beta1 in v1.12.7)`, defaults: same, create: metal3ClusterCreate, update: none },
  { group: infra, kind: 'Metal3ClusterTemplate', source: `${capm3}/v1beta2/metal3clustertemplate_webhook.go (v1.13.2; v1beta1 in v1.12.7)`, defaults: same, create: metal3ClusterTemplateCreate, update: none },
  { group: infra, kind: 'Metal3Machine', source: `${capm3}/v1beta2/metal3machine_webhook.go (v1.13.2; v1beta1 in v1.12.7)`, defaults: same, create: metal3MachineCreate, update: none },
  { group: infra, kind: 'Metal3MachineTemplate', source: `${capm3}/v1beta2/metal3machinetemplate_webhook.go (v1.13.2; v1beta1 in v1.12.7)`, defaults: same, create: metal3MachineTemplateCreate, update: none },
  { group: infra, kind: 'Metal3Remediation', source: `${capm3}/v1beta2/metal3remediation_webhook.go (v1.13.2; v1beta1 in v1.12.7)`, defaults: same, create: metal3RemediationCreate, update: none },
  { group: infra, kind: 'Metal3RemediationTemplate', source: `${capm3}/v1beta2/metal3remediationtemplate_webhook.go (v1.13.2; v1beta1 in v1.12.7)`, defaults: metal3RemediationTemplateDefaults, create: metal3RemediationTemplateCreate, update: none },
  { group: infra, kind: 'Metal3DataTemplate', source: `${capm3}/v1beta2/metal3datatemplate_webhook.go (v1.13.2; v1beta1 in v1.12.7)`, defaults: same, create: metal3DataTemplateCreate, update: metal3DataTemplateUpdate },
  { group: infra, kind: 'Metal3Data', source: `${capm3}/v1beta2/metal3data_webhook.go (v1.13.2; v1beta1 in v1.12.7)`, defaults: same, create: metal3DataCreate, update: metal3DataUpdate },
  { group: infra, kind: 'Metal3DataClaim', source: `${capm3}/v1beta2/metal3dataclaim_webhook.go (v1.13.2; v1beta1 in v1.12.7)`, defaults: same, create: metal3DataClaimCreate, update: metal3DataClaimUpdate },
  { group: ipam, kind: 'IPPool', source: `${ipamSource}/ippool_webhook.go (v1.13.2; v1.12.6 checks the name prefix and bounds only)`, defaults: same, create: ipPoolRanges, update: ipPoolUpdate },
  { group: ipam, kind: 'IPAddress', source: `${ipamSource}/ipaddress_webhook.go (v1.13.2; v1.12.6 without the IP format checks)`, defaults: same, create: ipAddressCreate, update: ipAddressUpdate },
  { group: ipam, kind: 'IPClaim', source: `${ipamSource}/ipclaim_webhook.go (v1.13.2; v1.12.6 without the IP format checks)`, defaults: same, create: ipClaimCreate, update: ipClaimUpdate },
];

/**
 * Cluster API Provider vSphere's validating webhooks (kubernetes-sigs/cluster-api-provider-vsphere
 * internal/webhooks/*.go at the releases the corpus ships, v1.15.3 and v1.16.1), the part decidable offline. Each
 * webhook names its upstream file; the v1beta1 API of infrastructure.cluster.x-k8s.io.
 */
import { parseCIDR } from '../../apiextensions/index.js';
import { at, clone, defined, rec, refuse, same, str, withoutFields, type Webhook, type WebhookError } from './webhook-fields.js';

type Obj = Record<string, unknown>;

const infra = 'infrastructure.cluster.x-k8s.io';
const capv = 'kubernetes-sigs/cluster-api-provider-vsphere';
const vmware = 'vmware.infrastructure.cluster.x-k8s.io';

const none = (): WebhookError[] => [];

function softPowerOff(rule: string, spec: Obj, path: string): WebhookError[] {
  const timeout = spec.guestSoftPowerOffTimeout ?? spec.guestSoftPowerOffTimeoutSeconds;
  if (!defined(timeout) || spec.powerOffMode === 'trySoft') return [];
  return [refuse(rule, 'FieldValueInvalid', `${path}.guestSoftPowerOffTimeout`, timeout, 'should not be set in templates unless the powerOffMode is trySoft', 'set powerOffMode: trySoft, or drop guestSoftPowerOffTimeout')];
}

function vsphereMachineTemplateCreate(o: Obj): WebhookError[] {
  const kind = 'VSphereMachineTemplate';
  const p = 'spec.template.spec';
  const spec = rec(at(o, p));
  const out: WebhookError[] = [];
  if (str(spec.providerID)) out.push(refuse(`webhook/${kind}.provider-id`, 'FieldValueForbidden', `${p}.providerID`, '', 'cannot be set in templates', 'drop providerID: the controller sets it on each VSphereMachine'));
  for (const d of Array.isArray(at(spec, 'network.devices')) ? (at(spec, 'network.devices') as unknown[]) : []) {
    const ips = rec(d).ipAddrs;
    if (Array.isArray(ips) && ips.length > 0) {
      out.push(refuse(`webhook/${kind}.ip-addresses`, 'FieldValueForbidden', `${p}.network.devices.ipAddrs`, '', 'cannot be set in templates', 'a template is shared by every machine: use DHCP or an IPAM pool (addressesFromPools) instead of fixed ipAddrs'));
    }
  }
  const hw = str(spec.hardwareVersion) ?? '';
  if (hw !== '' && !/^vmx-[1-9][0-9]?$/.test(hw)) out.push(refuse(`webhook/${kind}.hardware-version`, 'FieldValueInvalid', `${p}.hardwareVersion`, hw, 'should be a valid VM hardware version, example vmx-17'));
  out.push(...softPowerOff(`webhook/${kind}.power-off`, spec, p));
  return out;
}

/** The CIDR check of `network.devices[].ipAddrs` that VSphereMachine and VSphereVM run on create and update. */
function cidrAddresses(kind: string, spec: Obj): WebhookError[] {
  const out: WebhookError[] = [];
  (Array.isArray(at(spec, 'network.devices')) ? (at(spec, 'network.devices') as unknown[]) : []).forEach((d, i) => {
    const ips = rec(d).ipAddrs;
    (Array.isArray(ips) ? ips : []).forEach((ip, j) => {
      if (typeof ip !== 'string' || !parseCIDR(ip)) {
        out.push(refuse(`webhook/${kind}.ip-addresses`, 'FieldValueInvalid', `spec.network.devices[${i}].ipAddrs[${j}]`, ip, 'ip addresses should be in the CIDR format', 'write each address with its prefix length, e.g. 192.168.10.5/24'));
      }
    });
  });
  return out;
}

function vsphereMachineCreate(o: Obj): WebhookError[] {
  const spec = rec(o.spec);
  return [...cidrAddresses('VSphereMachine', spec), ...softPowerOff('webhook/VSphereMachine.power-off', spec, 'spec')];
}

/**
 * The spec fields ValidateUpdate deletes before comparing (vspheremachine.go `allowChangeKeys`, then
 * `network.devices`); the timeout is `guestSoftPowerOffTimeout` in v1beta1 (v1.15.3) and
 * `guestSoftPowerOffTimeoutSeconds` in v1beta2 (v1.16.1).
 */
const vsphereMachineMutableFields = ['providerID', 'powerOffMode', 'guestSoftPowerOffTimeout', 'guestSoftPowerOffTimeoutSeconds', 'network.devices'] as const;

const respecHint = (kind: string, owner: string, fields: readonly string[]): string =>
  `only ${fields.join(', ')} can change on a ${kind}: change its ${owner} under a new name and let the owner roll out new machines`;

function vsphereMachineUpdate(before: Obj, after: Obj): WebhookError[] {
  // The CIDR and power-off checks of ValidateUpdate are the create checks, which run on the new object too.
  if (same(withoutFields(rec(before.spec), vsphereMachineMutableFields), withoutFields(rec(after.spec), vsphereMachineMutableFields))) return [];
  return [refuse('webhook/VSphereMachine.spec-immutable', 'FieldValueForbidden', 'spec', '', 'cannot be modified', respecHint('VSphereMachine', 'VSphereMachineTemplate', vsphereMachineMutableFields))];
}

/** vspheremachine.go `Default`: an unset `datacenter` is `*`. */
function vsphereMachineDefaults(input: Obj): Obj {
  const o = clone(input);
  const spec = rec(o.spec);
  if ((str(spec.datacenter) ?? '') === '') o.spec = { ...spec, datacenter: '*' };
  return o;
}

/** vspherevm.go `Default`: an unset `os` is Linux. */
function vsphereVMDefaults(input: Obj): Obj {
  const o = clone(input);
  const spec = rec(o.spec);
  if ((str(spec.os) ?? '') === '') o.spec = { ...spec, os: 'Linux' };
  return o;
}

function vsphereVMCreate(o: Obj): WebhookError[] {
  const spec = rec(o.spec);
  const out = cidrAddresses('VSphereVM', spec);
  const name = str(rec(o.metadata).name) ?? '';
  // Upstream reports the name at `name`, not `metadata.name`.
  if (spec.os === 'Windows' && name.length > 15) out.push(refuse('webhook/VSphereVM.windows-name', 'FieldValueInvalid', 'name', name, 'name has to be less than 16 characters for Windows VM', 'Windows limits a computer name to 15 characters: shorten the machine (and so the VSphereVM) name'));
  out.push(...softPowerOff('webhook/VSphereVM.power-off', spec, 'spec'));
  return out;
}

/**
 * vspherevm.go ValidateUpdate: everything but `bootstrapRef`, `thumbprint`, the power-off fields and the network
 * devices is immutable; `os` may change only while the old one is empty, `biosUUID` only while the old one is unset.
 */
function vsphereVMUpdate(before: Obj, after: Obj): WebhookError[] {
  const b = rec(before.spec);
  const fields = ['bootstrapRef', 'thumbprint', 'powerOffMode', 'guestSoftPowerOffTimeout', 'guestSoftPowerOffTimeoutSeconds', 'network.devices'];
  if ((str(b.os) ?? '') === '') fields.push('os');
  if ((str(b.biosUUID) ?? '') === '') fields.push('biosUUID');
  if (same(withoutFields(b, fields), withoutFields(rec(after.spec), fields))) return [];
  return [refuse('webhook/VSphereVM.spec-immutable', 'FieldValueForbidden', 'spec', '', 'cannot be modified', respecHint('VSphereVM', 'VSphereMachineTemplate', fields))];
}

/**
 * vspherefailuredomain.go ValidateCreate. Upstream spells some paths in Go's field names (`spec.Topology.Hosts`);
 * the messages keep them so they read as the API server prints them.
 */
function vsphereFailureDomainCreate(o: Obj): WebhookError[] {
  const rule = 'webhook/VSphereFailureDomain.topology';
  const spec = rec(o.spec);
  const topology = rec(spec.topology);
  const regionType = str(at(spec, 'region.type')) ?? '';
  const zoneType = str(at(spec, 'zone.type')) ?? '';
  const computeCluster = str(topology.computeCluster) ?? '';
  const hosts = defined(topology.hosts);
  const out: WebhookError[] = [];
  const ccHint = 'set spec.topology.computeCluster to the vSphere compute cluster the failure domain places machines in';
  if (computeCluster === '' && hosts) out.push(refuse(rule, 'FieldValueForbidden', 'spec.Topology.ComputeCluster', '', 'cannot be empty if Hosts is not empty', ccHint));
  if (regionType === 'HostGroup') out.push(refuse(rule, 'FieldValueForbidden', 'spec.Region.Type', '', "region's Failure Domain type cannot be HostGroup", 'a region is a Datacenter or a ComputeCluster; HostGroup is a zone type'));
  if (zoneType === 'HostGroup' && !hosts) out.push(refuse(rule, 'FieldValueForbidden', 'spec.Topology.Hosts', '', "cannot be nil if zone's Failure Domain type is HostGroup", 'set spec.topology.hosts.vmGroupName and hostGroupName'));
  if (regionType === 'ComputeCluster' && computeCluster === '') out.push(refuse(rule, 'FieldValueForbidden', 'spec.Topology.ComputeCluster', '', "cannot be nil if region's Failure Domain type is ComputeCluster", ccHint));
  if (zoneType === 'ComputeCluster' && computeCluster === '') out.push(refuse(rule, 'FieldValueForbidden', 'spec.Topology.ComputeCluster', '', "cannot be nil if zone's Failure Domain type is ComputeCluster", ccHint));
  const configs = Array.isArray(topology.networkConfigurations) ? topology.networkConfigurations : [];
  if (configs.length > 0 && Array.isArray(topology.networks) && topology.networks.length > 0) {
    out.push(refuse(rule, 'FieldValueForbidden', 'spec.topology.networks', '', 'cannot be set if spec.topology.networkConfigurations is already set', 'list the networks once, under networkConfigurations'));
  }
  configs.forEach((c, i) => {
    if ((str(rec(c).networkName) ?? '') === '') out.push(refuse(rule, 'FieldValueRequired', `spec.topology.networkConfigurations[${i}].networkName`, '', 'cannot be empty'));
  });
  return out;
}

/** v1.15.3's defaulting webhook set an unset `autoConfigure` to false on both sides: false is no change. */
function failureDomainSpec(spec: Obj): unknown {
  const s = clone(spec);
  for (const k of ['region', 'zone']) {
    const d = s[k];
    if (typeof d === 'object' && d !== null && (d as Obj).autoConfigure === false) delete (d as Obj).autoConfigure;
  }
  return withoutFields(s, []);
}

/** vspherefailuredomain.go ValidateUpdate: the whole spec is immutable. */
function vsphereFailureDomainUpdate(before: Obj, after: Obj): WebhookError[] {
  if (same(failureDomainSpec(rec(before.spec)), failureDomainSpec(rec(after.spec)))) return [];
  return [refuse('webhook/VSphereFailureDomain.spec-immutable', 'FieldValueForbidden', 'spec', '', 'VSphereFailureDomainSpec is immutable', 'a failure domain cannot be edited in place: create a VSphereFailureDomain (and VSphereDeploymentZone) under a new name and move the cluster to it')];
}

/**
 * The supervisor (vm-operator) VSphereMachine's ValidateUpdate, internal/webhooks/vmware/vspheremachine.go: VM
 * Operator cannot change these fields of a VirtualMachine, so CAPV refuses them. Its network interface checks
 * depend on the manager's network provider and are not modelled.
 */
const recreateOnTemplate = 'VM Operator fixes this field when it creates the VirtualMachine: change the VSphereMachineTemplate under a new name and let the owner roll out new machines';

function supervisorVSphereMachineUpdate(before: Obj, after: Obj): WebhookError[] {
  const b = rec(before.spec);
  const a = rec(after.spec);
  const out: WebhookError[] = [];
  for (const f of ['imageName', 'className', 'storageClass', 'minHardwareVersion']) {
    if ((str(b[f]) ?? '') !== (str(a[f]) ?? '')) out.push(refuse('webhook/VSphereMachine.supervisor-immutable', 'FieldValueForbidden', `spec.${f}`, '', 'cannot be modified', recreateOnTemplate));
  }
  if (!same(withoutFields(rec(at(b, 'network.interfaces')), []), withoutFields(rec(at(a, 'network.interfaces')), []))) {
    out.push(refuse('webhook/VSphereMachine.supervisor-immutable', 'FieldValueForbidden', 'spec.network.interfaces', '', 'cannot be modified', 'network interfaces are fixed when the VirtualMachine is created: change the VSphereMachineTemplate under a new name'));
  }
  return out;
}

const same0 = (o: Obj): Obj => o;

export const capvWebhooks: readonly Webhook[] = [
  { group: infra, kind: 'VSphereMachineTemplate', source: `${capv} internal/webhooks/vspheremachinetemplate.go (v1.15.3, v1.16.1)`, defaults: same0, create: vsphereMachineTemplateCreate, update: none },
  { group: infra, kind: 'VSphereMachine', source: `${capv} internal/webhooks/vspheremachine.go (v1.15.3, v1.16.1)`, defaults: vsphereMachineDefaults, create: vsphereMachineCreate, update: vsphereMachineUpdate },
  { group: vmware, kind: 'VSphereMachine', source: `${capv} internal/webhooks/vmware/vspheremachine.go (v1.15.3, v1.16.1)`, defaults: same0, create: none, update: supervisorVSphereMachineUpdate },
  { group: infra, kind: 'VSphereFailureDomain', source: `${capv} internal/webhooks/vspherefailuredomain.go (v1.15.3, v1.16.1)`, defaults: same0, create: vsphereFailureDomainCreate, update: vsphereFailureDomainUpdate },
  { group: infra, kind: 'VSphereVM', source: `${capv} internal/webhooks/vspherevm.go (v1.15.3, v1.16.1)`, defaults: vsphereVMDefaults, create: vsphereVMCreate, update: vsphereVMUpdate },
];

/**
 * The infrastructure providers' validating webhooks, the part decidable offline and most often hit: fields a cluster
 * cannot change once created (region, location, subscription, resource group, endpoint, load balancer scheme and
 * availability zones) and machine template fields the webhook refuses on create. Each webhook names the provider's
 * file at the release the corpus locks (the newest; where the older locked release differs, its comment says so).
 * The defaulting a check depends on (a default resource group, load balancer scheme) is applied first, as the API
 * server does.
 */
import { parseCIDR } from '../../topology/index.js';
import { capaWebhooks } from './capa-webhooks.js';
import { capzWebhooks } from './capz-webhooks.js';
import { at, defined, rec, refuse, str, type Webhook, type WebhookError } from './webhook-fields.js';

type Obj = Record<string, unknown>;

const infra = 'infrastructure.cluster.x-k8s.io';
const capv = 'kubernetes-sigs/cluster-api-provider-vsphere';

const none = (): WebhookError[] => [];
// ---------------------------------------------------------------------------------------------------------------
// VSphereMachineTemplate and VSphereMachine (cluster-api-provider-vsphere internal/webhooks/vspheremachinetemplate.go,
// vspheremachine.go, v1.15.3 and v1.16.1; the v1beta1 API of infrastructure.cluster.x-k8s.io).

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

function vsphereMachineCreate(o: Obj): WebhookError[] {
  const kind = 'VSphereMachine';
  const spec = rec(o.spec);
  const out: WebhookError[] = [];
  (Array.isArray(at(spec, 'network.devices')) ? (at(spec, 'network.devices') as unknown[]) : []).forEach((d, i) => {
    const ips = rec(d).ipAddrs;
    (Array.isArray(ips) ? ips : []).forEach((ip, j) => {
      if (typeof ip !== 'string' || !parseCIDR(ip)) {
        out.push(refuse(`webhook/${kind}.ip-addresses`, 'FieldValueInvalid', `spec.network.devices[${i}].ipAddrs[${j}]`, ip, 'ip addresses should be in the CIDR format', 'write each address with its prefix length, e.g. 192.168.10.5/24'));
      }
    });
  });
  out.push(...softPowerOff(`webhook/${kind}.power-off`, spec, 'spec'));
  return out;
}

const same0 = (o: Obj): Obj => o;

export const providerWebhooks: readonly Webhook[] = [
  ...capaWebhooks,
  ...capzWebhooks,
  { group: infra, kind: 'VSphereMachineTemplate', source: `${capv} internal/webhooks/vspheremachinetemplate.go (v1.15.3, v1.16.1)`, defaults: same0, create: vsphereMachineTemplateCreate, update: none },
  { group: infra, kind: 'VSphereMachine', source: `${capv} internal/webhooks/vspheremachine.go (v1.15.3, v1.16.1)`, defaults: same0, create: vsphereMachineCreate, update: none },
];

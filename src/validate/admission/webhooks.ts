/**
 * Cluster API's validating webhooks, the part decidable offline: what the API server refuses when an object is
 * created (and, in webhook-update-rules.ts, when it is changed), with the webhook's field path and message. Each
 * webhook names the upstream file it follows (kubernetes-sigs/cluster-api at v1.13.5, the corpus's newest release;
 * where a rule changed between releases its comment says from when). Defaulting runs first, as in the API server:
 * the mutating webhook's changes that decide a check (a `v` before versions, default replicas and selectors) are
 * applied before the checks.
 *
 * Checks that need the management cluster (the ClusterClass's reconciled status, the control plane's current
 * version, pending lifecycle hooks) and those guarded by feature gates (see the gates' own rules) are left out.
 */
import { blangParseTolerantError, goQuote } from '../../go/index.js';
import { isQualifiedName } from '../../apiextensions/index.js';
import { withCapiWebhookDefaults } from '../capi-webhooks.js';
import { isRecord, type Finding, type SourceObject } from '../findings.js';
import {
  at,
  defined,
  findingOf,
  int,
  intOrPercentError,
  intOrStringText,
  intOrStringValue,
  kubeSemver,
  objectMetaErrors,
  rec,
  refuse,
  selectorMatches,
  selectorRequirements,
  selectorText,
  str,
  type Webhook,
  type WebhookError,
} from './webhook-fields.js';
import { capdWebhooks } from './capd-webhooks.js';
import { capm3Webhooks } from './capm3-webhooks.js';
import { providerWebhooks } from './provider-webhooks.js';

type Obj = Record<string, unknown>;

export type { Webhook } from './webhook-fields.js';

const core = 'cluster.x-k8s.io';
const controlPlaneGroup = 'controlplane.cluster.x-k8s.io';
const bootstrapGroup = 'bootstrap.cluster.x-k8s.io';

const isV1beta1 = (o: Obj): boolean => (str(o.apiVersion) ?? '').endsWith('/v1beta1');
const clone = (o: Obj): Obj => structuredClone(o);

/** Sets `path` below `o`, creating the maps on the way. */
function put(o: Obj, path: string, value: unknown): void {
  const keys = path.split('.');
  let cur = o;
  for (const k of keys.slice(0, -1)) {
    if (!isRecord(cur[k])) cur[k] = {};
    cur = cur[k] as Obj;
  }
  cur[keys[keys.length - 1] as string] = value;
}

/** The defaulting webhooks' "tolerate version strings without a v prefix". */
function vPrefix(o: Obj, path: string): void {
  const v = at(o, path);
  if (typeof v === 'string' && v !== '' && !v.startsWith('v')) put(o, path, `v${v}`);
}

const versionHint = 'write the version as a Kubernetes release, `v1.33.1`';

function versionFormat(rule: string, o: Obj, path: string, detail = 'must be a valid semantic version'): WebhookError[] {
  const v = at(o, path);
  if (v === undefined || v === '') return [];
  return typeof v === 'string' && kubeSemver.test(v) ? [] : [refuse(rule, 'FieldValueInvalid', path, v, detail, versionHint)];
}

/** `validation.IsValidLabelValue`'s messages. */
function labelValueErrors(value: string): string[] {
  const out: string[] = [];
  if (value.length > 63) out.push('must be no more than 63 characters');
  if (!/^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/.test(value)) {
    out.push(
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    );
  }
  return out;
}

function machineNamingTemplate(rule: string, o: Obj, path: string): WebhookError[] {
  const t = str(at(o, path));
  if (!t || t.includes('{{ .random }}')) return [];
  return [refuse(rule, 'FieldValueInvalid', path, t, 'invalid template, {{ .random }} is missing', 'add `{{ .random }}` to the naming template')];
}

// ---------------------------------------------------------------------------------------------------------------
// KubeadmConfigSpec.Validate (api/bootstrap/kubeadm/v1beta2/kubeadmconfig_types.go), shared by KubeadmConfig,
// KubeadmConfigTemplate, KubeadmControlPlane and KubeadmControlPlaneTemplate.

function kubeadmConfigSpecErrors(kind: string, spec: unknown, path: string, isKCP: boolean, v1beta1: boolean): WebhookError[] {
  const s = rec(spec);
  const out: WebhookError[] = [];
  const files = Array.isArray(s.files) ? s.files : [];
  const known = new Set<string>();
  files.forEach((f, i) => {
    const file = rec(f);
    const p = `${path}.files[${i}]`;
    if (str(file.content) && defined(file.contentFrom)) {
      out.push(refuse(`webhook/${kind}.files`, 'FieldValueInvalid', p, file, 'only one of content or contentFrom may be specified for a single file'));
    }
    if (defined(file.contentFrom)) {
      const secret = rec(rec(file.contentFrom).secret);
      if (!str(secret.name)) out.push(refuse(`webhook/${kind}.files`, 'FieldValueRequired', `${p}.contentFrom.secret.name`, '', 'secret file source must specify non-empty secret name'));
      if (!str(secret.key)) out.push(refuse(`webhook/${kind}.files`, 'FieldValueRequired', `${p}.contentFrom.secret.key`, '', 'secret file source must specify non-empty secret key'));
    }
    const filePath = str(file.path) ?? '';
    if (known.has(filePath)) out.push(refuse(`webhook/${kind}.files`, 'FieldValueInvalid', `${p}.path`, file, 'path property must be unique among all files', 'give each file its own path, or merge their contents'));
    known.add(filePath);
  });
  (Array.isArray(s.users) ? s.users : []).forEach((u, i) => {
    const user = rec(u);
    const p = `${path}.users[${i}]`;
    if (str(user.passwd) && defined(user.passwdFrom)) out.push(refuse(`webhook/${kind}.users`, 'FieldValueInvalid', p, user, 'only one of passwd or passwdFrom may be specified for a single user'));
    if (defined(user.passwdFrom)) {
      const secret = rec(rec(user.passwdFrom).secret);
      if (!str(secret.name)) out.push(refuse(`webhook/${kind}.users`, 'FieldValueRequired', `${p}.passwdFrom.secret.name`, '', 'secret file source must specify non-empty secret name'));
      if (!str(secret.key)) out.push(refuse(`webhook/${kind}.users`, 'FieldValueRequired', `${p}.passwdFrom.secret.key`, '', 'secret file source must specify non-empty secret key'));
    }
  });
  (Array.isArray(at(s, 'diskSetup.partitions')) ? (at(s, 'diskSetup.partitions') as unknown[]) : []).forEach((part, i) => {
    const layout = rec(part).diskLayout;
    if (!Array.isArray(layout) || layout.length === 0) return;
    const total = layout.reduce((sum: number, l) => sum + (int(rec(l).percentage) ?? 0), 0);
    if (total > 100) out.push(refuse(`webhook/${kind}.disk-setup`, 'FieldValueInvalid', `${path}.diskSetup.partitions[${i}].diskLayout`, total, 'the sum of all partition percentages must not be greater than 100'));
  });
  // v1beta2 (CAPI v1.11+) only: the timeouts moved from the ClusterConfiguration into init and join.
  if (isKCP && !v1beta1) {
    const tInit = int(at(s, 'initConfiguration.timeouts.controlPlaneComponentHealthCheckSeconds'));
    const tJoin = int(at(s, 'joinConfiguration.timeouts.controlPlaneComponentHealthCheckSeconds'));
    const a = tInit === undefined ? 'unset' : String(tInit);
    const b = tJoin === undefined ? 'unset' : String(tJoin);
    if (a !== b) {
      const detail = `controlPlaneComponentHealthCheckSeconds must be set to the same value both in initConfiguration.timeouts (${a}) and in joinConfiguration.timeouts (${b})`;
      out.push(refuse(`webhook/${kind}.timeouts`, 'FieldValueInvalid', `${path}.initConfiguration.timeouts.controlPlaneComponentHealthCheckSeconds`, a, detail));
      out.push(refuse(`webhook/${kind}.timeouts`, 'FieldValueInvalid', `${path}.joinConfiguration.timeouts.controlPlaneComponentHealthCheckSeconds`, b, detail));
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// KubeadmControlPlane (controlplane/kubeadm/internal/webhooks/kubeadmcontrolplane.go)

const kcp = 'KubeadmControlPlane';
const kcpSpec = 'spec.kubeadmConfigSpec';
const kcpClusterConfiguration = `${kcpSpec}.clusterConfiguration`;
/** kubeadm's `DefaultCACertificatesExpiryDays` (util/secret). */
const defaultCACertificatesExpiryDays = 3650;

/** Where a field sits in either API version of the object (v1beta2 renamed the rollout and naming fields). */
function kcpPaths(o: Obj): { strategy: string; before: string; naming: string } {
  return isV1beta1(o)
    ? { strategy: 'spec.rolloutStrategy', before: 'spec.rolloutBefore', naming: 'spec.machineNamingStrategy' }
    : { strategy: 'spec.rollout.strategy', before: 'spec.rollout.before', naming: 'spec.machineNaming' };
}

function kcpDefaults(input: Obj): Obj {
  const o = clone(input);
  const spec = rec(o.spec);
  if (isRecord(o.spec) && (spec.replicas === undefined || spec.replicas === null)) spec.replicas = 1;
  vPrefix(o, 'spec.version');
  const { strategy } = kcpPaths(o);
  if (!isRecord(o.spec)) return o;
  // v1beta2 forces RollingUpdate; v1beta1 (CAPI v1.10) fills it when empty. Either way maxSurge defaults to 1.
  if (!isV1beta1(o) || !str(at(o, `${strategy}.type`))) put(o, `${strategy}.type`, 'RollingUpdate');
  const surge = at(o, `${strategy}.rollingUpdate.maxSurge`);
  if (surge === undefined || surge === null) put(o, `${strategy}.rollingUpdate.maxSurge`, 1);
  return o;
}

function kcpExternalEtcd(o: Obj): boolean {
  return defined(at(o, `${kcpClusterConfiguration}.etcd.external`));
}

function kcpCreate(o: Obj): WebhookError[] {
  const out: WebhookError[] = [];
  const { strategy, before, naming } = kcpPaths(o);
  const replicas = rec(o.spec).replicas;
  const n = int(replicas);
  if (replicas === undefined || replicas === null) out.push(refuse(`webhook/${kcp}.replicas`, 'FieldValueRequired', 'spec.replicas', '', 'is required'));
  else if (n !== undefined && n <= 0) {
    out.push(refuse(`webhook/${kcp}.replicas`, 'FieldValueForbidden', 'spec.replicas', '', 'cannot be less than or equal to 0', 'set the control plane to 1, 3 or 5 replicas'));
  }
  if (!kcpExternalEtcd(o) && n !== undefined && n % 2 === 0) {
    out.push(
      refuse(
        `webhook/${kcp}.replicas-even-stacked-etcd`,
        'FieldValueForbidden',
        'spec.replicas',
        '',
        'cannot be an even number when etcd is stacked',
        'use an odd number of control plane machines (controlPlaneMachineCount: 1, 3 or 5), or an external etcd',
      ),
    );
  }
  out.push(...versionFormat(`webhook/${kcp}.version`, o, 'spec.version'));

  out.push(...rolloutAndCertValidity(kcp, o, { strategy, before, clusterConfiguration: kcpClusterConfiguration }, n, replicas !== undefined && replicas !== null));
  out.push(...machineNamingTemplate(`webhook/${kcp}.machine-naming`, o, `${naming}.template`));
  out.push(...kcpClusterConfigurationErrors(kcp, o, kcpClusterConfiguration));
  out.push(...kubeadmConfigSpecErrors(kcp, at(o, kcpSpec), kcpSpec, true, isV1beta1(o)));
  return out;
}

/**
 * `validateRolloutAndCertValidityFields`, shared by KubeadmControlPlane and its template (which has no replicas, so
 * the scale-in check does not apply: `replicasSet` false).
 */
function rolloutAndCertValidity(
  kind: string,
  o: Obj,
  paths: { strategy: string; before: string; clusterConfiguration: string },
  n: number | undefined,
  replicasSet: boolean,
): WebhookError[] {
  const out: WebhookError[] = [];
  const { strategy, before } = paths;
  const s = at(o, strategy);
  // An empty strategy skips every check, the certificate validity ones included.
  if (!defined(s)) return out;
  {
    if (str(rec(s).type) !== 'RollingUpdate') out.push(refuse(`webhook/${kind}.rollout-strategy`, 'FieldValueRequired', `${strategy}.type`, '', 'only RollingUpdate is supported'));
    const surge = at(s, 'rollingUpdate.maxSurge');
    if (surge !== undefined && surge !== null) {
      const v = intOrStringValue(surge);
      if (v === 0 && replicasSet && n !== undefined && n < 3) {
        out.push(
          refuse(
            `webhook/${kind}.rollout-strategy`,
            'FieldValueRequired',
            `${strategy}.rollingUpdate`,
            '',
            'when KubeadmControlPlane is configured to scale-in, replica count needs to be at least 3',
            'set maxSurge to 1, or run at least 3 control plane replicas',
          ),
        );
      }
      if (v !== 1 && v !== 0) out.push(refuse(`webhook/${kind}.rollout-strategy`, 'FieldValueRequired', `${strategy}.rollingUpdate.maxSurge`, '', 'value must be 1 or 0', 'set maxSurge to 1 (scale up first) or 0 (scale in first)'));
    }
  }
  const cc = rec(at(o, paths.clusterConfiguration));
  const validity = int(cc.certificateValidityPeriodDays) ?? 0;
  const caValidity = int(cc.caCertificateValidityPeriodDays) ?? 0;
  if (validity !== 0) {
    const p = `${paths.clusterConfiguration}.certificateValidityPeriodDays`;
    if (caValidity !== 0) {
      if (validity > caValidity) out.push(refuse(`webhook/${kind}.certificate-validity`, 'FieldValueInvalid', p, validity, `must be less than or equal to caCertificateValidityPeriodDays (${caValidity})`));
    } else if (validity > defaultCACertificatesExpiryDays) {
      out.push(refuse(`webhook/${kind}.certificate-validity`, 'FieldValueInvalid', p, validity, `must be less than or equal to the default value of caCertificateValidityPeriodDays (${defaultCACertificatesExpiryDays})`));
    }
    const expiry = int(at(o, `${before}.certificatesExpiryDays`)) ?? 0;
    if (expiry !== 0 && expiry >= validity) {
      out.push(refuse(`webhook/${kind}.certificate-validity`, 'FieldValueInvalid', `${before}.certificatesExpiryDays`, expiry, `must be less than certificateValidityPeriodDays (${validity})`));
    }
  }
  return out;
}

/** `util/container.ImageTagIsValid`. */
const imageTagIsValid = (tag: string): boolean => !/[^-a-zA-Z0-9_.]/.test(tag);

/** `validateClusterConfiguration` (create), at `path` (the ClusterConfiguration of a KubeadmControlPlane or its template). */
function kcpClusterConfigurationErrors(kind: string, o: Obj, path: string): WebhookError[] {
  const out: WebhookError[] = [];
  const cc = rec(at(o, path));
  const rule = `webhook/${kind}.cluster-configuration`;
  const dnsTag = str(at(cc, 'dns.imageTag')) ?? '';
  if (!imageTagIsValid(dnsTag)) out.push(refuse(rule, 'FieldValueForbidden', `${path}.dns.imageTag`, '', `tag ${dnsTag} is invalid`));
  if (dnsTag !== '') {
    const err = blangParseTolerantError(dnsTag.replaceAll('_', '+'));
    // Upstream reports this one without the spec prefix (field.NewPath("dns", "imageTag")).
    if (err) out.push(refuse(rule, 'FieldValueInvalid', 'dns.imageTag', dnsTag, `failed to parse CoreDNS version: ${err}`, 'set dns.imageTag to a CoreDNS version such as v1.12.0'));
  }
  const local = at(cc, 'etcd.local');
  const etcdTag = str(at(local, 'imageTag')) ?? '';
  if (defined(local) && !imageTagIsValid(etcdTag)) out.push(refuse(rule, 'FieldValueForbidden', `${path}.etcd.local.imageTag`, '', `tag ${etcdTag} is invalid`));
  if (defined(local) && defined(at(cc, 'etcd.external'))) {
    out.push(refuse(rule, 'FieldValueForbidden', `${path}.etcd.local`, '', 'cannot have both external and local etcd', 'keep either etcd.local or etcd.external'));
  }
  return out;
}

/**
 * `ValidateUpdate`'s allow-list (v1beta2, CAPI v1.11+; v1.12 added `encryptionAlgorithm`): every other changed path
 * is refused. A v1beta1 object is converted to v1beta2 before the webhook sees it, so its renamed fields map onto
 * the same entries (`rolloutStrategy` → `rollout.strategy`, `machineTemplate.infrastructureRef` →
 * `machineTemplate.spec.infrastructureRef`, …). `*` allows everything below.
 */
export const kcpAllowedUpdatePaths: readonly string[] = [
  'metadata.*',
  'spec.kubeadmConfigSpec.clusterConfiguration.etcd',
  'spec.kubeadmConfigSpec.clusterConfiguration.etcd.*',
  'spec.kubeadmConfigSpec.clusterConfiguration.etcd.local',
  'spec.kubeadmConfigSpec.clusterConfiguration.etcd.local.*',
  'spec.kubeadmConfigSpec.clusterConfiguration.etcd.external.*',
  'spec.kubeadmConfigSpec.clusterConfiguration.dns',
  'spec.kubeadmConfigSpec.clusterConfiguration.dns.*',
  'spec.kubeadmConfigSpec.clusterConfiguration.imageRepository',
  'spec.kubeadmConfigSpec.clusterConfiguration.featureGates',
  'spec.kubeadmConfigSpec.clusterConfiguration.featureGates.*',
  'spec.kubeadmConfigSpec.clusterConfiguration.apiServer',
  'spec.kubeadmConfigSpec.clusterConfiguration.apiServer.*',
  'spec.kubeadmConfigSpec.clusterConfiguration.controllerManager',
  'spec.kubeadmConfigSpec.clusterConfiguration.controllerManager.*',
  'spec.kubeadmConfigSpec.clusterConfiguration.scheduler',
  'spec.kubeadmConfigSpec.clusterConfiguration.scheduler.*',
  'spec.kubeadmConfigSpec.clusterConfiguration.certificateValidityPeriodDays',
  'spec.kubeadmConfigSpec.clusterConfiguration.encryptionAlgorithm',
  'spec.kubeadmConfigSpec.initConfiguration.nodeRegistration',
  'spec.kubeadmConfigSpec.initConfiguration.nodeRegistration.*',
  'spec.kubeadmConfigSpec.initConfiguration.patches.directory',
  'spec.kubeadmConfigSpec.initConfiguration.patches',
  'spec.kubeadmConfigSpec.initConfiguration.skipPhases',
  'spec.kubeadmConfigSpec.initConfiguration.bootstrapTokens',
  'spec.kubeadmConfigSpec.initConfiguration.localAPIEndpoint',
  'spec.kubeadmConfigSpec.initConfiguration.localAPIEndpoint.*',
  'spec.kubeadmConfigSpec.initConfiguration.timeouts',
  'spec.kubeadmConfigSpec.initConfiguration.timeouts.*',
  'spec.kubeadmConfigSpec.joinConfiguration.nodeRegistration',
  'spec.kubeadmConfigSpec.joinConfiguration.nodeRegistration.*',
  'spec.kubeadmConfigSpec.joinConfiguration.patches.directory',
  'spec.kubeadmConfigSpec.joinConfiguration.patches',
  'spec.kubeadmConfigSpec.joinConfiguration.skipPhases',
  'spec.kubeadmConfigSpec.joinConfiguration.caCertPath',
  'spec.kubeadmConfigSpec.joinConfiguration.controlPlane',
  'spec.kubeadmConfigSpec.joinConfiguration.controlPlane.*',
  'spec.kubeadmConfigSpec.joinConfiguration.discovery',
  'spec.kubeadmConfigSpec.joinConfiguration.discovery.*',
  'spec.kubeadmConfigSpec.joinConfiguration.timeouts',
  'spec.kubeadmConfigSpec.joinConfiguration.timeouts.*',
  'spec.kubeadmConfigSpec.bootCommands',
  'spec.kubeadmConfigSpec.preKubeadmCommands',
  'spec.kubeadmConfigSpec.postKubeadmCommands',
  'spec.kubeadmConfigSpec.files',
  'spec.kubeadmConfigSpec.verbosity',
  'spec.kubeadmConfigSpec.users',
  'spec.kubeadmConfigSpec.ntp',
  'spec.kubeadmConfigSpec.ntp.*',
  'spec.kubeadmConfigSpec.ignition',
  'spec.kubeadmConfigSpec.ignition.*',
  'spec.kubeadmConfigSpec.diskSetup',
  'spec.kubeadmConfigSpec.diskSetup.*',
  'spec.kubeadmConfigSpec.format',
  'spec.kubeadmConfigSpec.mounts',
  'spec.machineTemplate.metadata',
  'spec.machineTemplate.metadata.*',
  'spec.machineTemplate.spec',
  'spec.machineTemplate.spec.*',
  'spec.replicas',
  'spec.version',
  'spec.remediation',
  'spec.remediation.*',
  'spec.machineNaming',
  'spec.machineNaming.*',
  'spec.rollout',
  'spec.rollout.*',
];

/** v1beta1 names of fields the allow-list admits under their v1beta2 names (CAPI's v1beta1 ↔ v1beta2 conversion). */
const kcpV1beta1Allowed: readonly string[] = [
  'spec.kubeadmConfigSpec.useExperimentalRetryJoin',
  'spec.machineTemplate.infrastructureRef.*',
  'spec.machineTemplate.nodeDrainTimeout',
  'spec.machineTemplate.nodeVolumeDetachTimeout',
  'spec.machineTemplate.nodeDeletionTimeout',
  'spec.machineTemplate.readinessGates',
  'spec.remediationStrategy',
  'spec.remediationStrategy.*',
  'spec.machineNamingStrategy',
  'spec.machineNamingStrategy.*',
  'spec.rolloutAfter',
  'spec.rolloutBefore',
  'spec.rolloutBefore.*',
  'spec.rolloutStrategy',
  'spec.rolloutStrategy.*',
];

/** `pathsMatch` of the webhook, over dotted paths. */
function pathAllowed(allowed: readonly string[], path: readonly string[]): boolean {
  return allowed.some((a) => {
    const parts = a.split('.');
    let i = 0;
    for (i = 0; i < path.length; i++) {
      if (i > parts.length - 1) return false;
      if (parts[i] === '*') return true;
      if (path[i] !== parts[i]) return false;
    }
    return i - 1 >= parts.length - 1;
  });
}

/** The paths a JSON merge patch from `a` to `b` would name (`jsonpatch.CreateMergePatch` + the webhook's `paths`). */
export function mergePatchPaths(a: unknown, b: unknown, prefix: string[] = []): string[][] {
  if (!isRecord(a) || !isRecord(b)) return JSON.stringify(a) === JSON.stringify(b) ? [] : [prefix];
  const out: string[][] = [];
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const x = a[k];
    const y = b[k];
    if (y === undefined || y === null) {
      if (x !== undefined && x !== null) out.push([...prefix, k]);
      continue;
    }
    // A map added where there was none is in the patch whole; the webhook walks into it all the same.
    if (isRecord(y)) out.push(...mergePatchPaths(isRecord(x) ? x : {}, y, [...prefix, k]));
    else if (!sameJson(x, y)) out.push([...prefix, k]);
  }
  return out;
}

function sameJson(a: unknown, b: unknown): boolean {
  if (isRecord(a) && isRecord(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && sameJson(a[k], b[k]));
  }
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  return a === b;
}

/** A Kubernetes version as blang's `ParseTolerant` reads it: `[major, minor, patch]`, or null. */
function tolerantVersion(v: unknown): [number, number, number] | null {
  if (typeof v !== 'string' || blangParseTolerantError(v) !== null) return null;
  const m = /^v?0*(\d+)(?:\.0*(\d+))?(?:\.0*(\d+))?/.exec(v.trim());
  return m ? [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)] : null;
}

function kcpUpdate(before: Obj, after: Obj): WebhookError[] {
  const out: WebhookError[] = [];
  // Different API versions meet only after the API server's conversion, which is not modelled here.
  if (str(before.apiVersion) === str(after.apiVersion)) {
    const allowed = isV1beta1(after) ? [...kcpAllowedUpdatePaths, ...kcpV1beta1Allowed] : kcpAllowedUpdatePaths;
    const paths = mergePatchPaths(stripStatus(before), stripStatus(after))
      .filter((p) => p.length > 0 && !pathAllowed(allowed, p))
      .map((p) => p.join('.'))
      .sort();
    for (const p of paths) {
      out.push(refuse(`webhook/${kcp}.immutable`, 'FieldValueForbidden', p, '', 'cannot be modified', 'this field cannot change on an existing KubeadmControlPlane: create a new control plane (new name), or revert the change'));
    }
  }
  const fromText = String(at(before, 'spec.version') ?? '');
  const toText = String(at(after, 'spec.version') ?? '');
  const fromError = blangParseTolerantError(fromText);
  const toError = blangParseTolerantError(toText);
  const from = tolerantVersion(fromText);
  const to = tolerantVersion(toText);
  if (fromError) {
    const msg = `failed to parse current kubeadmcontrolplane version: ${fromText}: ${fromError}`;
    out.push(refuse(`webhook/${kcp}.version-skip`, 'InternalError', 'spec.version', msg, msg));
  } else if (toError) {
    const msg = `failed to parse updated kubeadmcontrolplane version: ${toText}: ${toError}`;
    out.push(refuse(`webhook/${kcp}.version-skip`, 'InternalError', 'spec.version', msg, msg));
  } else if (from && to && (to[0] > from[0] || (to[0] === from[0] && to[1] >= from[1] + 2))) {
    out.push(
      refuse(
        `webhook/${kcp}.version-skip`,
        'FieldValueForbidden',
        'spec.version',
        '',
        `cannot update Kubernetes version from ${fromText} to ${toText}`,
        'upgrade one minor version at a time: render and sync each intermediate minor',
      ),
    );
  }
  const wasExternal = kcpExternalEtcd(before);
  if (wasExternal !== kcpExternalEtcd(after)) {
    out.push(refuse(`webhook/${kcp}.etcd`, 'FieldValueForbidden', `${kcpClusterConfiguration}.etcd.external`, '', 'cannot change between external and local etcd', 'keep the etcd topology of the existing control plane'));
  }
  return out;
}

function stripStatus(o: Obj): Obj {
  const { status: _status, ...rest } = o;
  return rest;
}

// ---------------------------------------------------------------------------------------------------------------
// KubeadmControlPlaneTemplate (controlplane/kubeadm/internal/webhooks/kubeadmcontrolplanetemplate.go). The update
// rule (spec.template.spec immutable) is the template-immutability rule (src/capi/immutable-templates.ts); the
// ClusterTopology gate its create checks first is the feature gates' rule.

const kcpt = 'KubeadmControlPlaneTemplate';

/** `taints.ValidateMachineTaints` without its feature gate (CAPI v1.12+): reserved keys, and keys that are not label keys. */
function machineTaintErrors(rule: string, taints: unknown, path: string): WebhookError[] {
  const out: WebhookError[] = [];
  (Array.isArray(taints) ? taints : []).forEach((t, i) => {
    const key = str(rec(t).key) ?? '';
    const p = `${path}[${i}].key`;
    if (key === 'node.cluster.x-k8s.io/uninitialized' || key === 'node.cluster.x-k8s.io/outdated-revision') out.push(refuse(rule, 'FieldValueInvalid', p, key, 'taint key is not allowed'));
    else if (key.startsWith('node.kubernetes.io/') && key !== 'node.kubernetes.io/out-of-service') {
      out.push(refuse(rule, 'FieldValueInvalid', p, key, 'taint key must not have the prefix node.kubernetes.io/, except for node.kubernetes.io/out-of-service'));
    } else if (key.startsWith('node.cloudprovider.kubernetes.io/')) out.push(refuse(rule, 'FieldValueInvalid', p, key, 'taint key must not have the prefix node.cloudprovider.kubernetes.io/'));
    else if (key === 'node-role.kubernetes.io/master') out.push(refuse(rule, 'FieldValueInvalid', p, key, 'taint is deprecated since 1.24 and should not be used anymore', 'use node-role.kubernetes.io/control-plane'));
    for (const e of isQualifiedName(key)) out.push(refuse(rule, 'FieldValueInvalid', p, key, e));
  });
  return out;
}

function kcptCreate(o: Obj): WebhookError[] {
  const v1 = isV1beta1(o);
  const p = 'spec.template.spec';
  const spec = `${p}.kubeadmConfigSpec`;
  const clusterConfiguration = `${spec}.clusterConfiguration`;
  const paths = v1
    ? { strategy: `${p}.rolloutStrategy`, before: `${p}.rolloutBefore`, naming: `${p}.machineNamingStrategy` }
    : { strategy: `${p}.rollout.strategy`, before: `${p}.rollout.before`, naming: `${p}.machineNaming` };
  return [
    ...rolloutAndCertValidity(kcpt, o, { ...paths, clusterConfiguration }, undefined, false),
    ...machineNamingTemplate(`webhook/${kcpt}.machine-naming`, o, `${paths.naming}.template`),
    ...machineTaintErrors(`webhook/${kcpt}.taints`, at(o, `${p}.machineTemplate.spec.taints`), `${p}.machineTemplate.spec.taints`),
    ...objectMetaErrors(`webhook/${kcpt}.metadata`, at(o, `${p}.machineTemplate.metadata`), `${p}.machineTemplate.metadata`),
    ...kcpClusterConfigurationErrors(kcpt, o, clusterConfiguration),
    ...kubeadmConfigSpecErrors(kcpt, at(o, spec), spec, true, v1),
    ...objectMetaErrors(`webhook/${kcpt}.metadata`, at(o, 'spec.template.metadata'), 'spec.template.metadata'),
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// MachineDeployment, MachineSet, MachinePool (internal/webhooks/machinedeployment.go, machineset.go,
// machinepool.go)

function bootstrapRequired(kind: string, o: Obj): WebhookError[] {
  const b = rec(at(o, 'spec.template.spec.bootstrap'));
  if (defined(b.configRef) || typeof b.dataSecretName === 'string') return [];
  return [
    refuse(
      `webhook/${kind}.bootstrap`,
      'FieldValueRequired',
      'spec.template.spec.bootstrap',
      '',
      'expected either spec.template.spec.bootstrap.dataSecretName or spec.template.spec.bootstrap.configRef to be populated',
    ),
  ];
}

function sameClusterName(kind: string, o: Obj): WebhookError[] {
  const name = str(at(o, 'spec.clusterName')) ?? '';
  const templateName = str(at(o, 'spec.template.spec.clusterName')) ?? '';
  if (name === templateName) return [];
  return [
    refuse(`webhook/${kind}.cluster-name`, 'FieldValueInvalid', 'spec.clusterName', name, 'spec.clusterName and spec.template.spec.clusterName must be set to the same value', 'set both to the name of the Cluster'),
  ];
}

function clusterNameImmutable(kind: string, before: Obj, after: Obj): WebhookError[] {
  if ((str(at(before, 'spec.clusterName')) ?? '') === (str(at(after, 'spec.clusterName')) ?? '')) return [];
  return [refuse(`webhook/${kind}.cluster-name-immutable`, 'FieldValueForbidden', 'spec.clusterName', '', 'field is immutable', `a ${kind} cannot move to another Cluster: create a new one under another name`)];
}

function selectorErrors(kind: string, o: Obj, forbidden: boolean): WebhookError[] {
  const reqs = selectorRequirements(at(o, 'spec.selector'));
  const labels = rec(at(o, 'spec.template.metadata.labels'));
  if (selectorMatches(reqs, labels)) return [];
  const detail = `must match spec.selector ${goQuote(selectorText(reqs))}`;
  const hint = 'give spec.template.metadata.labels every label spec.selector asks for';
  return [forbidden
    ? refuse(`webhook/${kind}.selector`, 'FieldValueForbidden', 'spec.template.metadata.labels', '', detail, hint)
    : refuse(`webhook/${kind}.selector`, 'FieldValueInvalid', 'spec.template.metadata.labels', labels, detail, hint)];
}

function intOrPercent(rule: string, o: Obj, path: string): WebhookError[] {
  const v = at(o, path);
  if (v === undefined || v === null) return [];
  const err = intOrPercentError(v);
  return err ? [refuse(rule, 'FieldValueInvalid', path, intOrStringText(v), `must be either an int or a percentage: ${err}`)] : [];
}

function machineDeploymentDefaults(input: Obj): Obj {
  const o = withCapiWebhookDefaults(clone(input), str(input.apiVersion) ?? '', 'MachineDeployment');
  vPrefix(o, 'spec.template.spec.version');
  const strategy = isV1beta1(o) ? 'spec.strategy' : 'spec.rollout.strategy';
  const type = str(at(o, `${strategy}.type`));
  if (!type || type === 'RollingUpdate') {
    if (at(o, `${strategy}.rollingUpdate.maxSurge`) === undefined) put(o, `${strategy}.rollingUpdate.maxSurge`, 1);
    if (at(o, `${strategy}.rollingUpdate.maxUnavailable`) === undefined) put(o, `${strategy}.rollingUpdate.maxUnavailable`, 0);
  }
  return o;
}

function machineDeploymentCreate(o: Obj): WebhookError[] {
  const kind = 'MachineDeployment';
  const out: WebhookError[] = [];
  const name = str(at(o, 'metadata.name')) ?? '';
  for (const e of labelValueErrors(name)) out.push(refuse(`webhook/${kind}.name`, 'FieldValueInvalid', 'metadata.name', name, `must be a valid label value: ${e}`));
  out.push(...bootstrapRequired(kind, o), ...selectorErrors(kind, o, true), ...sameClusterName(kind, o));
  const v1 = isV1beta1(o);
  const strategy = v1 ? 'spec.strategy' : 'spec.rollout.strategy';
  out.push(...intOrPercent(`webhook/${kind}.rollout-strategy`, o, `${strategy}.rollingUpdate.maxUnavailable`));
  out.push(...intOrPercent(`webhook/${kind}.rollout-strategy`, o, `${strategy}.rollingUpdate.maxSurge`));
  const mu = at(o, `${strategy}.rollingUpdate.maxUnavailable`);
  const ms = at(o, `${strategy}.rollingUpdate.maxSurge`);
  if (mu === 0 && ms === 0) out.push(refuse(`webhook/${kind}.rollout-strategy`, 'FieldValueInvalid', `${strategy}.rollingUpdate`, '0', 'maxUnavailable and maxSurge cannot both be 0', 'set maxSurge or maxUnavailable above 0'));
  out.push(...intOrPercent(`webhook/${kind}.remediation`, o, v1 ? 'spec.strategy.remediation.maxInFlight' : 'spec.remediation.maxInFlight'));
  out.push(...versionFormat(`webhook/${kind}.version`, o, 'spec.template.spec.version'));
  out.push(...machineNamingTemplate(`webhook/${kind}.machine-naming`, o, v1 ? 'spec.machineNamingStrategy.template' : 'spec.machineNaming.template'));
  return out;
}

function machineSetDefaults(input: Obj): Obj {
  const o = withCapiWebhookDefaults(clone(input), str(input.apiVersion) ?? '', 'MachineSet');
  vPrefix(o, 'spec.template.spec.version');
  return o;
}

function machineSetCreate(o: Obj): WebhookError[] {
  const kind = 'MachineSet';
  const v1 = isV1beta1(o);
  return [
    ...bootstrapRequired(kind, o),
    ...selectorErrors(kind, o, false),
    ...sameClusterName(kind, o),
    ...versionFormat(`webhook/${kind}.version`, o, 'spec.template.spec.version'),
    ...machineNamingTemplate(`webhook/${kind}.machine-naming`, o, v1 ? 'spec.machineNamingStrategy.template' : 'spec.machineNaming.template'),
  ];
}

function machinePoolDefaults(input: Obj): Obj {
  const o = clone(input);
  vPrefix(o, 'spec.template.spec.version');
  return o;
}

function machinePoolCreate(o: Obj): WebhookError[] {
  const kind = 'MachinePool';
  return [...bootstrapRequired(kind, o), ...sameClusterName(kind, o), ...versionFormat(`webhook/${kind}.version`, o, 'spec.template.spec.version')];
}

// ---------------------------------------------------------------------------------------------------------------
// MachineHealthCheck (internal/webhooks/machinehealthcheck.go)

/** Go's `time.ParseDuration` for the units a timeout uses, in seconds; null when it does not parse. */
function durationSeconds(v: string): number | null {
  if (v === '0') return 0;
  const unit: Record<string, number> = { ns: 1e-9, us: 1e-6, µs: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };
  const re = /([0-9]*\.?[0-9]+)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let m: RegExpExecArray | null;
  let end = 0;
  while ((m = re.exec(v)) !== null) {
    total += Number(m[1]) * (unit[m[2] as string] ?? 0);
    end = re.lastIndex;
  }
  return end === v.length && end > 0 ? total : null;
}

function machineHealthCheckCreate(o: Obj): WebhookError[] {
  const kind = 'MachineHealthCheck';
  const out: WebhookError[] = [];
  const selector = at(o, 'spec.selector');
  if (selectorRequirements(selector).length === 0) out.push(refuse(`webhook/${kind}.selector`, 'FieldValueRequired', 'spec.selector', '', 'selector must not be empty', 'select the machines to check, e.g. by cluster.x-k8s.io/deployment-name'));
  const clusterLabel = rec(rec(selector).matchLabels)['cluster.x-k8s.io/cluster-name'];
  if (clusterLabel !== undefined && String(clusterLabel) !== (str(at(o, 'spec.clusterName')) ?? '')) {
    out.push(refuse(`webhook/${kind}.selector`, 'FieldValueInvalid', 'spec.selector', selector, 'cannot specify a cluster selector other than the one specified by ClusterName', 'drop the cluster-name label from the selector, or make it spec.clusterName'));
  }
  if (isV1beta1(o)) {
    const t = at(o, 'spec.nodeStartupTimeout');
    const secs = typeof t === 'string' ? durationSeconds(t) : null;
    if (typeof t === 'string' && secs !== null && secs !== 0 && secs < 30) out.push(refuse(`webhook/${kind}.timeouts`, 'FieldValueInvalid', 'spec.nodeStartupTimeout', t, 'must be at least 30s'));
    out.push(...intOrPercent(`webhook/${kind}.max-unhealthy`, o, 'spec.maxUnhealthy'));
  } else {
    const secs = int(at(o, 'spec.checks.nodeStartupTimeoutSeconds'));
    if (secs !== undefined && secs !== 0 && secs < 30) out.push(refuse(`webhook/${kind}.timeouts`, 'FieldValueInvalid', 'spec.checks.nodeStartupTimeoutSeconds', secs, 'must be at least 30s', 'use 0 to disable the check, or at least 30 seconds'));
    out.push(...intOrPercent(`webhook/${kind}.max-unhealthy`, o, 'spec.remediation.triggerIf.unhealthyLessThanOrEqualTo'));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Cluster (internal/webhooks/cluster.go); the class, its worker classes and versions list are checked with the
// topology (capi.topology-class, capi.topology-version and the expansion's worker checks).

const unsafeUpdateVersion = 'unsafe.topology.cluster.x-k8s.io/disable-update-version-check';
const unsafeUpdateClassName = 'unsafe.topology.cluster.x-k8s.io/disable-update-class-name-check';
const upgradeConcurrency = 'topology.cluster.x-k8s.io/upgrade-concurrency';

function clusterDefaults(input: Obj): Obj {
  const o = clone(input);
  vPrefix(o, 'spec.topology.version');
  return o;
}

const topologyClassName = (o: Obj): string => str(at(o, 'spec.topology.classRef.name')) ?? str(at(o, 'spec.topology.class')) ?? '';

function clusterCreate(o: Obj): WebhookError[] {
  const kind = 'Cluster';
  const out: WebhookError[] = [];
  const name = str(at(o, 'metadata.name')) ?? '';
  for (const e of labelValueErrors(name)) out.push(refuse(`webhook/${kind}.name`, 'FieldValueInvalid', 'metadata.name', name, `must be a valid label value ${e}`));
  const spec = rec(o.spec);
  if (!defined(spec.controlPlaneRef) && !defined(spec.infrastructureRef) && !defined(spec.topology)) {
    out.push(refuse(`webhook/${kind}.refs`, 'FieldValueForbidden', 'spec', '', 'one of spec.controlPlaneRef, spec.infrastructureRef or spec.topology must be set'));
  }
  if (!defined(spec.topology)) return out;
  if (topologyClassName(o) === '') {
    out.push(refuse(`webhook/${kind}.topology-class`, 'FieldValueRequired', 'spec.topology.class', '', 'classRef.name cannot be empty', 'name the ClusterClass in spec.topology.classRef.name'));
    return out;
  }
  const version = at(o, 'spec.topology.version');
  if (typeof version !== 'string' || !kubeSemver.test(version)) {
    out.push(refuse(`webhook/${kind}.topology-version`, 'FieldValueInvalid', 'spec.topology.version', version ?? '', 'version must be a valid semantic version', versionHint));
  }
  const annotations = rec(at(o, 'metadata.annotations'));
  if (upgradeConcurrency in annotations) {
    const v = String(annotations[upgradeConcurrency]);
    const p = `metadata.annotations.${upgradeConcurrency}`;
    if (!/^[+-]?[0-9]+$/.test(v)) out.push(refuse(`webhook/${kind}.upgrade-concurrency`, 'FieldValueInvalid', p, v, `could not parse the value of the annotation: strconv.Atoi: parsing ${goQuote(v)}: invalid syntax`));
    else if (Number(v) < 1) out.push(refuse(`webhook/${kind}.upgrade-concurrency`, 'FieldValueInvalid', p, v, 'value cannot be less than 1'));
  }
  return out;
}

/** semver.Version's `String()` as the webhook quotes it: without the `v`. */
function semverText(v: [number, number, number], raw: string): string {
  const rest = /^v?\d+(?:\.\d+)?(?:\.\d+)?(.*)$/.exec(raw.trim())?.[1] ?? '';
  return `${v[0]}.${v[1]}.${v[2]}${rest}`;
}

function clusterUpdate(before: Obj, after: Obj): WebhookError[] {
  const kind = 'Cluster';
  const out: WebhookError[] = [];
  const b = rec(before.spec);
  const a = rec(after.spec);
  if (defined(b.infrastructureRef) && !defined(a.infrastructureRef)) out.push(refuse(`webhook/${kind}.refs`, 'FieldValueForbidden', 'spec.infrastructureRef', '', 'cannot be removed'));
  if (defined(b.controlPlaneRef) && !defined(a.controlPlaneRef)) out.push(refuse(`webhook/${kind}.refs`, 'FieldValueForbidden', 'spec.controlPlaneRef', '', 'cannot be removed'));
  if (defined(b.topology) && !defined(a.topology)) {
    out.push(refuse(`webhook/${kind}.topology-removed`, 'FieldValueForbidden', 'spec.topology', '', 'cannot be removed from an existing Cluster', 'a managed Cluster cannot become unmanaged: keep spec.topology'));
    return out;
  }
  if (!defined(a.topology) || topologyClassName(after) === '') return out;
  const annotations = rec(at(after, 'metadata.annotations'));
  if (!defined(b.topology) || topologyClassName(before) === '') {
    if (!(unsafeUpdateClassName in annotations)) {
      out.push(refuse(`webhook/${kind}.topology-class`, 'FieldValueForbidden', 'spec.topology.class', '', 'classRef cannot be set on an existing Cluster', 'create the Cluster with its topology, or follow CAPI\'s "Cluster to ClusterClass" migration'));
    }
    return out;
  }
  if (unsafeUpdateVersion in annotations) return out;
  const rawTo = str(a.topology && rec(a.topology).version) ?? '';
  const rawFrom = str(rec(b.topology).version) ?? '';
  const to = tolerantVersion(rawTo);
  const from = tolerantVersion(rawFrom);
  if (!to || !from) return out;
  const cmp = to[0] - from[0] || to[1] - from[1] || to[2] - from[2];
  if (cmp < 0) {
    out.push(
      refuse(
        `webhook/${kind}.topology-version-decrease`,
        'FieldValueInvalid',
        'spec.topology.version',
        rawTo,
        `version cannot be decreased from ${goQuote(semverText(from, rawFrom))} to ${goQuote(semverText(to, rawTo))}`,
        'Kubernetes cannot be downgraded: keep the current version or a newer one',
      ),
    );
  }
  return out;
}

/**
 * The Cluster webhook's version rules that need the ClusterClass (internal/webhooks/cluster.go, CAPI v1.13): when the
 * class lists `spec.kubernetesVersions`, the new version must be one of them (`ValidateClusterForClusterClass`; the
 * chained upgrade then walks the list, which the ClusterClass webhook keeps without gaps), so a jump of any size is
 * accepted exactly when it lands on the chain. Without a list, more than one minor at once is refused (the version
 * ceiling), unless the class names a generateUpgradePlan extension (whose own webhook decides). Needs the head
 * tree's ClusterClass, so it is a rule of its own; without the class the webhook cannot decide and neither do we.
 */
export function clusterVersionCeiling(before: Obj, after: Obj, clusterClass: Obj | undefined): WebhookError[] {
  if (!clusterClass) return [];
  const cs = rec(clusterClass.spec);
  const rawTo = str(at(after, 'spec.topology.version')) ?? '';
  const rawFrom = str(at(before, 'spec.topology.version')) ?? '';
  const to = tolerantVersion(rawTo);
  const from = tolerantVersion(rawFrom);
  if (!to || !from || rawTo === rawFrom) return [];
  const versions = Array.isArray(cs.kubernetesVersions) ? cs.kubernetesVersions.filter((v): v is string => typeof v === 'string') : [];
  // ValidateClusterForClusterClass runs whatever the annotations say; the webhook compares the strings as written.
  if (versions.length > 0) {
    if (versions.includes(rawTo)) return [];
    return [
      refuse(
        'webhook/Cluster.topology-version-chain',
        'FieldValueInvalid',
        'spec.topology.version',
        rawTo,
        'version must match one of the versions defined in the ClusterClass',
        `use one of the ClusterClass's spec.kubernetesVersions (${versions.join(', ')}), or add ${rawTo} to that list`,
      ),
    ];
  }
  if (str(at(cs, 'upgrade.external.generateUpgradePlanExtension'))) return [];
  if (unsafeUpdateVersion in rec(at(after, 'metadata.annotations'))) return [];
  if (to[0] > from[0] || (to[0] === from[0] && to[1] >= from[1] + 2)) {
    return [
      refuse(
        'webhook/Cluster.topology-version-skip',
        'FieldValueInvalid',
        'spec.topology.version',
        rawTo,
        `version cannot be increased from ${goQuote(semverText(from, rawFrom))} to ${goQuote(semverText(to, rawTo))}`,
        "upgrade one minor at a time, or list the intermediate versions in the ClusterClass's spec.kubernetesVersions",
      ),
    ];
  }
  return [];
}

// ---------------------------------------------------------------------------------------------------------------

const none = (): WebhookError[] => [];
const same = (o: Obj): Obj => o;

/** The modelled webhooks, by group and kind. */
export const webhooks: readonly Webhook[] = [
  { group: controlPlaneGroup, kind: kcp, source: 'controlplane/kubeadm/internal/webhooks/kubeadmcontrolplane.go', defaults: kcpDefaults, create: kcpCreate, update: kcpUpdate },
  { group: controlPlaneGroup, kind: kcpt, source: 'controlplane/kubeadm/internal/webhooks/kubeadmcontrolplanetemplate.go', defaults: same, create: kcptCreate, update: none },
  {
    group: bootstrapGroup,
    kind: 'KubeadmConfig',
    source: 'bootstrap/kubeadm/internal/webhooks/kubeadmconfig.go',
    defaults: same,
    create: (o) => kubeadmConfigSpecErrors('KubeadmConfig', o.spec, 'spec', false, isV1beta1(o)),
    update: none,
  },
  {
    group: bootstrapGroup,
    kind: 'KubeadmConfigTemplate',
    source: 'bootstrap/kubeadm/internal/webhooks/kubeadmconfigtemplate.go',
    defaults: same,
    create: (o) => kubeadmConfigSpecErrors('KubeadmConfigTemplate', at(o, 'spec.template.spec'), 'spec.template.spec', false, isV1beta1(o)),
    update: none,
  },
  {
    group: core,
    kind: 'MachineDeployment',
    source: 'internal/webhooks/machinedeployment.go',
    defaults: machineDeploymentDefaults,
    create: machineDeploymentCreate,
    update: (b, a) => clusterNameImmutable('MachineDeployment', b, a),
  },
  { group: core, kind: 'MachineSet', source: 'internal/webhooks/machineset.go', defaults: machineSetDefaults, create: machineSetCreate, update: (b, a) => clusterNameImmutable('MachineSet', b, a) },
  { group: core, kind: 'MachinePool', source: 'internal/webhooks/machinepool.go', defaults: machinePoolDefaults, create: machinePoolCreate, update: (b, a) => clusterNameImmutable('MachinePool', b, a) },
  {
    group: core,
    kind: 'MachineHealthCheck',
    source: 'internal/webhooks/machinehealthcheck.go',
    defaults: same,
    create: machineHealthCheckCreate,
    update: (b, a) => clusterNameImmutable('MachineHealthCheck', b, a),
  },
  { group: core, kind: 'Cluster', source: 'internal/webhooks/cluster.go', defaults: clusterDefaults, create: clusterCreate, update: clusterUpdate },
  ...providerWebhooks,
  ...capdWebhooks,
  ...capm3Webhooks,
];

export function webhookOf(o: Obj): Webhook | undefined {
  const apiVersion = str(o.apiVersion) ?? '';
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.lastIndexOf('/')) : '';
  return webhooks.find((w) => w.group === group && w.kind === o.kind);
}

export interface AdmitOptions {
  /** Run the defaulting webhook first, as the API server does (upstream's tables call the validator alone). */
  defaults?: boolean;
  /** The ClusterClass a topology Cluster names, for the Cluster webhook's rules that read it (`clusterVersionCeiling`). */
  clusterClass?: Obj;
}

/** What the validating webhook refuses on create (no `before`) or update, after the defaulting webhook. */
export function admit(after: Obj, before?: Obj, options: AdmitOptions = {}): WebhookError[] {
  const w = webhookOf(after);
  if (!w || !isRecord(after.spec)) return [];
  const withDefaults = options.defaults ?? true;
  const a = withDefaults ? w.defaults(after) : after;
  const errors = before && w.createOnUpdate === false ? [] : [...w.create(a)];
  if (before) {
    const b = withDefaults ? w.defaults(before) : before;
    errors.push(...w.update(b, a));
    if (w.kind === 'Cluster') errors.push(...clusterVersionCeiling(b, a, options.clusterClass));
  }
  return errors;
}

/** The create checks over every object, as findings at each object. */
export function webhookCreateFindings(objects: readonly SourceObject[]): Finding[] {
  return objects.flatMap((src) => admit(src.object).map((e) => findingOf(src, e)));
}

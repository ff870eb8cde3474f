/**
 * ClusterClass and Cluster from `cluster.x-k8s.io/v1beta1` to the v1beta2 shape the engine works on, field for field
 * as CAPI's conversion webhook does (`api/core/v1beta1/conversion.go`): `ref` → `templateRef`, `namingStrategy` →
 * `naming`, `machineHealthCheck` → `healthCheck`, durations → `*Seconds`, `strategy` → `rollout.strategy`,
 * `class`/`classNamespace` → `classRef`, object references → `{apiGroup, kind, name}`. v1beta2 input is returned
 * as is (deep-copied). Fields the engine does not read pass through unchanged.
 */
import { parseGoDuration } from '../../config/clusterctl/index.js';
import type { KubeObject } from '../../yaml/index.js';
import { cloneJson as clone } from '../desired/index.js';
import { isObject as isObj } from '../../go/index.js';

type Obj = Record<string, unknown>;

export const clusterApiGroup = 'cluster.x-k8s.io';
export const clusterApiVersion = `${clusterApiGroup}/v1beta2`;

const obj = (v: unknown): Obj => (isObj(v) ? v : {});

/** Is this object of the v1beta1 API of cluster.x-k8s.io? */
export function isV1Beta1(o: KubeObject): boolean {
  return o.apiVersion === `${clusterApiGroup}/v1beta1`;
}

/** `clusterv1.ConvertToSeconds`: a Go duration string, truncated to whole seconds, capped at MaxInt32. */
export function durationToSeconds(d: unknown): number | undefined {
  if (typeof d !== 'string') return undefined;
  const ns = parseGoDuration(d);
  if (ns === null) return undefined;
  const s = Number(ns / 1_000_000_000n);
  return Math.min(s, 2147483647);
}

/** Drops keys whose value is undefined, and returns undefined for an empty result. */
function compact(o: Obj): Obj | undefined {
  const out: Obj = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return Object.keys(out).length > 0 ? out : undefined;
}

function templateRef(localObjectTemplate: unknown): Obj | undefined {
  const ref = obj(obj(localObjectTemplate).ref);
  if (Object.keys(ref).length === 0) return undefined;
  return compact({ apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name });
}

function deletion(src: Obj, order?: unknown): Obj | undefined {
  return compact({
    order,
    nodeDrainTimeoutSeconds: durationToSeconds(src.nodeDrainTimeout),
    nodeVolumeDetachTimeoutSeconds: durationToSeconds(src.nodeVolumeDetachTimeout),
    nodeDeletionTimeoutSeconds: durationToSeconds(src.nodeDeletionTimeout),
  });
}

function conditions(list: unknown): Obj[] | undefined {
  if (!Array.isArray(list)) return undefined;
  return list.map((c) => compact({ type: obj(c).type, status: obj(c).status, timeoutSeconds: durationToSeconds(obj(c).timeout) ?? 0 }) ?? {});
}

/** A v1beta1 `machineHealthCheck` (class or topology) as a v1beta2 `healthCheck`. */
function healthCheck(mhc: unknown, extra: Obj = {}): Obj | undefined {
  if (!isObj(mhc)) return compact(extra);
  const remediationTemplate = obj(mhc.remediationTemplate);
  return compact({
    enabled: mhc.enable,
    checks: compact({
      nodeStartupTimeoutSeconds: durationToSeconds(mhc.nodeStartupTimeout),
      unhealthyNodeConditions: conditions(mhc.unhealthyConditions),
      unhealthyMachineConditions: conditions(mhc.unhealthyMachineConditions),
    }),
    remediation: compact({
      ...obj(extra.remediation),
      triggerIf: compact({ unhealthyLessThanOrEqualTo: mhc.maxUnhealthy, unhealthyInRange: mhc.unhealthyRange }),
      templateRef:
        Object.keys(remediationTemplate).length > 0
          ? compact({ apiVersion: remediationTemplate.apiVersion, kind: remediationTemplate.kind, name: remediationTemplate.name })
          : undefined,
    }),
  });
}

/** v1beta1 `strategy` → v1beta2 `rollout` plus the deletion order and remediation it carried. */
function strategy(s: unknown): { rollout?: Obj; order?: unknown; maxInFlight?: unknown } {
  if (!isObj(s)) return {};
  const ru = obj(s.rollingUpdate);
  return {
    rollout: compact({
      strategy: compact({
        type: s.type,
        rollingUpdate: compact({ maxUnavailable: ru.maxUnavailable, maxSurge: ru.maxSurge }),
      }),
    }),
    order: ru.deletePolicy,
    maxInFlight: obj(s.remediation).maxInFlight,
  };
}

function naming(ns: unknown): Obj | undefined {
  return isObj(ns) && typeof ns.template === 'string' ? { template: ns.template } : undefined;
}

const v1beta1DurationKeys = ['nodeDrainTimeout', 'nodeVolumeDetachTimeout', 'nodeDeletionTimeout'];

function without(o: Obj, keys: string[]): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(o)) if (!keys.includes(k)) out[k] = v;
  return out;
}

function machineDeploymentClass(c: Obj): Obj {
  const template = obj(c.template);
  const s = strategy(c.strategy);
  return compact({
    ...without(c, ['template', 'strategy', 'machineHealthCheck', 'namingStrategy', ...v1beta1DurationKeys]),
    metadata: template.metadata,
    bootstrap: compact({ templateRef: templateRef(template.bootstrap) }),
    infrastructure: compact({ templateRef: templateRef(template.infrastructure) }),
    healthCheck: healthCheck(c.machineHealthCheck, s.maxInFlight !== undefined ? { remediation: { maxInFlight: s.maxInFlight } } : {}),
    naming: naming(c.namingStrategy),
    deletion: deletion(c, s.order),
    rollout: s.rollout,
  }) as Obj;
}

function machinePoolClass(c: Obj): Obj {
  const template = obj(c.template);
  return compact({
    ...without(c, ['template', 'namingStrategy', ...v1beta1DurationKeys]),
    metadata: template.metadata,
    bootstrap: compact({ templateRef: templateRef(template.bootstrap) }),
    infrastructure: compact({ templateRef: templateRef(template.infrastructure) }),
    naming: naming(c.namingStrategy),
    deletion: deletion(c),
  }) as Obj;
}

function variable(v: unknown): unknown {
  if (!isObj(v) || v.metadata === undefined) return v;
  return compact({ ...without(v, ['metadata']), deprecatedV1Beta1Metadata: v.metadata });
}

function patch(p: unknown): unknown {
  if (!isObj(p) || !isObj(p.external)) return p;
  const e = p.external;
  return {
    ...p,
    external: compact({
      generatePatchesExtension: e.generateExtension,
      validateTopologyExtension: e.validateExtension,
      discoverVariablesExtension: e.discoverVariablesExtension,
      settings: e.settings,
    }),
  };
}

/** A ClusterClass (v1beta1 or v1beta2) in the v1beta2 shape. */
export function clusterClassToV1Beta2(cc: KubeObject): KubeObject {
  const copy = clone(cc);
  if (!isV1Beta1(cc)) return copy;
  const spec = obj(copy.spec);
  const cp = obj(spec.controlPlane);
  const workers = obj(spec.workers);
  const out: Obj = {
    ...without(spec, ['infrastructureNamingStrategy']),
    infrastructure: compact({
      templateRef: templateRef(spec.infrastructure),
      naming: naming(spec.infrastructureNamingStrategy),
    }),
    controlPlane: compact({
      ...without(cp, ['ref', 'machineInfrastructure', 'machineHealthCheck', 'namingStrategy', ...v1beta1DurationKeys]),
      templateRef: templateRef(cp),
      machineInfrastructure: cp.machineInfrastructure !== undefined ? compact({ templateRef: templateRef(cp.machineInfrastructure) }) : undefined,
      healthCheck: healthCheck(cp.machineHealthCheck),
      naming: naming(cp.namingStrategy),
      deletion: deletion(cp),
    }),
    workers:
      spec.workers !== undefined
        ? compact({
            ...workers,
            machineDeployments: Array.isArray(workers.machineDeployments) ? workers.machineDeployments.map((c) => machineDeploymentClass(obj(c))) : undefined,
            machinePools: Array.isArray(workers.machinePools) ? workers.machinePools.map((c) => machinePoolClass(obj(c))) : undefined,
          })
        : undefined,
    variables: Array.isArray(spec.variables) ? spec.variables.map(variable) : undefined,
    patches: Array.isArray(spec.patches) ? spec.patches.map(patch) : undefined,
  };
  return { ...copy, apiVersion: clusterApiVersion, spec: compact(out) ?? {} };
}

function variablesOverrides(v: unknown): Obj | undefined {
  return isObj(v) ? v : undefined;
}

function controlPlaneTopology(cp: Obj, rolloutAfter: unknown): Obj | undefined {
  return compact({
    ...without(cp, ['machineHealthCheck', ...v1beta1DurationKeys]),
    rollout: rolloutAfter !== undefined ? { after: rolloutAfter } : undefined,
    healthCheck: healthCheck(cp.machineHealthCheck),
    deletion: deletion(cp),
    variables: variablesOverrides(cp.variables),
  });
}

function machineDeploymentTopology(md: Obj): Obj {
  const s = strategy(md.strategy);
  return compact({
    ...without(md, ['strategy', 'machineHealthCheck', ...v1beta1DurationKeys]),
    healthCheck: healthCheck(md.machineHealthCheck, s.maxInFlight !== undefined ? { remediation: { maxInFlight: s.maxInFlight } } : {}),
    deletion: deletion(md, s.order),
    rollout: s.rollout,
  }) as Obj;
}

function machinePoolTopology(mp: Obj): Obj {
  return compact({ ...without(mp, v1beta1DurationKeys), deletion: deletion(mp) }) as Obj;
}

/** A v1beta1 `corev1.ObjectReference` as a v1beta2 `ContractVersionedObjectReference`. */
function contractRef(ref: unknown): Obj | undefined {
  if (!isObj(ref)) return undefined;
  const apiVersion = typeof ref.apiVersion === 'string' ? ref.apiVersion : '';
  return compact({ apiGroup: apiVersion.includes('/') ? apiVersion.split('/')[0] : undefined, kind: ref.kind, name: ref.name });
}

/** A Cluster (v1beta1 or v1beta2) in the v1beta2 shape. */
export function clusterToV1Beta2(cluster: KubeObject): KubeObject {
  const copy = clone(cluster);
  if (!isV1Beta1(cluster)) return copy;
  const spec = obj(copy.spec);
  const out: Obj = { ...spec };
  if (spec.infrastructureRef !== undefined) out.infrastructureRef = contractRef(spec.infrastructureRef);
  if (spec.controlPlaneRef !== undefined) out.controlPlaneRef = contractRef(spec.controlPlaneRef);
  if (isObj(spec.topology)) {
    const t = spec.topology;
    const workers = obj(t.workers);
    out.topology = compact({
      ...without(t, ['class', 'classNamespace', 'rolloutAfter']),
      classRef: compact({ name: t.class, namespace: t.classNamespace }),
      controlPlane: controlPlaneTopology(obj(t.controlPlane), t.rolloutAfter),
      workers:
        t.workers !== undefined
          ? compact({
              ...workers,
              machineDeployments: Array.isArray(workers.machineDeployments)
                ? workers.machineDeployments.map((m) => machineDeploymentTopology(obj(m)))
                : undefined,
              machinePools: Array.isArray(workers.machinePools) ? workers.machinePools.map((m) => machinePoolTopology(obj(m))) : undefined,
            })
          : undefined,
    });
  }
  return { ...copy, apiVersion: clusterApiVersion, spec: out };
}

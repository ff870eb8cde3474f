/**
 * The config's escape hatches on provider objects, applied after clusterctl's rendering in a fixed order:
 * `manager` flags, then `deployment` settings (both with the Cluster API Operator's ProviderSpec semantics), then the
 * RFC 6902 `patches` last.
 */
import { parseFeatureGates as parseGates } from '../../capi/index.js';
import { BoundExceededError, InputError } from '../../errors.js';
import { applyJsonPatch, asObject as rec, type JsonPatchOperation, setOwn, valueAtPointer, workBoundEnv, workBounds } from '../../go/index.js';
import type { ResolvedProvider } from '../../config/index.js';
import type { KubeObject } from './deps.js';

type Obj = Record<string, unknown>;

/** The operator's `setArgs`: replace `--name=…` (or a bare `--name`) in place, else append `--name=value`. */
export function setArg(args: string[], name: string, value: string): string[] {
  const out = [...args];
  const i = out.findIndex((a) => a === name || a.startsWith(`${name}=`));
  if (i >= 0) out[i] = `${name}=${value}`;
  else out.push(`${name}=${value}`);
  return out;
}

/** Flags for the `manager` container, in a fixed order. */
export function managerFlags(m: NonNullable<ResolvedProvider['manager']>): [string, string][] {
  const flags: [string, string][] = [];
  if (m.syncPeriod !== undefined) flags.push(['--sync-period', m.syncPeriod]);
  if (m.metricsBindAddress !== undefined) flags.push(['--metrics-bind-addr', m.metricsBindAddress]);
  if (m.healthAddr !== undefined) flags.push(['--health-addr', m.healthAddr]);
  if (m.profilerAddress !== undefined) flags.push(['--profiler-address', m.profilerAddress]);
  if (m.maxConcurrentReconciles !== undefined) flags.push(['--max-concurrent-reconciles', String(m.maxConcurrentReconciles)]);
  if (m.verbosity !== undefined) flags.push(['--v', String(m.verbosity)]);
  for (const k of Object.keys(m.additionalArgs ?? {}).sort()) flags.push([k, m.additionalArgs![k]!]);
  return flags;
}

/**
 * `manager.featureGates` merged into the `--feature-gates` the release already passes: the release's gates keep their
 * order and value unless the config sets them (an explicit `false` turns one off), gates the release does not set
 * follow, sorted. Replacing the whole list would silently drop gates upstream turns on (CAPD's MachinePool). Returns
 * the new args and every upstream gate whose value the config changes.
 */
export function mergeFeatureGates(args: readonly string[], gates: Readonly<Record<string, boolean>>): { args: string[]; overrides: { gate: string; release: string; config: string }[] } {
  const at = args.findIndex((a) => a === '--feature-gates' || a.startsWith('--feature-gates='));
  // `--feature-gates A=true` (value as the next argument) is kept as one `--feature-gates=…` argument.
  const split = at >= 0 && args[at] === '--feature-gates';
  const upstream = at < 0 ? [] : parseGates(split ? (args[at + 1] ?? '') : args[at]!.slice('--feature-gates='.length));
  const overrides: { gate: string; release: string; config: string }[] = [];
  const merged = upstream.map(([name, value]): [string, string] => {
    if (!Object.hasOwn(gates, name)) return [name, value];
    const want = String(gates[name]);
    if (want !== value) overrides.push({ gate: name, release: value, config: want });
    return [name, want];
  });
  const known = new Set(upstream.map(([n]) => n));
  for (const name of Object.keys(gates).sort()) if (!known.has(name)) merged.push([name, String(gates[name])]);
  const flag = `--feature-gates=${merged.map(([n, v]) => `${n}=${v}`).join(',')}`;
  const out = [...args];
  if (at < 0) out.push(flag);
  else out.splice(at, split ? 2 : 1, flag);
  return { args: out, overrides };
}

function containersOf(deploy: Obj): Obj[] {
  const spec = rec(rec(rec(deploy.spec)?.template)?.spec);
  return Array.isArray(spec?.containers) ? (spec.containers as Obj[]) : [];
}

export function needsCustomizing(p: ResolvedProvider): boolean {
  return p.manager !== undefined || p.deployment !== undefined || p.patches.length > 0;
}

/**
 * Applies `manager`, `deployment` and `patches` to (a deep copy of) the objects; what the config overrides of the
 * release's own settings (feature gates) is added to `notes`.
 */
export function customizeObjects(objects: readonly KubeObject[], p: ResolvedProvider, notes: string[] = []): KubeObject[] {
  const objs = structuredClone(objects as KubeObject[]);
  const managerDeployments = objs.filter((o) => o.kind === 'Deployment' && containersOf(o).some((c) => c.name === 'manager'));
  if ((p.manager || p.deployment) && managerDeployments.length === 0) {
    throw new InputError(`${p.label} has no Deployment with a "manager" container to apply manager/deployment settings to`, {
      where: `${p.configPath}.${p.manager ? 'manager' : 'deployment'}`,
    });
  }
  for (const d of managerDeployments) {
    if (p.manager) {
      const c = containersOf(d).find((x) => x.name === 'manager')!;
      let args = Array.isArray(c.args) ? (c.args as string[]) : [];
      for (const [k, v] of managerFlags(p.manager)) args = setArg(args, k, v);
      if (p.manager.featureGates && Object.keys(p.manager.featureGates).length > 0) {
        const merged = mergeFeatureGates(args, p.manager.featureGates);
        args = merged.args;
        for (const o of merged.overrides) {
          const note = `${p.label}: ${p.configPath}.manager.featureGates overrides the release's ${o.gate}=${o.release} with ${o.gate}=${o.config}`;
          if (!notes.includes(note)) notes.push(note);
        }
      }
      c.args = args;
    }
    const dep = p.deployment;
    if (!dep) continue;
    const spec = (d.spec ??= {}) as Obj;
    if (dep.replicas !== undefined) spec.replicas = dep.replicas;
    const podSpec = rec(rec(spec.template)?.spec)!;
    if (dep.nodeSelector) podSpec.nodeSelector = { ...dep.nodeSelector };
    if (dep.tolerations) podSpec.tolerations = structuredClone(dep.tolerations);
    if (dep.affinity) podSpec.affinity = structuredClone(dep.affinity);
    dep.containers?.forEach((want, i) => {
      const c = containersOf(d).find((x) => x.name === want.name);
      if (!c) {
        throw new InputError(`${p.label}: Deployment ${String(rec(d.metadata)?.name)} has no container "${want.name}"`, {
          where: `${p.configPath}.deployment.containers[${i}].name`,
          hint: `containers: ${containersOf(d).map((x) => String(x.name)).join(', ')}`,
        });
      }
      if (want.image) c.image = want.image;
      if (want.args) {
        let args = Array.isArray(c.args) ? (c.args as string[]) : [];
        for (const k of Object.keys(want.args).sort()) args = setArg(args, k, want.args[k]!);
        c.args = args;
      }
      if (want.env) {
        const env = Array.isArray(c.env) ? [...(c.env as Obj[])] : [];
        for (const e of want.env) {
          const at = env.findIndex((x) => x.name === e.name);
          const value = structuredClone(e) as Obj;
          if (at >= 0) env[at] = value;
          else env.push(value);
        }
        c.env = env;
      }
      if (want.resources) c.resources = structuredClone(want.resources);
    });
  }
  applyJsonPatches(objs, p.patches, p.configPath, p.label);
  return objs;
}

/** What a patch may not change of an object it targets: what names the object, and so its file and its owner. */
const identityFields = [
  ['kind', (o: KubeObject): unknown => o.kind],
  ['apiVersion', (o: KubeObject): unknown => o.apiVersion],
  ['metadata.name', (o: KubeObject): unknown => rec(o.metadata)?.name],
  ['metadata.namespace', (o: KubeObject): unknown => rec(o.metadata)?.namespace],
] as const;

function describeObject(o: KubeObject): string {
  const m = rec(o.metadata);
  return `${String(o.kind)} ${m?.namespace ? `${String(m.namespace)}/` : ''}${String(m?.name)}`;
}

/** JSON size of a value in UTF-16 units (what the patch bound counts; `undefined` is nothing). */
function jsonSize(v: unknown): number {
  return v === undefined ? 0 : (JSON.stringify(v)?.length ?? 0);
}

/**
 * Applies each RFC 6902 patch, in order, to every object its target selects (a provider's, or a cluster's after its
 * template). A target that selects nothing, an operation that fails, or a patch that changes the kind, apiVersion,
 * name or namespace of an object (which would move it out of its cluster or provider: another file, another
 * namespace, another kind of object) is an InputError at `<configPath>.patches[i]`. The operations of all patches
 * and the size each patched object grows to are bounded (docs/security-bounds.md): a BoundExceededError (exit 3).
 */
export function applyJsonPatches(objs: KubeObject[], patches: ResolvedProvider['patches'], configPath: string, of: string): void {
  const bounds = workBounds();
  let operations = 0;
  patches.forEach((patch, i) => {
    const where = `${configPath}.patches[${i}]`;
    const t = patch.target;
    const targets = objs.filter((o) => {
      const m = rec(o.metadata);
      return (
        (t.apiVersion === undefined || o.apiVersion === t.apiVersion) &&
        (t.kind === undefined || o.kind === t.kind) &&
        (t.name === undefined || m?.name === t.name) &&
        (t.namespace === undefined || m?.namespace === t.namespace)
      );
    });
    if (targets.length === 0) {
      throw new InputError(`patch target ${JSON.stringify(t)} matches no object of ${of}`, { where: `${where}.target` });
    }
    operations += patch.patch.length * targets.length;
    if (operations > bounds.patchOperations) {
      throw new BoundExceededError(
        `${of}: ${where} brings the patch operations to apply to ${operations}, more than ${bounds.patchOperations} (the bound of ${workBoundEnv.patchOperations})`,
        workBoundEnv.patchOperations,
        { where, hint: `patches change a few fields; if these are genuine, raise the bound with ${workBoundEnv.patchOperations}` },
      );
    }
    for (const o of targets) {
      const before = identityFields.map(([, get]) => get(o));
      const name = describeObject(o);
      // An upper bound of the object's size as it grows: what it was, plus every value an operation puts in.
      let size = jsonSize(o);
      let patched: Obj;
      try {
        const result = applyJsonPatch(o, patch.patch as readonly JsonPatchOperation[], {
          // The object is this render's own copy, and a failing patch fails the render.
          inPlace: true,
          beforeOperation: (op, doc) => {
            if (op.op === 'copy') size += jsonSize(valueAtPointer(doc as Obj, op.from as string));
            else if (op.op === 'add' || op.op === 'replace') size += jsonSize(op.value);
            if (size > bounds.patchResultBytes) {
              throw new BoundExceededError(
                `${of}: ${where} makes ${name} larger than ${bounds.patchResultBytes} bytes (the bound of ${workBoundEnv.patchResultBytes})`,
                workBoundEnv.patchResultBytes,
                { where, hint: `look for a "copy" that doubles the object; if the object is genuinely this large, raise the bound with ${workBoundEnv.patchResultBytes}` },
              );
            }
          },
        });
        // A whole-document `add`/`replace` may leave an array: Kubernetes objects are objects.
        if (Array.isArray(result)) throw new Error('the patched object is not an object');
        patched = result;
      } catch (err) {
        if (err instanceof BoundExceededError) throw err;
        throw new InputError(`patch failed on ${name}: ${(err as Error).message.split('\n')[0]}`, { where });
      }
      // A whole-document `add`/`replace` gives a new object: this one keeps its identity (callers hold it) and takes
      // the patched fields, in their order.
      if (patched !== o) {
        for (const k of Object.keys(o)) delete o[k];
        for (const k of Object.keys(patched)) setOwn(o, k, patched[k]);
      }
      identityFields.forEach(([field, get], k) => {
        const was = before[k];
        const now = get(o);
        if (now === was) return;
        throw new InputError(`${where} changes ${field} of ${name} from ${JSON.stringify(was) ?? 'unset'} to ${JSON.stringify(now) ?? 'unset'}: a patch may not change the kind, apiVersion, name or namespace of an object`, {
          where,
          hint: `a patch changes fields of the objects of ${of}, it cannot move or turn one into another object; remove the operation on ${field}`,
        });
      });
    }
  });
}

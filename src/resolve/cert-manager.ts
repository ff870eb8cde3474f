/**
 * The cert-manager upgrade decision (`client/cluster/cert_manager.go` `shouldUpgrade`), as a pure function over
 * the installed cert-manager objects and the objects clusterctl would install.
 */
import { InputError } from '../errors.js';
import { asObject as rec, compareWithBuildTags, parseTolerant } from '../go/index.js';

export const certManagerVersionAnnotation = 'cert-manager.clusterctl.cluster.x-k8s.io/version';
/** What an object without the version annotation is taken to be (installed by clusterctl < v0.3.9). */
export const certManagerUnannotatedVersion = 'v0.11.0';

type Obj = Record<string, unknown>;

function ignored(o: Obj): boolean {
  return o.kind === 'Endpoints' || o.kind === 'EndpointSlice';
}

/** Container and init-container images of Deployments and DaemonSets (clusterctl `InspectImages`). */
function images(objs: readonly Obj[]): string[] {
  const out: string[] = [];
  for (const o of objs) {
    if (o.kind !== 'Deployment' && o.kind !== 'DaemonSet') continue;
    const spec = rec(rec(rec(o.spec)?.template)?.spec);
    for (const key of ['containers', 'initContainers']) {
      const list = spec?.[key];
      if (!Array.isArray(list)) continue;
      for (const c of list) {
        const image = rec(c)?.image;
        if (typeof image === 'string') out.push(image);
      }
    }
  }
  return out.sort();
}

export interface CertManagerUpgradeDecision {
  shouldUpgrade: boolean;
  /** The installed version that decided (last examined object), `""` when no object was examined. */
  fromVersion: string;
}

/**
 * `shouldUpgrade(desiredVersion, installed, toInstall)`: Endpoints/EndpointSlices are ignored; an object without the
 * version annotation means v0.11.0 and an upgrade; an older installed version or different non-numeric build
 * metadata means an upgrade; a newer one means none; an equal one means an upgrade only when the object counts or
 * the sorted image lists differ.
 */
export function certManagerShouldUpgrade(
  desiredVersion: string,
  installed: readonly Obj[],
  toInstall: readonly Obj[],
): CertManagerUpgradeDecision {
  let fromVersion = '';
  let needUpgrade = false;
  let sawEqual = false;
  let sawNewer = false;
  const desired = parseTolerant(desiredVersion);
  for (const obj of installed) {
    if (ignored(obj)) continue;
    const annotations = rec(rec(obj.metadata)?.annotations);
    const v = annotations?.[certManagerVersionAnnotation];
    if (typeof v !== 'string') {
      return { shouldUpgrade: true, fromVersion: certManagerUnannotatedVersion };
    }
    const meta = rec(obj.metadata);
    const objVersion = parseTolerant(v);
    if (!objVersion) {
      throw new InputError(
        `failed to parse version for cert-manager component ${String(obj.kind ?? '')}/${String(meta?.name ?? '')}: ${JSON.stringify(v)} is not a semantic version`,
      );
    }
    if (!desired) {
      throw new InputError(`failed to parse config version [${desiredVersion}] for cert-manager component`, {
        hint: 'set cert-manager.version in clusterctl.yaml to a version such as v1.21.1',
      });
    }
    const c = compareWithBuildTags(objVersion, desired);
    fromVersion = v;
    if (c < 0 || c === 2) {
      needUpgrade = true;
      break;
    }
    if (c === 0) sawEqual = true;
    else sawNewer = true;
  }
  if (!needUpgrade && sawEqual && !sawNewer) {
    const installedCount = installed.filter((o) => !ignored(o)).length;
    const a = images(installed);
    const b = images(toInstall);
    if (installedCount !== toInstall.length || a.length !== b.length || a.some((x, i) => x !== b[i])) {
      needUpgrade = true;
    }
  }
  return { shouldUpgrade: needUpgrade, fromVersion };
}

/**
 * Temporary stand-in for helper C's `certManagerShouldUpgrade` (src/resolve/cert-manager.ts, same signature); this
 * file is deleted when that lands on main. clusterctl `cert_manager.go` `shouldUpgrade`.
 */
import { InputError } from '../../errors.js';

type Obj = Record<string, unknown>;

export const certManagerVersionAnnotation = 'cert-manager.clusterctl.cluster.x-k8s.io/version';

interface Tolerant {
  v: [number, number, number];
  pre: string;
  build: string[];
}

function rec(v: unknown): Obj | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;
}

function parseTolerant(input: string): Tolerant | null {
  let s = input.trim().replace(/^v/, '');
  const head = s.split(/[-+]/, 1)[0] ?? '';
  const dots = head.split('.').length;
  if (dots < 3) s = head + '.0'.repeat(3 - dots) + s.slice(head.length);
  const m = /^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(?:-([0-9A-Za-z.-]+))?(?:\+([0-9A-Za-z.-]+))?$/.exec(s);
  if (!m) return null;
  return {
    v: [Number(m[1]), Number(m[2]), Number(m[3])],
    pre: m[4] ?? '',
    build: m[5] ? m[5].split('.') : [],
  };
}

function compareWithBuildTags(a: Tolerant, b: Tolerant): -1 | 0 | 1 | 2 {
  for (let i = 0; i < 3; i++) {
    const x = a.v[i] as number;
    const y = b.v[i] as number;
    if (x !== y) return x < y ? -1 : 1;
  }
  if (a.pre !== b.pre) {
    if (a.pre === '') return 1;
    if (b.pre === '') return -1;
    return a.pre < b.pre ? -1 : 1;
  }
  let i = 0;
  for (; i < a.build.length && i < b.build.length; i++) {
    const x = a.build[i] as string;
    const y = b.build[i] as string;
    const xn = /^[0-9]+$/.test(x);
    const yn = /^[0-9]+$/.test(y);
    if (xn && yn) {
      if (Number(x) !== Number(y)) return Number(x) < Number(y) ? -1 : 1;
    } else if (xn) return -1;
    else if (yn) return 1;
    else if (x !== y) return 2;
  }
  if (i === a.build.length && i === b.build.length) return 0;
  return i === a.build.length ? -1 : 1;
}

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
  fromVersion: string;
}

/** `shouldUpgrade(desiredVersion, installed, toInstall)` (spec §1.12). */
export function certManagerShouldUpgrade(
  desiredVersion: string,
  installed: readonly Obj[],
  toInstall: readonly Obj[],
): CertManagerUpgradeDecision {
  const desired = parseTolerant(desiredVersion);
  if (!desired) throw new InputError(`failed to parse config version [${desiredVersion}] for cert-manager component`);
  let fromVersion = '';
  for (const obj of installed) {
    if (obj.kind === 'Endpoints' || obj.kind === 'EndpointSlice') continue;
    const v = rec(rec(obj.metadata)?.annotations)?.[certManagerVersionAnnotation];
    if (typeof v !== 'string') return { shouldUpgrade: true, fromVersion: 'v0.11.0' };
    const parsed = parseTolerant(v);
    if (!parsed) {
      const name = String(rec(obj.metadata)?.name ?? '');
      throw new InputError(`failed to parse version for cert-manager component ${String(obj.kind ?? '')}/${name}`);
    }
    fromVersion = v;
    const c = compareWithBuildTags(parsed, desired);
    let needUpgrade: boolean;
    if (c < 0 || c === 2) needUpgrade = true;
    else if (c > 0) needUpgrade = false;
    else {
      const a = images(installed);
      const b = images(toInstall);
      needUpgrade = installed.length !== toInstall.length || a.length !== b.length || a.some((x, i) => x !== b[i]);
    }
    if (needUpgrade) return { shouldUpgrade: true, fromVersion };
  }
  return { shouldUpgrade: false, fromVersion };
}

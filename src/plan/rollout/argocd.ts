/**
 * What Argo CD does with an object that leaves git, read from the tree's own Argo CD glue (`argocd/`): the
 * Applications capiform generates (src/render/argocd) or the user's own, whatever their names.
 *
 * - The object's directory is still synced by an Application on the head side: that Application's automated
 *   `prune` decides. `prune: true` deletes it; `prune: false` (capiform's default) or a manual sync leaves it running,
 *   the Application OutOfSync ("requires pruning").
 * - Its Application is gone too (the cluster was removed from the config, so was its Application, or its
 *   ApplicationSet element / git directory): Argo CD deletes the Application object, and the resources only go with
 *   it when the Application carries the `resources-finalizer.argocd.argoproj.io` finalizer and its ApplicationSet (if
 *   any) does not preserve resources on deletion. capiform's Applications have no finalizer and its ApplicationSets
 *   set `preserveResourcesOnDeletion: true`, so the object is left running.
 * - No glue on either side: unknown, it depends on how the tree is deployed.
 */
import type { TreeIndex, TreeObject } from '../diff/objects.js';
import { objectOrEmpty as rec } from '../../go/index.js';

const argoGroup = 'argoproj.io';
const resourcesFinalizer = 'resources-finalizer.argocd.argoproj.io';

export interface RemovalFate {
  kind: 'deletion' | 'orphaned';
  /** Which Argo CD setting decides, in words. */
  why: string;
  /** For an orphaned object: the command that deletes it. */
  hint?: string;
}

/** What decides the fate of removed objects: each side's Applications and ApplicationSets. */
interface Glue {
  apps: { name: string; path: string; prune: boolean; finalizer: boolean }[];
  sets: { name: string; targets: string[]; prune: boolean; finalizer: boolean; preserve: boolean }[];
}

function pruneOf(spec: Record<string, unknown>): boolean {
  return rec(rec(spec.syncPolicy).automated).prune === true;
}

function hasFinalizer(meta: Record<string, unknown>): boolean {
  return Array.isArray(meta.finalizers) && meta.finalizers.some((f) => typeof f === 'string' && f.startsWith(resourcesFinalizer));
}

function glueOf(objects: readonly TreeObject[]): Glue {
  const glue: Glue = { apps: [], sets: [] };
  for (const o of objects) {
    if (o.group !== argoGroup) continue;
    const spec = rec(o.object.spec);
    if (o.kind === 'Application') {
      const path = rec(spec.source).path;
      if (typeof path !== 'string') continue;
      glue.apps.push({ name: o.name, path: path.replace(/^\.\/|\/+$/g, ''), prune: pruneOf(spec), finalizer: hasFinalizer(rec(o.object.metadata)) });
    } else if (o.kind === 'ApplicationSet') {
      const template = rec(spec.template);
      glue.sets.push({
        name: o.name,
        targets: selectedTargets(spec),
        prune: pruneOf(rec(template.spec)),
        finalizer: hasFinalizer(rec(template.metadata)),
        preserve: rec(spec.syncPolicy).preserveResourcesOnDeletion === true,
      });
    }
  }
  return glue;
}

/**
 * The management clusters a fleet's ApplicationSet selects by name (its cluster generators'
 * `capiform.io/management-cluster In [...]`); empty for one that selects by other means.
 */
function selectedTargets(spec: Record<string, unknown>): string[] {
  const out: string[] = [];
  const generators = Array.isArray(spec.generators) ? spec.generators : [];
  for (const g of generators) {
    const inner = rec(rec(g).matrix).generators;
    for (const m of Array.isArray(inner) ? inner : []) {
      const exprs = rec(rec(rec(m).clusters).selector).matchExpressions;
      for (const e of Array.isArray(exprs) ? exprs : []) {
        const x = rec(e);
        if (x.key === 'capiform.io/management-cluster' && x.operator === 'In' && Array.isArray(x.values)) out.push(...x.values.filter((v): v is string => typeof v === 'string'));
      }
    }
  }
  return out;
}

/** The ApplicationSet stamping `target`'s Applications (a fleet has one per management cluster), else the first. */
function setFor(glue: Glue, target: string | undefined): Glue['sets'][number] | undefined {
  return (target !== undefined ? glue.sets.find((s) => s.targets.includes(target)) : undefined) ?? glue.sets[0];
}

/** The Argo CD objects of a tree (files under `argocd/`, and Applications anywhere else a text check finds). */
function argoObjects(index: TreeIndex): TreeObject[] {
  return index.where('text:argoproj.io', (_p, t) => t.includes('argoproj.io/')).filter((o) => o.group === argoGroup);
}

/** The Application syncing `dir` (or a folder above it): its source path is that folder, wherever the tree sits in the repository. */
function appFor(glue: Glue, dir: string): Glue['apps'][number] | undefined {
  let best: Glue['apps'][number] | undefined;
  for (const a of glue.apps) {
    if (a.path === '') continue;
    for (let d = dir; d !== ''; d = d.includes('/') ? d.slice(0, d.lastIndexOf('/')) : '') {
      if (a.path === d || a.path.endsWith(`/${d}`)) {
        if (!best || a.path.length > best.path.length) best = a;
        break;
      }
    }
  }
  return best;
}

function dirOf(file: string): string {
  return file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
}

/**
 * A function telling the fate of a removed object from its file. `prefix` is where the trees' files sit in the
 * indexes (`targets/<name>/` for one management cluster of a fleet), `hasFiles` whether the head tree still has files
 * under a folder (an ApplicationSet's git generator drops a folder that is gone).
 */
export function removalFates(base: TreeIndex, head: TreeIndex, prefix = '', target?: string): (o: TreeObject) => RemovalFate | undefined {
  let sides: { base: Glue; head: Glue } | undefined;
  return (o: TreeObject) => {
    sides ??= { base: glueOf(argoObjects(base)), head: glueOf(argoObjects(head)) };
    const fate = fateOf(sides, head, dirOf(`${prefix}${o.file}`), target);
    return fate?.kind === 'orphaned' ? { ...fate, hint: deleteCommand(o, target) } : fate;
  };
}

function fateOf(sides: { base: Glue; head: Glue }, head: TreeIndex, dir: string, target: string | undefined): RemovalFate | undefined {
  const headApp = appFor(sides.head, dir);
  if (headApp) {
    return headApp.prune
      ? { kind: 'deletion', why: `Argo CD Application ${headApp.name} prunes (syncPolicy.automated.prune: true)` }
      : { kind: 'orphaned', why: `Argo CD Application ${headApp.name} does not prune (prune: false or manual sync): it shows OutOfSync, requires pruning` };
  }
  const stillThere = head.filesUnder(`${dir}/`).length > 0;
  const headSet = setFor(sides.head, target);
  if (headSet && stillThere) {
    return headSet.prune
      ? { kind: 'deletion', why: `the Applications of ApplicationSet ${headSet.name} prune (syncPolicy.automated.prune: true)` }
      : { kind: 'orphaned', why: `the Applications of ApplicationSet ${headSet.name} do not prune: it shows OutOfSync, requires pruning` };
  }
  const baseApp = appFor(sides.base, dir);
  if (baseApp) {
    return baseApp.finalizer
      ? { kind: 'deletion', why: `its Argo CD Application ${baseApp.name} is removed too, and its resources finalizer deletes what it deployed` }
      : { kind: 'orphaned', why: `its Argo CD Application ${baseApp.name} is removed too, without the resources finalizer: Argo CD deletes the Application, not what it deployed` };
  }
  const baseSet = setFor(sides.base, target);
  if (baseSet) {
    return baseSet.finalizer && !baseSet.preserve
      ? { kind: 'deletion', why: `ApplicationSet ${baseSet.name} deletes its Application for this folder, and the resources finalizer deletes what it deployed` }
      : { kind: 'orphaned', why: `ApplicationSet ${baseSet.name} deletes its Application for this folder${baseSet.preserve ? ' and preserves its resources (preserveResourcesOnDeletion: true)' : ', which has no resources finalizer'}` };
  }
  return undefined;
}

/** The command that deletes an object left running, on the management cluster. */
export function deleteCommand(o: { kind: string; group: string; namespace: string; name: string }, target?: string): string {
  const resource = o.group === '' || o.group === 'core' ? o.kind.toLowerCase() : `${o.kind.toLowerCase()}.${o.group}`;
  const where = target === undefined ? 'the management cluster' : `the management cluster ${target}`;
  return `kubectl delete ${resource}${o.namespace ? ` -n ${o.namespace}` : ''} ${o.name} (on ${where})`;
}

/**
 * What rendering the tree collects as it goes (files, omitted objects, credential leaks, problems) and the small
 * steps every directory shares: the generated header, a directory's kustomization, screening out credentials.
 */
import { dirname, join } from 'node:path';
import { markersIn, type ResolvedConfig } from '../config/index.js';
import type { KustomizationOptions } from './argocd/index.js';
import { mergeDuplicateObjects } from './duplicate-objects.js';
import type { Leak, Problem } from './problems.js';
import { declaredNamespaces, kustomizationFor, type KubeObject } from './tree/deps.js';
import type { TreeMemo } from './tree/dir-inputs.js';
import { generatedHeader } from './tree/roots.js';
import type { TreeFile } from './tree/tree-file.js';
import { variableUse, type UnusedVariable, type VariableUse } from './unused-variables.js';

/** An object left out of the tree because a credential would land in it (policy "omit"). */
export interface OmittedObject {
  /** `Secret capa-system/capa-manager-bootstrap-credentials`. */
  object: string;
  /** Where it would have gone: `providers/infrastructure-aws/components.yaml`. */
  file: string;
  variables: string[];
}

/** One run's rendering state: what it reads from and everything it collects. */
export interface RenderContext {
  config: ResolvedConfig;
  files: TreeFile[];
  omitted: OmittedObject[];
  leaks: Leak[];
  problems: Problem[];
  /** `lock`: read every artifact the tree needs (the pipeline's store records them) without rendering anything. */
  lockMode: boolean;
  /**
   * The tree memo the pipeline built for this run (its tree cache): rendering asks it for a directory by the
   * directory's inputs record and tells it what it rendered; reading and saving it is the pipeline's.
   */
  cache: TreeMemo;
  classDirs?: { namespace: string; name: string; dir: string; wave: number }[];
  /** What rendered each cluster and ClusterClass directory (release and file), for messages about its objects. */
  sources: Map<string, string>;
  /** Things the user should know that are not problems (the release settings a config overrides), one line each. */
  notes: string[];
  /** The gate names each rendered provider's manager passes in `--feature-gates` (null: no such flag), by label. */
  releaseGates: Map<string, string[] | null>;
  /** What each provider and cluster read from the variables, for the ones the config sets and nothing reads. */
  variableUse: VariableUse;
  /** Set after rendering every entry (not by a shard other than 1): the variables the config sets and nothing reads. */
  unusedVariables?: UnusedVariable[];
}

/** Where the config's tree is written: the config directory, or a fleet target's folder (`targets/<name>`) in it. */
export function treeRoot(config: ResolvedConfig): string {
  return config.tree === undefined ? config.dir : join(config.dir, config.tree);
}

/** A fresh context: nothing rendered yet. */
export function renderContext(config: ResolvedConfig, cache: TreeMemo, lockMode: boolean): RenderContext {
  return { config, files: [], omitted: [], leaks: [], problems: [], lockMode, cache, sources: new Map(), notes: [], releaseGates: new Map(), variableUse: variableUse() };
}

/** The generated header as a comment's text (kustomizations and the Argo CD glue write it themselves). */
export const headerText = generatedHeader.replace(/^# /, '');

/** A file's text as the tree holds it: the generated header first, ending in `\n`. */
export function withHeader(yaml: string): string {
  return `${generatedHeader}\n${yaml.endsWith('\n') ? yaml : `${yaml}\n`}`;
}

/** `Secret capa-system/capa-manager-bootstrap-credentials`. */
function objectName(o: KubeObject): string {
  const m = (o.metadata ?? {}) as { name?: unknown; namespace?: unknown };
  return `${String(o.kind)} ${m.namespace ? `${String(m.namespace)}/` : ''}${String(m.name ?? '')}`;
}

/** Namespaces the providers' and cert-manager's components create. */
export function providerNamespaces(ctx: RenderContext): Set<string> {
  const out = new Set<string>();
  for (const f of ctx.files) {
    if (!f.path.startsWith('providers/') || !/\/(components|cert-manager|operator)\.yaml$/.test(f.path)) continue;
    for (const ns of declaredNamespaces(fileContent(ctx, f))) out.add(ns);
  }
  return out;
}

/** A file's text: files taken from the tree cache carry no content, the memo reads the rendered bytes on disk. */
export function fileContent(ctx: RenderContext, f: TreeFile): string {
  return f.content !== '' ? f.content : ctx.cache.read(f.path);
}

/** Drops identical copies of an object from later files; different copies are an input error (./duplicate-objects.ts). */
export function mergeDuplicates(ctx: RenderContext): void {
  const changed = mergeDuplicateObjects(ctx.files, (f) => fileContent(ctx, f), (dir) => ctx.sources.get(dir));
  for (const [i, f] of ctx.files.entries()) {
    const content = changed.get(f.path);
    if (content === undefined) continue;
    ctx.files[i] = { ...f, content };
    ctx.cache.verified.delete(f.path);
    // The dropped copy depends on other directories, which the directory's inputs digest does not cover.
    ctx.cache.forget(dirname(f.path));
  }
}

/** Adds a directory's files and its kustomization; returns the directory's files. */
export function addDir(files: TreeFile[], dir: string, entries: { name: string; content: string }[], kustomizeOpts: Omit<KustomizationOptions, 'header'> = {}): TreeFile[] {
  const own = entries.map((e) => ({ path: `${dir}/${e.name}`, content: e.content }));
  own.push({ path: `${dir}/kustomization.yaml`, content: kustomizationFor(entries.map((e) => e.name), { header: headerText, ...kustomizeOpts }) });
  files.push(...own);
  return own;
}

/** The one kind the `omit` policy may leave out: a core Secret, whose data external-secrets or SOPS provision. */
function isSecretObject(o: KubeObject): boolean {
  return o.kind === 'Secret' && o.apiVersion === 'v1';
}

/** Objects carrying credential markers: recorded as leaks (policy fail, or any object but a Secret) or dropped (policy omit). */
export function screenSecrets(ctx: RenderContext, objects: KubeObject[], yaml: string, file: string, where: string): KubeObject[] | null {
  if (!yaml.includes('capiform-secret-')) return null;
  const keep: KubeObject[] = [];
  for (const o of objects) {
    const names = markersIn(JSON.stringify(o));
    if (names.length === 0) {
      keep.push(o);
      continue;
    }
    // Only a Secret can be provisioned by other means: leaving out a machine template or a control plane would
    // break the cluster it belongs to, silently.
    if (ctx.config.secrets.policy === 'omit' && isSecretObject(o)) ctx.omitted.push({ object: objectName(o), file, variables: names });
    else for (const v of names) ctx.leaks.push({ variable: v, object: objectName(o), file, where });
  }
  return keep;
}

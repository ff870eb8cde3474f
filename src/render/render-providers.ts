/**
 * The provider directories of the tree: each provider's components (customised, credentials screened out) with its
 * inventory, and cert-manager. A directory whose inputs did not change is taken from the tree cache.
 */
import { CapiformError, InputError } from '../errors.js';
import type { ResolvedProvider } from '../config/index.js';
import type { ProviderResolution } from '../resolve/index.js';
import { imageOverridesOf, lookupFor } from './lookups.js';
import { withVariablesHint } from './problems.js';
import { addDir, screenSecrets, withHeader, type OmittedObject, type RenderContext } from './tree-context.js';
import { customizeObjects, needsCustomizing } from './tree/customize.js';
import { certManagerDirInputs, providerDirInputs } from './tree/dir-inputs.js';
import { inventoryCrd } from './tree/inventory-crd.js';
import { operatorManifests } from './operator.js';
import { releaseGateNames, unknownFeatureGates } from './feature-gate-names.js';
import { emitManifests, processCertManager, renderProviderComponents, type KubeObject, type ManifestEntry } from './tree/deps.js';

/** What a provider directory's cache entry keeps besides its files, so a reused directory reports the same. */
interface ProviderExtra {
  omitted: OmittedObject[];
  notes: string[];
  /** The gate names the release's manager passes (null: none), for `manager.featureGates` names. */
  gates?: string[] | null;
  /** The variables the release's components file reads. */
  variables?: string[];
}

/** Renders `providers/<label>`; a failure is recorded in `ctx.problems`. `load` reads the components file once. */
export async function renderProvider(
  ctx: RenderContext,
  r: ProviderResolution,
  pinnedSha: string | undefined,
  load: () => Promise<{ raw: string; sha: string }>,
  /** The release's metadata.yaml, read only for `output: 'operator'` (its ConfigMap carries it). */
  loadMetadata: () => Promise<string>,
): Promise<void> {
  const p: ResolvedProvider = r.provider;
  const dir = `providers/${p.label}`;
  const { config } = ctx;
  const rawSha = pinnedSha ?? (await load()).sha;
  const inputs = ctx.cache.key(providerDirInputs(config, p, r.version, rawSha, r.repo.componentsFile));
  const reused = ctx.cache.reuse(dir, inputs);
  if (reused) {
    const extra = reused.extra as ProviderExtra | undefined;
    ctx.files.push(...reused.files);
    ctx.omitted.push(...(extra?.omitted ?? []));
    ctx.notes.push(...(extra?.notes ?? []));
    if (extra?.gates !== undefined) ctx.releaseGates.set(p.label, extra.gates);
    if (extra?.variables !== undefined) ctx.variableUse.providers.set(p.label, extra.variables);
    return;
  }
  const { raw } = await load();
  try {
    const images = imageOverridesOf(config, p);
    const c = renderProviderComponents({
      raw,
      name: p.name,
      type: p.type,
      version: r.version,
      ...(p.targetNamespace ? { targetNamespace: p.targetNamespace } : {}),
      variables: lookupFor(config, [p.variables, config.variables]),
      images,
      source: `${p.label} ${r.version} ${r.repo.componentsFile}`,
    });
    let yaml: string | undefined;
    // Objects stay paired with their source documents, so manager/deployment/patches and omitted secrets are
    // spliced into the upstream text (as `generate provider` prints it) instead of re-emitting the whole file.
    let spliced: ManifestEntry[] | undefined;
    let objects = c.objects;
    const notes: string[] = [];
    const gates = releaseGateNames(c.objects);
    ctx.releaseGates.set(p.label, gates);
    const variables = c.variables;
    ctx.variableUse.providers.set(p.label, variables);
    if (needsCustomizing(p)) {
      const customized = customizeObjects(objects, p, notes);
      spliced = c.entries.map((e, i) => ({ ...e, value: customized[i]! }));
      objects = customized;
    }
    if (config.output === 'operator') {
      // The operator installs the upstream release and applies the settings itself; the components rendered above
      // checked those settings and give the namespace and the relocated images. No value is written, so nothing to screen.
      const content = operatorManifests(
        {
          name: p.name,
          type: p.type,
          label: p.label,
          version: r.version,
          namespace: namespaceOf(objects) ?? p.targetNamespace ?? `${p.label}-system`,
          components: raw,
          metadata: await loadMetadata(),
          renderedComponents: spliced ? emitManifests(spliced) : c.yaml(),
        },
        config,
      );
      if (content === undefined) throw new InputError(`${p.label}: the Cluster API Operator has no provider kind for type ${p.type}`, { where: `${p.configPath}`, hint: 'use output: "components"' });
      ctx.cache.record(dir, inputs, addDir(ctx.files, dir, [{ name: 'operator.yaml', content: withHeader(content) }]), { omitted: [], notes: [], gates, variables } satisfies ProviderExtra, true);
      return;
    }
    const omittedBefore = ctx.omitted.length;
    const screened = screenSecrets(ctx, objects, spliced ? JSON.stringify(objects) : (yaml = c.yaml()), `${dir}/components.yaml`, p.configPath);
    if (screened) {
      const kept = new Set(screened);
      spliced = (spliced ?? c.entries.map((e, i) => ({ ...e, value: objects[i]! }))).filter((e) => kept.has(e.value));
    }
    if (spliced) yaml = emitManifests(spliced);
    const entries = [
      { name: 'components.yaml', content: withHeader(yaml ?? c.yaml()) },
      { name: 'inventory.yaml', content: withHeader(emitManifests([c.inventoryObject()])) },
    ];
    if (p.type === 'CoreProvider') entries.push({ name: 'clusterctl-inventory-crd.yaml', content: withHeader(emitManifests([inventoryCrd])) });
    ctx.notes.push(...notes);
    const extra: ProviderExtra = { omitted: ctx.omitted.slice(omittedBefore), notes, gates, variables };
    ctx.cache.record(dir, inputs, addDir(ctx.files, dir, entries), extra, true);
  } catch (err) {
    if (!(err instanceof CapiformError)) throw err;
    ctx.problems.push({ where: `${p.configPath} (${p.label} ${r.version})`, error: withVariablesHint(err, `${p.configPath}.variables`) });
  }
}

/** Renders `providers/cert-manager` from the release's `cert-manager.yaml` (its text and sha256). */
export function renderCertManager(ctx: RenderContext, version: string, raw: { text: string; sha: string }): void {
  const { config, cache, files } = ctx;
  const dir = 'providers/cert-manager';
  const inputs = cache.key(certManagerDirInputs(config, version, raw.sha));
  const reused = cache.reuse(dir, inputs);
  if (reused) files.push(...reused.files);
  else {
    const cm = processCertManager(raw.text, version, config.images);
    cache.record(dir, inputs, addDir(files, dir, [{ name: 'cert-manager.yaml', content: withHeader(cm.yaml()) }]), undefined, true);
  }
}

/** The Namespace the components declare (clusterctl's target namespace after rendering). */
function namespaceOf(objects: readonly KubeObject[]): string | undefined {
  const ns = objects.find((o) => o.kind === 'Namespace');
  const name = (ns?.metadata as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' ? name : undefined;
}

/** After every provider is rendered: each `manager.featureGates` name its release's manager does not know. */
export function checkFeatureGateNames(ctx: RenderContext): void {
  const { problems, notes } = unknownFeatureGates(ctx.config.providers, ctx.releaseGates);
  ctx.problems.push(...problems);
  for (const n of notes) if (!ctx.notes.includes(n)) ctx.notes.push(n);
}

/**
 * clusterctl's provider components pipeline (`NewComponents`, spec §2.1 steps 3–11) on already-substituted text,
 * the inventory `Provider` object (§2.7) and cert-manager manifest processing (§6).
 *
 * Objects stay linked to the source document they were parsed from, so `yaml()` writes untouched content
 * byte-identical to the release file and splices only the changes (see src/yaml/splice.ts);
 * `yaml('clusterctl')` gives clusterctl's own bytes (go-yaml v2 re-emission).
 */
import { CapiformError, InputError, wrapError } from '../../errors.js';
import { emitManifests, fromUnstructured, parseDocuments, type KubeObject, type ManifestEntry } from '../../yaml/index.js';
import { sha256Hex } from '../../cache/index.js';
import type { ComponentsMemo, ComponentsRecord } from './memo.js';
import { alterImage, fixPodImages, inspectImages, type ImageOverrides } from './images.js';
import {
  CERT_MANAGER_VERSION_ANNOTATION,
  CLUSTERCTL_LABEL,
  CORE_LABEL,
  PROVIDER_LABEL,
  commonLabels,
  groupOf,
  setMetaEntries,
  sortComponents,
} from './labels.js';
import { fixObjectNamespace, inspectTargetNamespace, kindOf, nameOf, namespaceObject } from './namespace.js';
import { DaemonSet, Deployment, typedRoundTrip } from './typed-roundtrip.js';

export * from './images.js';
export * from './labels.js';
export * from './namespace.js';
export { canonicalQuantity } from './quantity.js';
export { typedRoundTrip } from './typed-roundtrip.js';
export type { ComponentsMemo, ComponentsRecord, MemoizedComponents, MemoizedComponentsHit } from './memo.js';

/** `clusterctl` output (go-yaml v2 re-emission) or capiform's (source text kept, changes spliced). */
export type OutputStyle = 'capiform' | 'clusterctl';

export interface Components {
  providerName: string;
  providerType: string;
  manifestLabel: string;
  version: string;
  targetNamespace: string;
  /** Images of every Deployment/DaemonSet container and init container, after overrides, in object order. */
  images: string[];
  /** The objects in clusterctl's final order. */
  objects: KubeObject[];
  /** The same objects with the source documents they came from. */
  entries: ManifestEntry[];
  /** The manifest as `generate provider` prints it (ends with a newline). */
  yaml(style?: OutputStyle): string;
  /** The inventory `Provider` object `clusterctl init` creates (spec §2.7). */
  inventoryObject(): KubeObject;
}

export interface RenderComponentsInput {
  /** The components file text, variables already substituted. */
  text: string;
  providerName: string;
  providerType: string;
  manifestLabel: string;
  version: string;
  targetNamespace?: string;
  /** `images:` of clusterctl.yaml; undefined or null when it has no `images` key. */
  images?: ImageOverrides | null;
  /** File name or URL, for error locations. */
  source?: string;
  /** false: parse with the `yaml` package only (the reference path the fast path is tested against). */
  fast?: boolean;
  /**
   * A memo of results (memo.ts; the pipeline's is on disk under `<capiform cache dir>/render`). On a hit, `entries`
   * are recomputed only if someone reads them.
   */
  memo?: ComponentsMemo | undefined;
}

/** Where an entry came from (`file:line`), for errors about one object. */
function entryWhere(e: ManifestEntry, source: string | undefined): string | undefined {
  if (!e.source) return source;
  return `${source ?? 'line'}${source ? ':' : ' '}${e.source.line}`;
}

/** Runs `fn` on every entry; an error about one object gets that object's location when it has none. */
function eachEntry(
  entries: ManifestEntry[],
  source: string | undefined,
  fn: (e: ManifestEntry) => ManifestEntry,
): ManifestEntry[] {
  return entries.map((e) => {
    try {
      return fn(e);
    } catch (err) {
      if (err instanceof CapiformError && err.where === undefined) {
        const where = entryWhere(e, source);
        if (where) Object.defineProperty(err, 'where', { value: where });
      }
      throw err;
    }
  });
}

function wrap(e: unknown, prefix: string): never {
  if (e instanceof CapiformError) throw wrapError(e, prefix);
  throw e;
}

/** Manifest text for entries in either output style (final newline included). */
export function manifestYaml(entries: ManifestEntry[], style: OutputStyle = 'capiform'): string {
  if (style === 'clusterctl') return fromUnstructured(entries.map((e) => e.value)) + '\n';
  return emitManifests(entries);
}

/** `FixImages`: the apps/v1 round-trip of every Deployment and DaemonSet, then `alter` on each container image. */
export function fixImages(
  entries: ManifestEntry[],
  alter: (image: string) => string,
  source?: string,
): ManifestEntry[] {
  return eachEntry(entries, source, (e) => {
    const kind = kindOf(e.value);
    if (kind !== 'Deployment' && kind !== 'DaemonSet') return e;
    const v = typeof e.value.apiVersion === 'string' ? e.value.apiVersion : '';
    if (v !== 'apps/v1') {
      const ver = v.includes('/') ? v.slice(v.indexOf('/') + 1) : v;
      throw new InputError(`converting (${ver}.${kind}) to (v1.${kind}): unknown conversion`, {
        hint: `${kind} ${nameOf(e.value)} must use apiVersion apps/v1.`,
      });
    }
    const rt = typedRoundTrip(e.value, kind === 'Deployment' ? Deployment : DaemonSet);
    return { ...e, value: fixPodImages(rt, alter) };
  });
}

/** The input record of a components render: what a memo keys it by. */
export function componentsRecord(input: RenderComponentsInput): ComponentsRecord {
  return {
    componentsDigest: sha256Hex(input.text),
    providerName: input.providerName,
    providerType: input.providerType,
    manifestLabel: input.manifestLabel,
    version: input.version,
    targetNamespace: input.targetNamespace ?? '',
    images: input.images ?? null,
  };
}

/** `NewComponents` steps 3–11 (spec §2.1), through `input.memo` when given. */
export function renderComponents(input: RenderComponentsInput): Components {
  const memo = input.memo;
  if (!memo) return renderUncached(input);
  const record = componentsRecord(input);
  const hit = memo.get(record);
  if (hit) {
    let full: Components | undefined;
    const compute = () => (full ??= renderUncached(input));
    return {
      providerName: input.providerName,
      providerType: input.providerType,
      manifestLabel: input.manifestLabel,
      version: input.version,
      targetNamespace: hit.targetNamespace,
      images: hit.images,
      get objects() {
        return hit.objects() ?? compute().objects;
      },
      get entries() {
        return compute().entries;
      },
      yaml: (style: OutputStyle = 'capiform') => (style === 'capiform' ? hit.yaml : compute().yaml(style)),
      inventoryObject: () =>
        inventoryObject({
          manifestLabel: input.manifestLabel,
          targetNamespace: hit.targetNamespace,
          providerName: input.providerName,
          providerType: input.providerType,
          version: input.version,
        }),
    };
  }
  const c = renderUncached(input);
  memo.put(record, {
    targetNamespace: c.targetNamespace,
    images: c.images,
    objects: c.objects,
    yaml: c.yaml(),
  });
  return c;
}

/**
 * The first two steps of both components and cert-manager processing: parse the documents, then `FixImages` with the
 * overrides of `component`, each failure wrapped the way clusterctl words it.
 */
function parseFixingImages(
  input: { text: string; source?: string; fast?: boolean; images?: ImageOverrides | null },
  component: string,
): ManifestEntry[] {
  let entries: ManifestEntry[];
  try {
    entries = parseDocuments(input.text, { source: input.source, fast: input.fast }).map((d) => ({
      value: d.value,
      source: d,
    }));
  } catch (e) {
    wrap(e, 'failed to parse yaml');
  }
  try {
    return fixImages(entries, (image) => alterImage(component, image, input.images), input.source);
  } catch (e) {
    wrap(e, 'failed to apply image overrides');
  }
}

function renderUncached(input: RenderComponentsInput): Components {
  let entries = parseFixingImages(input, input.manifestLabel);
  const images = inspectImages(entries.map((e) => e.value));
  let defaultNamespace: string;
  try {
    defaultNamespace = inspectTargetNamespace(entries.map((e) => e.value));
  } catch (e) {
    wrap(e, 'failed to detect default target namespace');
  }
  const targetNamespace = input.targetNamespace || defaultNamespace;
  if (!targetNamespace) {
    throw new InputError("target namespace can't be defaulted. Please specify a target namespace", {
      where: input.source,
      hint: 'Pass --target-namespace, or add a Namespace object to the components.',
    });
  }
  if (!entries.some((e) => kindOf(e.value) === 'Namespace')) entries.push({ value: namespaceObject(targetNamespace) });
  try {
    entries = eachEntry(entries, input.source, (e) => ({ ...e, value: fixObjectNamespace(e.value, targetNamespace) }));
  } catch (e) {
    wrap(e, 'failed to set the TargetNamespace on the components');
  }
  const labels = commonLabels(input.manifestLabel);
  entries = entries.map((e) => ({ ...e, value: setMetaEntries(e.value, 'labels', labels) }));
  entries = sortComponents(
    entries,
    (e) => kindOf(e.value),
    (e) => groupOf(e.value.apiVersion),
  );
  const objects = entries.map((e) => e.value);
  return {
    providerName: input.providerName,
    providerType: input.providerType,
    manifestLabel: input.manifestLabel,
    version: input.version,
    targetNamespace,
    images,
    objects,
    entries,
    yaml: (style: OutputStyle = 'capiform') => manifestYaml(entries, style),
    inventoryObject: () =>
      inventoryObject({
        manifestLabel: input.manifestLabel,
        targetNamespace,
        providerName: input.providerName,
        providerType: input.providerType,
        version: input.version,
      }),
  };
}

/** The inventory `Provider` object (spec §2.7). */
export function inventoryObject(p: {
  manifestLabel: string;
  targetNamespace: string;
  providerName: string;
  providerType: string;
  version: string;
}): KubeObject {
  return {
    apiVersion: 'clusterctl.cluster.x-k8s.io/v1alpha3',
    kind: 'Provider',
    metadata: {
      name: p.manifestLabel,
      namespace: p.targetNamespace,
      labels: { [CLUSTERCTL_LABEL]: '', [PROVIDER_LABEL]: p.manifestLabel, [CORE_LABEL]: 'inventory' },
    },
    providerName: p.providerName,
    type: p.providerType,
    version: p.version,
  };
}

export interface CertManagerManifest {
  version: string;
  images: string[];
  objects: KubeObject[];
  entries: ManifestEntry[];
  yaml(style?: OutputStyle): string;
}

/**
 * cert-manager manifest processing (`getManifestObjs`, spec §6): no substitution, no namespace fixing, no sorting;
 * `FixImages` with component `cert-manager`, clusterctl labels and the version annotation on every object.
 */
export function processCertManagerManifest(input: {
  text: string;
  version: string;
  images?: ImageOverrides | null;
  source?: string;
  fast?: boolean;
}): CertManagerManifest {
  let entries = parseFixingImages(input, 'cert-manager');
  entries = entries.map((e) => {
    let v = setMetaEntries(e.value, 'labels', { [CLUSTERCTL_LABEL]: '', [CORE_LABEL]: 'cert-manager' });
    v = setMetaEntries(v, 'annotations', { [CERT_MANAGER_VERSION_ANNOTATION]: input.version });
    return { ...e, value: v };
  });
  return {
    version: input.version,
    images: inspectImages(entries.map((e) => e.value)),
    objects: entries.map((e) => e.value),
    entries,
    yaml: (style: OutputStyle = 'capiform') => manifestYaml(entries, style),
  };
}

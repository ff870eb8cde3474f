/**
 * Vectors for the components transformations: fix-target-namespace.json, inspect-target-namespace.json,
 * common-labels.json, image-overrides.json, derived-component-order.json and cert-manager manifest processing.
 */
import { expect } from 'vitest';
import {
  addCommonLabels,
  addNamespaceIfMissing,
  alterImage,
  fixImages,
  fixTargetNamespace,
  imageFromString,
  imageToString,
  inspectImages,
  inspectTargetNamespace,
  inventoryObject,
  isDeploymentWithManager,
  isResourceNamespaced,
  parseImageOverrides,
  processCertManagerManifest,
  sortComponents,
} from '../../../src/render/components/index.js';
import { manifestLabel } from '../../../src/capi/index.js';
import type { Vector, VectorHandler } from '../types.js';
import { checkExpected, field, need, rec } from '../fields.js';
import { expectError } from './yaml.js';

type Obj = Record<string, unknown>;
const objects = (v: Vector): Obj[] => v.input.objects as Obj[];

function imagesConfig(v: Vector): ReturnType<typeof parseImageOverrides> {
  if ('imagesConfigRaw' in v.input) return parseImageOverrides(v.input.imagesConfigRaw);
  return parseImageOverrides(v.input.imagesConfig ?? v.input.images);
}

/** `alter` of FixImages vectors, described in words: "prefix 'foo-'". */
function alterFrom(desc: string): (image: string) => string {
  const m = /^prefix '(.*)'$/.exec(desc);
  if (m) return (image) => (m[1] as string) + image;
  const s = /^suffix '(.*)'$/.exec(desc);
  if (s) return (image) => image + (s[1] as string);
  throw new Error(`unknown alter function description: ${desc}`);
}

/**
 * `AlterComponents(comps, alterFn)`: the components' objects replaced by `alterFn(objs)`. clusterctl's test alters
 * with `addCommonLabels` for a provider; that is the only alter function a vector can name — as `alter`/`alterFn`
 * (a name, or `{name|op|fn, provider}`), in the op itself (`AlterComponents(addCommonLabels)`), or implied by a
 * `provider` given alone. The objects are `objects`/`objs`, or those of `components` (`{targetNamespace, objs}`, as
 * the Go test builds it); the provider is `{name, type}` or `providerName`/`providerType`.
 */
function alterComponents(v: Vector): void {
  const components = rec(field(v.input, ['components', 'comps', 'c']));
  const objs = (field(v.input, ['objects', 'objs']) ?? field(components, ['objs', 'objects'])) as Obj[] | undefined;
  if (!Array.isArray(objs)) expect.fail('AlterComponents: the vector has no input.objects, input.objs or input.components.objs');
  const rawAlter = field(v.input, ['alter', 'alterFn', 'alterFunc', 'alterFunction', 'fn']);
  const alterRec = rec(rawAlter);
  const alter = typeof rawAlter === 'string' ? rawAlter : String(field(alterRec, ['name', 'op', 'fn', 'func', 'function']) ?? '');
  const op = String(v.input.op ?? '');
  const named = alter !== '' ? alter : /addCommonLabels/i.test(op) ? 'addCommonLabels' : '';
  if (named !== '' && !/addCommonLabels/i.test(named)) {
    expect.fail(`AlterComponents: unknown alter function ${JSON.stringify(named)} (only addCommonLabels is known)`);
  }
  const given = rec(field(v.input, ['provider']) ?? field(alterRec, ['provider']) ?? field(rec(alterRec.args), ['provider']));
  const name = given.name ?? field(v.input, ['providerName']) ?? field(alterRec, ['providerName']);
  const type = given.type ?? given.providerType ?? field(v.input, ['providerType', 'type']) ?? field(alterRec, ['providerType', 'type']);
  if (typeof name !== 'string' || typeof type !== 'string') {
    expect.fail('AlterComponents: input.provider {name, type} is needed for the addCommonLabels alter function');
  }
  const out = addCommonLabels(objs, manifestLabel(name, type));
  const expectedComponents = rec(v.expected.components);
  checkExpected(v, 'AlterComponents', {
    objects: (want) => expect(out).toEqual(want),
    objs: (want) => expect(out).toEqual(want),
    components: () => expect(out).toEqual(field(expectedComponents, ['objs', 'objects'])),
  });
}

export const handlers: Record<string, VectorHandler> = {
  'clusterctl:AlterComponents': alterComponents,
  // IsResourceNamespaced: the kind alone decides; 16 kinds are cluster-scoped, every other kind is namespaced.
  'clusterctl:IsResourceNamespaced': (v) => {
    const kind = String(need(v, ['kind'], 'IsResourceNamespaced'));
    checkExpected(v, 'IsResourceNamespaced', {
      namespaced: (want) => expect(isResourceNamespaced(kind)).toBe(want),
      result: (want) => expect(isResourceNamespaced(kind)).toBe(want),
    });
  },
  // Components.InventoryObject: the clusterctl Provider object `init` creates (spec §2.7).
  'clusterctl:Components.InventoryObject': (v) => {
    const p = rec(need(v, ['provider'], 'InventoryObject'));
    const name = String(p.name ?? '');
    const type = String(p.type ?? '');
    const o = inventoryObject({
      manifestLabel: manifestLabel(name, type),
      targetNamespace: String(need(v, ['targetNamespace', 'namespace'], 'InventoryObject')),
      providerName: name,
      providerType: type,
      version: String(need(v, ['version'], 'InventoryObject')),
    });
    checkExpected(v, 'InventoryObject', { object: (want) => expect(o).toEqual(want), objects: (want) => expect([o]).toEqual(want) });
  },
  'clusterctl:fixTargetNamespace': (v) => {
    const ns = v.input.targetNamespace as string;
    if (v.expected.error) return expectError(() => fixTargetNamespace(objects(v), ns), v.expected);
    expect(fixTargetNamespace(objects(v), ns)).toEqual(v.expected.objects);
  },
  'clusterctl:inspectTargetNamespace': (v) => {
    if (v.expected.error) return expectError(() => inspectTargetNamespace(objects(v)), v.expected);
    expect(inspectTargetNamespace(objects(v))).toBe(v.expected.namespace);
  },
  'clusterctl:addNamespaceIfMissing': (v) => {
    const out = addNamespaceIfMissing(objects(v), v.input.targetNamespace as string);
    if ('inspectTargetNamespace' in v.expected) expect(inspectTargetNamespace(out)).toBe(v.expected.inspectTargetNamespace);
    if (Array.isArray(v.expected.objects)) expect(out).toEqual(v.expected.objects);
  },
  'clusterctl:addCommonLabels': (v) => {
    const p = v.input.provider as { name: string; type: string };
    expect(addCommonLabels(objects(v), manifestLabel(p.name, p.type))).toEqual(v.expected.objects);
  },
  'clusterctl:ManifestLabel': (v) => {
    expect(manifestLabel(v.input.providerName as string, v.input.type as string)).toBe(v.expected.label);
  },
  'clusterctl:componentsOrder': (v) => {
    const objs = v.input.objects as { id: string; kind: string; group: string }[];
    const sorted = sortComponents(
      objs,
      (o) => o.kind,
      (o) => o.group,
    );
    expect(sorted.map((o) => o.id)).toEqual(v.expected.orderIds);
  },
  'clusterctl:AlterImage': (v) => {
    const run = () => alterImage(v.input.component as string, v.input.image as string, imagesConfig(v));
    if (v.expected.error) return expectError(run, v.expected);
    expect(run()).toBe(v.expected.image);
  },
  'clusterctl:ImageFromString': (v) => {
    const run = () => imageFromString(v.input.image as string);
    if (v.expected.error) return expectError(run, v.expected);
    const img = run();
    expect({ repository: img.repository, name: img.name, tag: img.tag, digest: img.digest }).toEqual({
      repository: v.expected.repository,
      name: v.expected.name,
      tag: v.expected.tag,
      digest: v.expected.digest,
    });
    if (typeof v.expected.string === 'string') expect(imageToString(img)).toBe(v.expected.string);
  },
  'clusterctl:InspectImages': (v) => {
    if (v.expected.error) return expectError(() => inspectImages(objects(v)), v.expected);
    expect(inspectImages(objects(v))).toEqual(v.expected.images);
  },
  'clusterctl:FixImages': (v) => {
    const alter = alterFrom(v.input.alter as string);
    const run = () => fixImages(objects(v).map((value) => ({ value })), alter).map((e) => e.value);
    if (v.expected.error) return expectError(run, v.expected);
    const out = run();
    if (Array.isArray(v.expected.imagesAfter)) expect(inspectImages(out)).toEqual(v.expected.imagesAfter);
    if (Array.isArray(v.expected.objects)) expect(out).toEqual(v.expected.objects);
  },
  'clusterctl:IsDeploymentWithManager': (v) => {
    expect(isDeploymentWithManager(v.input.object as Obj)).toBe(v.expected.result);
  },
  'clusterctl:certManager.getManifestObjs': (v) => {
    const run = () =>
      processCertManagerManifest({
        text: v.input.rawYaml as string,
        version: v.input.certManagerVersion as string,
        images: imagesConfig(v),
      });
    if (v.expected.error) return expectError(run, v.expected);
    const m = run();
    const meta = (o: Obj) => (o.metadata ?? {}) as Obj;
    for (const o of m.objects) {
      if (v.expected.everyObjectLabels) expect(meta(o).labels).toMatchObject(v.expected.everyObjectLabels as Obj);
      if (v.expected.everyObjectAnnotations)
        expect(meta(o).annotations).toMatchObject(v.expected.everyObjectAnnotations as Obj);
    }
    if (typeof v.expected.deploymentContainer0Image === 'string') {
      const dep = m.objects.find((o) => o.kind === 'Deployment');
      expect(dep && inspectImages([dep])[0]).toBe(v.expected.deploymentContainer0Image);
    }
  },
};

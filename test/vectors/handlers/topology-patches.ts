/**
 * capi-plan vectors of ClusterClass patches: `go-template.json` (renderValueTemplate, patchIsEnabled,
 * calculateTemplateData), `json-patch-generator.json` (Generate, matchesSelector, calculateValue, parsePathSegment)
 * and `builtin-variables.json` (Global, ControlPlane, MachineDeployment, MachinePool). Vectors are told apart by
 * their input, so one dispatcher serves the three files and files of other names with the same shapes.
 */
import { expect } from 'vitest';
import { goValueToJSON } from '../../../src/go/template/index.js';
import {
  calculateTemplateData,
  calculateValue,
  controlPlaneVariables,
  generateInlinePatches,
  globalVariables,
  machineDeploymentVariables,
  machinePoolVariables,
  matchesSelector,
  parsePathSegment,
  patchIsEnabled,
  renderValueTemplate,
  variablesFromRawJSON,
  type GeneratePatchesRequest,
  type HolderReference,
  type SelectorTarget,
} from '../../../src/topology/patches/index.js';
import { checkExpected, expectsError, field, outcome, rec, type Rec } from '../fields.js';
import type { Vector, VectorHandler } from '../types.js';

type RawVariables = Parameters<typeof variablesFromRawJSON>[0];

const raw = (v: unknown): RawVariables => (v ?? null) as RawVariables;

/** The raw-JSON variables of a vector (`variablesRawJSON`, or `variables` as plain values). */
function variablesOf(input: Rec, names: readonly string[] = ['variablesRawJSON', 'variablesRaw']): Map<string, unknown> {
  const given = field(input, names);
  if (given !== undefined) return variablesFromRawJSON(raw(given));
  const plain = field(input, ['variables', 'templateVariables']);
  return new Map(Object.entries(rec(plain)));
}

const goTemplate = {
  render: async (v: Vector) => {
    const template = String(v.input.template);
    const got = await outcome(v, () => renderValueTemplate(template, variablesOf(v.input)));
    if (expectsError(v)) return;
    checkExpected(v, 'renderValueTemplate', {
      value: (want) => expect(got).toEqual(want),
      valueRawJSON: (want) => expect(got).toEqual(JSON.parse(String(want))),
    });
  },
  enabledIf: async (v: Vector) => {
    const enabledIf = String(v.input.enabledIf ?? '');
    const got = await outcome(v, () => patchIsEnabled(enabledIf, variablesOf(v.input)));
    if (expectsError(v)) return;
    checkExpected(v, 'patchIsEnabled', { enabled: (want) => expect(got).toBe(want) });
  },
  templateData: async (v: Vector) => {
    const got = await outcome(v, () => goValueToJSON(calculateTemplateData(variablesOf(v.input))));
    if (expectsError(v)) return;
    checkExpected(v, 'calculateTemplateData', { data: (want) => expect(got).toEqual(want) });
  },
};

function holderOf(v: unknown): HolderReference {
  const h = rec(v);
  return {
    apiVersion: String(h.apiVersion ?? ''),
    kind: String(h.kind ?? ''),
    name: String(h.name ?? ''),
    namespace: String(h.namespace ?? ''),
    fieldPath: String(h.fieldPath ?? ''),
  };
}

/** A Generate request whose variables are raw JSON entries (`[{name, value}]`). */
function requestOf(v: unknown): GeneratePatchesRequest {
  const r = rec(v);
  const entries = (list: unknown): Array<{ name: string; value: unknown }> =>
    [...variablesFromRawJSON(raw(list))].map(([name, value]) => ({ name, value }));
  const items = Array.isArray(r.items) ? r.items.map(rec) : [];
  return {
    variables: entries(field(r, ['variablesRawJSON', 'variables'])),
    items: items.map((it) => ({
      uid: String(it.uid ?? ''),
      holderReference: holderOf(it.holderReference),
      object: rec(it.object),
      variables: entries(field(it, ['variablesRawJSON', 'variables'])),
    })),
  };
}

const generator = {
  generate: async (v: Vector) => {
    const request = requestOf(v.input.request);
    const got = await outcome(v, () => generateInlinePatches(rec(v.input.patch), request));
    if (expectsError(v)) return;
    checkExpected(v, 'Generate', {
      responseItems: (want) => expect(got?.items).toEqual(want),
      items: (want) => expect(got?.items).toEqual(want),
    });
  },
  selector: (v: Vector) => {
    const item = rec(v.input.item);
    const object = rec(item.object);
    const target: SelectorTarget = {
      apiVersion: String(item.apiVersion ?? object.apiVersion ?? ''),
      kind: String(item.kind ?? object.kind ?? ''),
      holderReference: holderOf(item.holderReference),
    };
    const got = matchesSelector(target, variablesOf(v.input, ['templateVariablesRawJSON', 'variablesRawJSON']), v.input.selector);
    checkExpected(v, 'matchesSelector', { match: (want) => expect(got).toBe(want) });
  },
  calculateValue: async (v: Vector) => {
    const got = await outcome(v, () => calculateValue(rec(v.input.patch), variablesOf(v.input)));
    if (expectsError(v)) return;
    checkExpected(v, 'calculateValue', {
      value: (want) => expect(got).toEqual(want),
      valueRawJSON: (want) => expect(got).toEqual(JSON.parse(String(want))),
    });
  },
  segment: async (v: Vector) => {
    const got = await outcome(v, () => parsePathSegment(String(v.input.segment)));
    if (expectsError(v)) return;
    checkExpected(v, 'parsePathSegment', {
      path: (want) => expect(got?.path).toBe(want),
      index: (want) => expect(got?.index).toBe(want),
    });
  },
};

/**
 * An object built by CAPI's test builders (`{kindBuilder, namespace, name, replicas, version, labels, …}`), or an
 * object given as is.
 */
function built(v: unknown): Rec | undefined {
  if (v === undefined || v === null) return undefined;
  const given = rec(v);
  if (typeof given.kindBuilder !== 'string') return given;
  // `WithReplicas(3)` may be written `replicas` or `withReplicas`.
  const b = (k: string): unknown => given[k] ?? given[`with${k[0]?.toUpperCase()}${k.slice(1)}`];
  const metadata: Rec = { name: given.name, namespace: given.namespace };
  for (const k of ['labels', 'annotations', 'uid']) if (b(k) !== undefined) metadata[k] = b(k);
  const spec: Rec = {};
  if (b('replicas') !== undefined) spec.replicas = b('replicas');
  if (given.kindBuilder === 'MachineDeployment' || given.kindBuilder === 'MachinePool') {
    if (b('version') !== undefined) spec.template = { spec: { version: b('version') } };
  } else if (b('version') !== undefined) {
    spec.version = b('version');
  }
  return { kind: given.kindBuilder, metadata, ...(Object.keys(spec).length > 0 ? { spec } : {}) };
}

function definitionsOf(v: Vector): Set<string> {
  const d = field(v.input, ['variableDefinitionsForPatch', 'definitions']);
  if (Array.isArray(d)) return new Set(d.map(String));
  return new Set(Object.entries(rec(d)).filter(([, on]) => on !== false).map(([k]) => k));
}

async function builtinVariablesVector(v: Vector): Promise<void> {
  const defs = definitionsOf(v);
  const i = v.input;
  const got = await outcome(v, () => {
    if (i.mdTopology !== undefined || i.machineDeploymentTopology !== undefined) {
      return machineDeploymentVariables(
        rec(field(i, ['mdTopology', 'machineDeploymentTopology'])),
        built(field(i, ['md', 'machineDeployment'])) ?? {},
        built(field(i, ['mdBootstrapTemplate', 'bootstrapTemplate'])),
        built(field(i, ['mdInfrastructureMachineTemplate', 'infrastructureMachineTemplate'])),
        defs,
      );
    }
    if (i.mpTopology !== undefined || i.machinePoolTopology !== undefined) {
      return machinePoolVariables(
        rec(field(i, ['mpTopology', 'machinePoolTopology'])),
        built(field(i, ['mp', 'machinePool'])) ?? {},
        built(field(i, ['mpBootstrapConfig', 'bootstrapConfig', 'bootstrapObject'])),
        built(field(i, ['mpInfrastructureMachinePool', 'infrastructureMachinePool'])),
        defs,
      );
    }
    if (i.cpTopology !== undefined || i.controlPlaneTopology !== undefined || i.controlPlane !== undefined || i.cp !== undefined) {
      return controlPlaneVariables(
        field(i, ['cpTopology', 'controlPlaneTopology']) === undefined ? undefined : rec(field(i, ['cpTopology', 'controlPlaneTopology'])),
        built(field(i, ['cp', 'controlPlane'])) ?? {},
        built(field(i, ['cpInfrastructureMachineTemplate', 'controlPlaneInfrastructureMachineTemplate', 'infrastructureMachineTemplate'])),
        defs,
      );
    }
    if (i.cluster === undefined) expect.fail('builtin variables: the vector has none of input.cluster, input.mdTopology, input.mpTopology, input.cpTopology');
    const cluster = rec(i.cluster);
    const topology = rec(field(i, ['clusterTopology', 'topology']) ?? rec(rec(cluster.spec).topology));
    return globalVariables(topology, cluster, defs);
  });
  if (expectsError(v)) return;
  checkExpected(v, 'builtin variables', { variables: (want) => expect(got).toEqual(want) });
}

/** The functions a vector may name in `input.operation` (Go's and our spellings), lower-cased. */
const byOperation: Record<string, (v: Vector) => Promise<void> | void> = {
  generate: (v) => generator.generate(v),
  generateinlinepatches: (v) => generator.generate(v),
  matchesselector: (v) => generator.selector(v),
  calculatevalue: (v) => generator.calculateValue(v),
  parsepathsegment: (v) => generator.segment(v),
  rendervaluetemplate: (v) => goTemplate.render(v),
  patchisenabled: (v) => goTemplate.enabledIf(v),
  calculatetemplatedata: (v) => goTemplate.templateData(v),
  global: builtinVariablesVector,
  globalvariables: builtinVariablesVector,
  controlplane: builtinVariablesVector,
  controlplanevariables: builtinVariablesVector,
  machinedeployment: builtinVariablesVector,
  machinedeploymentvariables: builtinVariablesVector,
  machinepool: builtinVariablesVector,
  machinepoolvariables: builtinVariablesVector,
};

/** Which of the functions above a vector exercises: its `input.operation` when it names one, else its input's shape. */
export function topologyPatchVector(v: Vector): Promise<void> | void {
  const i = v.input;
  const named = typeof i.operation === 'string' ? byOperation[i.operation.replace(/^.*\./, '').toLowerCase()] : undefined;
  if (named) return named(v);
  if (i.segment !== undefined) return generator.segment(v);
  if (i.selector !== undefined) return generator.selector(v);
  if (i.patch !== undefined && i.request !== undefined) return generator.generate(v);
  if (i.patch !== undefined) return generator.calculateValue(v);
  if (i.variableDefinitionsForPatch !== undefined) return builtinVariablesVector(v);
  if (i.enabledIf !== undefined) return goTemplate.enabledIf(v);
  if (i.template !== undefined) return goTemplate.render(v);
  if (i.variablesRawJSON !== undefined || v.expected.data !== undefined) return goTemplate.templateData(v);
  expect.fail(
    'patch vector: the input has none of segment, selector, patch (+request), variableDefinitionsForPatch, enabledIf, template, variablesRawJSON',
  );
}

export const handlers: Record<string, VectorHandler> = {
  'capi-plan:go-template:*': topologyPatchVector,
  'capi-plan:json-patch-generator:*': topologyPatchVector,
  'capi-plan:builtin-variables:*': topologyPatchVector,
};
// The same vectors with an `input.operation`, in a file of any name.
for (const op of [
  'Generate',
  'MatchesSelector',
  'matchesSelector',
  'CalculateValue',
  'calculateValue',
  'ParsePathSegment',
  'parsePathSegment',
  'RenderValueTemplate',
  'renderValueTemplate',
  'PatchIsEnabled',
  'patchIsEnabled',
  'CalculateTemplateData',
  'calculateTemplateData',
]) {
  handlers[`capi-plan:*:${op}`] = topologyPatchVector;
}

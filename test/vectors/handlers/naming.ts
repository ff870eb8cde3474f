/**
 * capi-plan `naming.json`: topology object names (spec/capi-plan.md §3.2) — naming templates rendered with
 * `missingkey=error`, the ClusterClass webhook's DNS-1123 check of a naming template, and the name an object gets
 * (simple generator prefix, existing names kept).
 */
import { expect } from 'vitest';
import { generateNameFromData, namingData, namingTemplateErrors, randomAlphabet, topologyObjectName, type NamedObject } from '../../../src/topology/index.js';
import { field, rec, type Rec } from '../fields.js';
import type { Vector, VectorHandler } from '../types.js';

const namingTemplateOf: Record<string, NamedObject> = {
  infrastructureCluster: 'infrastructureCluster',
  infraCluster: 'infrastructureCluster',
  infrastructure: 'infrastructureCluster',
  infrastructureClass: 'infrastructureCluster',
  InfrastructureCluster: 'infrastructureCluster',
  controlPlane: 'controlPlane',
  ControlPlane: 'controlPlane',
  controlPlaneClass: 'controlPlane',
  machineDeploymentClass: 'machineDeployment',
  machineDeployment: 'machineDeployment',
  MachineDeployment: 'machineDeployment',
  machinePoolClass: 'machinePool',
  machinePool: 'machinePool',
  MachinePool: 'machinePool',
};

/** Runs `fn` and checks what the vector expects of a name: the name, a prefix, a pattern, or an error. */
function checkName(v: Vector, fn: () => string): void {
  const e = v.expected;
  if (e.error === true || typeof e.errorContains === 'string') {
    let err: unknown;
    try {
      fn();
    } catch (x) {
      err = x;
    }
    expect(err, 'an error').toBeInstanceOf(Error);
    if (typeof e.errorContains === 'string') expect((err as Error).message).toContain(e.errorContains);
    return;
  }
  const name = fn();
  let checked = false;
  if (typeof e.name === 'string') {
    expect(name).toBe(e.name);
    checked = true;
  }
  if (typeof e.prefix === 'string') {
    expect(name.startsWith(e.prefix), `${name} starts with ${e.prefix}`).toBe(true);
    checked = true;
  }
  if (typeof e.regex === 'string') {
    expect(name).toMatch(new RegExp(e.regex));
    checked = true;
  }
  if (typeof e.length === 'number') {
    expect(name).toHaveLength(e.length);
    checked = true;
  }
  if (typeof e.maxLength === 'number') {
    expect(name.length).toBeLessThanOrEqual(e.maxLength);
    checked = true;
  }
  if (!checked) expect.fail('naming vector: expected has none of name, prefix, regex, length, maxLength, error, errorContains');
}

/**
 * A template rendered with the vector's data: `.cluster.name` and `.random` as CAPI's `newTemplateGenerator` adds
 * them (unless the data sets them), the topology name of the input, then every key of `data` — CAPI's generators and
 * unit tests hand templates keys beyond the topology's (`.kubeadmControlPlane.name`, `.machineSet.name`, `.test`).
 */
function renderWithData(v: Vector, template: string): string {
  const data = rec(v.input.data);
  const clusterName = String(field(v.input, ['clusterName', 'cluster']) ?? rec(data.cluster).name ?? 'cluster');
  const md = rec(data.machineDeployment).topologyName;
  const mp = rec(data.machinePool).topologyName;
  const topologyName = field(v.input, ['topologyName']) ?? md ?? mp;
  const object: NamedObject = md !== undefined ? 'machineDeployment' : mp !== undefined ? 'machinePool' : 'controlPlane';
  const random = typeof data.random === 'string' ? data.random : randomAlphabet.slice(0, 5);
  const base = namingData(object, clusterName, random, typeof topologyName === 'string' ? topologyName : '');
  return generateNameFromData(template, { ...base, ...data }, randomAlphabet.slice(5, 10));
}

/** Target kinds meaning "every kind a ClusterClass names": the template is checked as each of them would check it. */
const allKinds = new Set(['all', '*', 'any']);

function webhook(v: Vector, of: string): void {
  const objects: NamedObject[] = allKinds.has(of) ? ['infrastructureCluster', 'controlPlane', 'machineDeployment', 'machinePool'] : [];
  const object = namingTemplateOf[of];
  if (object) objects.push(object);
  if (objects.length === 0) expect.fail(`naming vector: input.namingTemplateOf ${JSON.stringify(of)} is none of ${[...Object.keys(namingTemplateOf), ...allKinds].join(', ')}`);
  const errs = objects.flatMap((o) => namingTemplateErrors(o, String(v.input.template ?? '')));
  const e = v.expected as Rec;
  if (typeof e.rejected === 'boolean') {
    expect(errs.length > 0, errs.join('; ')).toBe(e.rejected);
  } else if (typeof e.valid === 'boolean') {
    expect(errs.length === 0, errs.join('; ')).toBe(e.valid);
  } else {
    expect.fail('naming webhook vector: expected has neither rejected nor valid');
  }
  if (typeof e.messageContains === 'string') expect(errs.join('\n')).toContain(e.messageContains);
}

const naming: VectorHandler = (v) => {
  const input = v.input;
  if (typeof input.namingTemplateOf === 'string') return webhook(v, input.namingTemplateOf);
  if (typeof input.object === 'string') {
    return checkName(v, () =>
      topologyObjectName({
        object: input.object as string,
        clusterName: String(field(input, ['clusterName', 'cluster']) ?? ''),
        clusterNamespace: typeof input.namespace === 'string' ? input.namespace : undefined,
        topologyName: typeof input.topologyName === 'string' ? input.topologyName : undefined,
        template: typeof input.template === 'string' ? input.template : undefined,
        currentName: typeof input.currentName === 'string' ? input.currentName : undefined,
      }),
    );
  }
  if (typeof input.template === 'string') return checkName(v, () => renderWithData(v, input.template as string));
  expect.fail('naming vector: the input has none of input.namingTemplateOf, input.object, input.template; cannot interpret it');
};

export const handlers: Record<string, VectorHandler> = {
  'capi-plan:naming:*': naming,
};

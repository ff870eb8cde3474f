/**
 * The builtin template names a patch reads are the names of the templates that are created (CAPI fixes a
 * template's name in `templateToTemplate`, before the patches run), and template rotation stays visible: a template
 * keeps its previous name while its patched spec is unchanged and gets a new one when it changes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandTopology, parseManifests, type ExpandedCluster, type KubeObject } from '../src/index.js';

const fixtures = join(import.meta.dirname, 'fixtures', 'topology');
const load = (...files: string[]): KubeObject[] => files.flatMap((f) => parseManifests(readFileSync(join(fixtures, f), 'utf8')));
const objects = (): KubeObject[] => load('class-v1beta2.yaml', 'class-builtin-names.yaml');

function delta(input: KubeObject[], previous?: ExpandedCluster): ExpandedCluster {
  const { clusters } = expandTopology(input, previous ? { previous: [previous] } : {});
  const c = clusters.find((x) => x.cluster === 'team-a/delta');
  if (!c) throw new Error('no delta');
  expect(c.errors).toEqual([]);
  return c;
}

function at(o: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((cur, k) => (cur as Record<string, unknown> | undefined)?.[k], o);
}

function object(c: ExpandedCluster, role: string): KubeObject {
  const found = c.objects.find((o) => o.role === role);
  if (!found) throw new Error(`no object with role ${role}`);
  return found.object;
}

const nameOf = (c: ExpandedCluster, role: string): string => at(object(c, role), 'metadata.name') as string;

function withSize(size: string): KubeObject[] {
  const input = objects();
  const cluster = input.find((o) => o.kind === 'Cluster' && at(o, 'metadata.name') === 'delta') as KubeObject;
  (at(cluster, 'spec.topology') as Record<string, unknown>).variables = [{ name: 'size', value: size }];
  return input;
}

/** Every builtin name the patches wrote equals the name of the object created for that role, and the refs agree. */
function expectNamesAgree(c: ExpandedCluster): void {
  const cpMachine = nameOf(c, 'controlPlaneInfrastructureMachineTemplate');
  const bootstrap = nameOf(c, 'machineDeploymentBootstrapTemplate/md-0');
  const machine = nameOf(c, 'machineDeploymentInfrastructureTemplate/md-0');
  const cp = object(c, 'controlPlane');
  expect(at(cp, 'spec.machineTemplateName')).toBe(cpMachine);
  expect(at(cp, 'spec.machineTemplate.spec.infrastructureRef.name')).toBe(cpMachine);
  const bootstrapSpec = at(object(c, 'machineDeploymentBootstrapTemplate/md-0'), 'spec.template.spec');
  expect(bootstrapSpec).toMatchObject({ machineName: machine, selfName: bootstrap });
  expect(at(object(c, 'machineDeploymentInfrastructureTemplate/md-0'), 'spec.template.spec.bootstrapName')).toBe(bootstrap);
  const md = object(c, 'machineDeployment/md-0');
  expect(at(md, 'spec.template.spec.bootstrap.configRef.name')).toBe(bootstrap);
  expect(at(md, 'spec.template.spec.infrastructureRef.name')).toBe(machine);
  const poolConfig = object(c, 'machinePoolBootstrapConfig/mp-0');
  expect(at(poolConfig, 'spec.poolMachineName')).toBe(nameOf(c, 'machinePoolInfrastructureMachinePool/mp-0'));
  expect(at(poolConfig, 'spec.poolConfigName')).toBe(nameOf(c, 'machinePoolBootstrapConfig/mp-0'));
}

describe('builtin template names', () => {
  it('name the templates that are created, including a template that records its own name', () => {
    expectNamesAgree(delta(objects()));
  });

  it('keep every template name when the base expansion had the same specs', () => {
    const base = delta(objects());
    const head = delta(objects(), base);
    expect(head.objects.map((o) => [o.role, at(o.object, 'metadata.name')])).toEqual(base.objects.map((o) => [o.role, at(o.object, 'metadata.name')]));
    expectNamesAgree(head);
  });

  it('rotate a template whose patched spec changed, and the builtins that name it follow', () => {
    const base = delta(withSize('medium'));
    const head = delta(withSize('xlarge'), base);
    expect(at(object(head, 'machineDeploymentInfrastructureTemplate/md-0'), 'spec.template.spec.size')).toBe('xlarge');
    expect(nameOf(head, 'machineDeploymentInfrastructureTemplate/md-0')).not.toBe(nameOf(base, 'machineDeploymentInfrastructureTemplate/md-0'));
    expect(nameOf(head, 'machineDeploymentInfrastructureTemplate/md-0')).toMatch(/^delta-md-0-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    // The bootstrap template records the machine template's name, so its spec changed too: CAPI rotates it as well.
    expect(nameOf(head, 'machineDeploymentBootstrapTemplate/md-0')).not.toBe(nameOf(base, 'machineDeploymentBootstrapTemplate/md-0'));
    // Object names never rotate, and the control plane's machine template spec did not change.
    for (const role of ['controlPlaneInfrastructureMachineTemplate', 'controlPlane', 'machineDeployment/md-0', 'machinePoolBootstrapConfig/mp-0']) {
      expect(nameOf(head, role), role).toBe(nameOf(base, role));
    }
    expectNamesAgree(head);
  });

  it('give the same names for the same input', () => {
    const names = (c: ExpandedCluster): unknown[] => c.objects.map((o) => at(o.object, 'metadata.name'));
    expect(names(delta(withSize('xlarge')))).toEqual(names(delta(withSize('xlarge'))));
    expect(names(delta(withSize('xlarge'), delta(withSize('medium'))))).toEqual(names(delta(withSize('xlarge'), delta(withSize('medium')))));
  });
});

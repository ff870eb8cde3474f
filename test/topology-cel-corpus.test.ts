// x-kubernetes-validations of real provider CRDs (the corpus): the API server accepted every one of them, so they
// compile and fit the cost budgets here too; and their rules judge realistic objects as the API server would.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { checkCelSchema, validateCelRules, type JSONSchemaProps } from '../src/apiextensions/index.js';
import { sharedDir } from './helpers/shared.js';

const shared = sharedDir('corpus');

interface CrdVersion {
  crd: string;
  version: string;
  schema: JSONSchemaProps;
}

function crdVersionsWithRules(file: string): CrdVersion[] {
  const out: CrdVersion[] = [];
  for (const doc of parseAllDocuments(readFileSync(join(shared.path, 'repository', file), 'utf8'))) {
    const o = doc.toJS() as { kind?: string; metadata?: { name?: string }; spec?: { versions?: { name: string; schema?: { openAPIV3Schema?: JSONSchemaProps } }[] } };
    if (o?.kind !== 'CustomResourceDefinition') continue;
    for (const v of o.spec?.versions ?? []) {
      const schema = v.schema?.openAPIV3Schema;
      if (schema && JSON.stringify(schema).includes('x-kubernetes-validations')) out.push({ crd: o.metadata?.name ?? '', version: v.name, schema });
    }
  }
  return out;
}

const files = [
  'cluster-api/v1.13.5/core-components.yaml',
  'control-plane-kubeadm/v1.13.5/control-plane-components.yaml',
  'infrastructure-aws/v2.11.1/infrastructure-components.yaml',
];

describe.skipIf(!shared.present)(`CRD rules of provider releases${shared.skipped}`, () => {
  for (const file of files) {
    it(`every rule of ${file} compiles within budget`, () => {
      const versions = crdVersionsWithRules(file);
      expect(versions.length).toBeGreaterThan(0);
      for (const v of versions) {
        const errors = checkCelSchema(v.schema, `spec.versions[${v.crd}/${v.version}].schema.openAPIV3Schema`, { resourceRoot: true });
        expect(errors.map((e) => e.message)).toEqual([]);
      }
    });
  }

  it('a MachineDrainRule with duplicate machine selectors is refused by its uniqueness rule', () => {
    const drainRule = crdVersionsWithRules('cluster-api/v1.13.5/core-components.yaml').find(
      (v) => v.crd === 'machinedrainrules.cluster.x-k8s.io' && v.version === 'v1beta2',
    );
    expect(drainRule).toBeDefined();
    const object = (machines: unknown[]): unknown => ({
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'MachineDrainRule',
      metadata: { name: 'skip-gpu-pods', namespace: 'default' },
      spec: { drain: { behavior: 'Skip' }, machines },
    });
    const gpu = { selector: { matchLabels: { gpu: 'true' } } };
    const cpu = { selector: { matchLabels: { gpu: 'false' } } };
    expect(validateCelRules(drainRule!.schema, object([gpu, cpu]), undefined, '', { resourceRoot: true })).toEqual([]);
    expect(validateCelRules(drainRule!.schema, object([gpu, gpu]), undefined, '', { resourceRoot: true }).map((e) => e.message)).toEqual([
      'spec.machines: Invalid value: entries in machines must be unique',
    ]);
  });
});

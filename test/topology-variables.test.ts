/**
 * ClusterClass variables beyond the capi-plan vectors: values as they come from YAML (no raw JSON text), v1beta1
 * definitions, MachineDeployment overrides, `status.variables` and Go's JSON errors for raw values.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeGoJson } from '../src/go/index.js';
import { parseManifests } from '../src/yaml/index.js';
import { sharedDir } from './helpers/shared.js';
import {
  clusterClassStatusVariables,
  defaultClusterVariables,
  defaultMachineVariables,
  validateClusterClassVariables,
  validateClusterVariables,
  validateMachineVariables,
  type ClusterClassVariable,
} from '../src/topology/index.js';

const classVariables: ClusterClassVariable[] = [
  {
    name: 'region',
    required: true,
    schema: { openAPIV3Schema: { type: 'string', enum: ['us-east-1', 'eu-west-1'] } },
  },
  {
    name: 'proxy',
    schema: {
      openAPIV3Schema: {
        type: 'object',
        default: {},
        properties: { enabled: { type: 'boolean', default: false }, url: { type: 'string', format: 'uri' } },
      },
    },
  },
];
const status = clusterClassStatusVariables(classVariables);

describe('ClusterClass status.variables', () => {
  it('lists inline definitions sorted by name', () => {
    expect(status.map((v) => [v.name, v.definitions.map((d) => d.from), v.definitionsConflict])).toEqual([
      ['proxy', ['inline'], false],
      ['region', ['inline'], false],
    ]);
  });

  it('marks a name defined differently by an external patch as conflicting', () => {
    const withPatch = clusterClassStatusVariables(classVariables, [
      { patch: 'aws', variables: [{ name: 'region', required: true, schema: { openAPIV3Schema: { type: 'string' } } }] },
      { patch: 'same', variables: [{ name: 'proxy', schema: classVariables[1]!.schema }] },
    ]);
    expect(withPatch.map((v) => [v.name, v.definitions.map((d) => d.from), v.definitionsConflict])).toEqual([
      ['proxy', ['inline', 'same'], false],
      ['region', ['inline', 'aws'], true],
    ]);
    expect(validateClusterVariables([{ name: 'region', value: 'us-east-1' }], undefined, withPatch, 'spec.topology.variables')[0]?.message).toBe(
      'spec.topology.variables: Invalid value: "[Name: proxy,Name: region]": variable definitions in the ClusterClass not valid: variable "region" has conflicting definitions',
    );
  });
});

describe('Cluster variables from YAML', () => {
  it('creates defaulted variables after the set ones and defaults inside objects', () => {
    const got = defaultClusterVariables([{ name: 'region', value: 'us-east-1' }], status, 'spec.topology.variables');
    expect(got.errors).toEqual([]);
    expect(got.variables).toEqual([
      { name: 'region', value: 'us-east-1', raw: '"us-east-1"' },
      { name: 'proxy', value: { enabled: false }, raw: '{"enabled":false}' },
    ]);
  });

  it('never creates MachineDeployment overrides, but defaults the ones set', () => {
    const got = defaultMachineVariables([{ name: 'proxy', value: { url: 'http://p' } }], status, 'overrides');
    expect(got.variables).toEqual([{ name: 'proxy', value: { enabled: false, url: 'http://p' }, raw: '{"enabled":false,"url":"http://p"}' }]);
  });

  it('reports a typo with the value as the API server re-encodes it', () => {
    const errors = validateClusterVariables(
      [
        { name: 'region', value: 'us-east-2' },
        { name: 'proxy', value: { enabled: true, ur: 'http://p' } },
      ],
      undefined,
      status,
      'spec.topology.variables',
    );
    expect(errors.map((e) => e.message)).toEqual([
      'spec.topology.variables[region].value: Unsupported value: "\\"us-east-2\\"": supported values: "us-east-1", "eu-west-1"',
      'spec.topology.variables[proxy]: Invalid value: "{\\"enabled\\":true,\\"ur\\":\\"http://p\\"}": failed validation: "ur" field(s) are not specified in the variable schema of variable "proxy"',
    ]);
  });

  it('requires required variables on the Cluster, not on overrides', () => {
    expect(validateClusterVariables([], undefined, status, 'spec.topology.variables').map((e) => e.message)).toEqual([
      'spec.topology.variables: Required value: required variable "region" must be set',
    ]);
    expect(validateMachineVariables([], undefined, status, 'spec.topology.workers.machineDeployments[md-0].variables.overrides')).toEqual([]);
  });

  it('rejects a variable set twice', () => {
    const errors = validateClusterVariables(
      [
        { name: 'region', value: 'us-east-1' },
        { name: 'region', value: 'eu-west-1' },
      ],
      undefined,
      status,
      'spec.topology.variables',
    );
    expect(errors.map((e) => e.message)).toEqual([
      'spec.topology.variables[region]: Invalid value: "\\"eu-west-1\\"": variable "region" is set more than once',
    ]);
  });
});

describe('ClusterClass variable definitions', () => {
  it('checks v1beta1 metadata under its own field name, and reserves builtin', () => {
    const errors = validateClusterClassVariables(
      undefined,
      [{ name: 'builtin', metadata: { labels: { '-bad': 'x' } }, schema: { openAPIV3Schema: { type: 'string' } } }],
      'spec.variables',
    );
    expect(errors.map((e) => `${e.field}: ${e.detail.slice(0, 40)}`)).toEqual([
      'spec.variables[builtin].name: "builtin" is a reserved variable name',
      'spec.variables[builtin].metadata.labels: name part must consist of alphanumeric c',
    ]);
  });

  it('validates defaults against the schema', () => {
    const errors = validateClusterClassVariables(
      undefined,
      [{ name: 'cpu', schema: { openAPIV3Schema: { type: 'integer', minimum: 2, default: 1 } } }],
      'spec.variables',
    );
    expect(errors.map((e) => e.message)).toEqual([
      'spec.variables[cpu].schema.openAPIV3Schema.default: Invalid value: 1:  in body should be greater than or equal to 2',
    ]);
  });
});

describe("Go's JSON decoding errors", () => {
  it.each([
    ['invalidString', "invalid character 'i' looking for beginning of value"],
    ['"a": "b"', "invalid character ':' after top-level value"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['[1,]', "invalid character ']' looking for beginning of value"],
    ['{"a":1', 'unexpected end of JSON input'],
    ['tru', 'unexpected end of JSON input'],
    ['trux', "invalid character 'x' in literal true (expecting 'e')"],
    ['01', "invalid character '1' after top-level value"],
    ['"\\x"', "invalid character 'x' in string escape code"],
  ])('%s', (text, message) => {
    expect(() => decodeGoJson(text)).toThrow(message);
  });
});

describe('the ClusterClasses of real provider releases', () => {
  const corpus = sharedDir('corpus');
  const files = corpus.present ? findClusterClassFiles(join(corpus.path, 'repository')) : [];

  it.runIf(corpus.present)(`every variable definition is valid and its defaults apply${corpus.skipped}`, () => {
    expect(files.length).toBeGreaterThan(0);
    let variables = 0;
    for (const file of files) {
      for (const obj of parseManifests(readFileSync(file, 'utf8'))) {
        if (obj.kind !== 'ClusterClass') continue;
        const spec = (obj.spec ?? {}) as { variables?: ClusterClassVariable[] };
        const defs = spec.variables ?? [];
        variables += defs.length;
        expect(validateClusterClassVariables(undefined, defs, 'spec.variables').map((e) => e.message), file).toEqual([]);
        const defaulted = defaultClusterVariables([], clusterClassStatusVariables(defs), 'spec.topology.variables');
        expect(defaulted.errors, file).toEqual([]);
        const errors = validateClusterVariables(defaulted.variables, undefined, clusterClassStatusVariables(defs), 'spec.topology.variables');
        // Only required variables without defaults may be missing.
        expect(errors.every((e) => e.type === 'FieldValueRequired'), `${file}: ${errors.map((e) => e.message).join('\n')}`).toBe(true);
      }
    }
    expect(variables).toBeGreaterThan(0);
  });
});

function findClusterClassFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...findClusterClassFiles(path));
    else if (entry.name.endsWith('.yaml') && readFileSync(path, 'utf8').includes('kind: ClusterClass')) out.push(path);
  }
  return out.sort();
}

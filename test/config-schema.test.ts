/**
 * schema/capi.config.schema.json: generated from the zod schema, compiled by ajv in strict mode as editors and CI
 * linters use it, and agreeing with the loader: every config `init` writes and every example config validates, the
 * configs the CLI refuses (a version it cannot parse, the cross-field rules) are refused.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configJsonSchemaText } from '../src/config/json-schema.js';
import { isVersionConstraint, versionConstraintPattern } from '../src/config/kinds.js';
import { readConfigFile } from '../src/config/load.js';
import { runCli } from './helpers/cli.js';
import { sharedDir } from './helpers/shared.js';
import { tempDir } from './helpers/testdir.js';

const schemaUrl = new URL('../schema/capi.config.schema.json', import.meta.url);

// ajv 8 (draft 2020-12), as the kubernetes-models dependency brings it (through ajv-formats); the top-level ajv
// is eslint's v6, and no dependency is added for this test.
const requireAjv = createRequire(createRequire(import.meta.url).resolve('ajv-formats'));
type Validate = ((data: unknown) => boolean) & { errors?: { instancePath: string; message?: string }[] | null };
const Ajv2020 = (requireAjv('ajv/dist/2020') as { default: new (opts: Record<string, unknown>) => { compile: (s: unknown) => Validate } }).default;

function validator(): Validate {
  return new Ajv2020({ strict: true, allErrors: true }).compile(JSON.parse(readFileSync(schemaUrl, 'utf8')));
}

const corpus = sharedDir('corpus');
const env = { PATH: process.env.PATH, HOME: process.env.HOME };

const minimal = { providers: { core: { name: 'cluster-api', version: 'latest' } } };

describe('schema/capi.config.schema.json', () => {
  it('matches the zod schema (UPDATE_SCHEMA=1 regenerates it)', () => {
    const expected = configJsonSchemaText();
    if (process.env.UPDATE_SCHEMA === '1') {
      writeFileSync(schemaUrl, expected);
    }
    expect(readFileSync(schemaUrl, 'utf8'), 'the committed JSON Schema drifted; run `UPDATE_SCHEMA=1 npx vitest run test/config-schema.test.ts`').toBe(expected);
  });

  it('compiles with ajv in strict mode, without allowUnionTypes', () => {
    expect(() => validator()).not.toThrow();
  });

  it('its version pattern accepts exactly the versions and ranges the loader accepts', () => {
    const pattern = new RegExp(versionConstraintPattern, 'u');
    const cases = [
      ...['latest', 'v1.13.5', '1.13.5', '~1.13.0', '^2.10', '1.x', '1.2.x', 'v1.x', '*', 'x', '>=1.12 <1.14', '1.2 - 1.4', '~1.2 || ^2', '=1.2.3', '>= 1.2', '~>1.2'],
      ...['1.2.3-rc.1', '1.2.3+build.5', '<=v1.2.3', '^v1.2', '>1', '~ 1.2', '1.2.3 - 2', ' 1.2.3 ', ''],
      ...['1.x.banana', 'banana', '1.2.3.4', 'V1.2.3', '01.2.3', '1.02.3', '1.2.3-rc.01', '1.2.3-', 'LATEST', '>=1.2.3<2', 'v', '~', '1.2.3 -', 'latest || 1.2'],
    ];
    for (const v of cases) expect(pattern.test(v), JSON.stringify(v)).toBe(isVersionConstraint(v));
  });

  it('refuses what the loader refuses: a version it cannot parse, no core provider, clusters beside managementClusters, a fleet-only generator', () => {
    const validate = validator();
    const refused = (config: unknown): string[] => (validate(config) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`));
    expect(refused(minimal)).toEqual([]);
    expect(refused({ providers: { core: { name: 'cluster-api', version: '1.x.banana' } } })).toContain('/providers/core/version must match pattern "' + versionConstraintPattern + '"');
    expect(refused({ ...minimal, clusters: [{ name: 'a', namespace: 'b', infrastructure: 'docker', kubernetesVersion: 'v1.33.1', templateVersion: 'latest' }] }).join('\n')).toContain('/clusters/0/templateVersion must match pattern');
    expect(refused({ providers: { bootstrap: [] } }).join('\n')).toContain('/providers must have required property \'core\'');
    expect(refused({})).not.toEqual([]);
    const fleet = { managementClusters: { eu: { providers: { core: { name: 'cluster-api', version: 'latest' } } } } };
    expect(refused(fleet)).toEqual([]);
    expect(refused({ managementClusters: { eu: {} } })).not.toEqual([]);
    expect(refused({ managementClusters: {} })).not.toEqual([]);
    expect(refused({ ...fleet, clusters: [] })).not.toEqual([]);
    expect(refused({ ...minimal, argocd: { repoURL: 'https://git.example.com/a.git', generator: 'clusters' } })).not.toEqual([]);
    const argocd = { repoURL: 'https://git.example.com/a.git', generator: 'clusters', mode: 'applicationset' };
    expect(refused({ ...fleet, argocd })).toEqual([]);
    expect(refused({ ...fleet, argocd: { ...argocd, mode: 'applications' } })).not.toEqual([]);
    expect(refused({ managementClusters: { eu: { ...fleet.managementClusters.eu, argocd: { namePrefix: 'x-' } } }, argocd })).not.toEqual([]);
    expect(refused({ managementClusters: { eu: { ...fleet.managementClusters.eu, argocd: { generator: 'clusters' } } } })).not.toEqual([]);
  });

  it('every example config of the repository validates', async () => {
    const validate = validator();
    const root = new URL('..', import.meta.url).pathname;
    for (const file of ['capi.config.ts', 'test/fixtures/fleet/capi.config.mjs']) {
      const value = await readConfigFile(join(root, file));
      expect(validate(value), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it.skipIf(!corpus.present)(`every config shape init writes validates (each corpus infrastructure, Argo CD, no bootstrap or control plane)${corpus.skipped}`, async () => {
    const validate = validator();
    const repository = join(corpus.path, 'repository');
    const shapes = [['-i', 'docker'], ['-i', 'aws,azure'], ['-i', 'vsphere', '--argocd', 'https://git.example.com/capi.git'], ['-i', 'metal3', '-b', '', '-c', '']];
    for (const shape of shapes) {
      const dir = tempDir();
      const init = await runCli(['init', '--repository', repository, ...shape], { cwd: dir, env });
      expect(init.code, init.stderr).toBe(0);
      const value = await readConfigFile(join(dir, 'capi.config.ts'));
      expect(validate(value), `init ${shape.join(' ')}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });
});

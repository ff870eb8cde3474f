import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { fixtureConfig, fixtureProject, testdir } from './helpers/pipeline-fixtures.js';
import { defineConfig, type CapiformConfig } from '../src/index.js';

describe('capi.config loading', () => {
  it('reports every type error at once, each with its config path, the file and what is allowed', async () => {
    const dir = fixtureProject({
      infra: `{ name: 'docker', version: '1.x.y', url: './repo', colour: 'blue' }, { name: 'aws', version: 7 }`,
      extra: `contract: 'beta',`,
    });
    const r = await runCli(['render'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Error: invalid config (4 problems):');
    expect(r.stderr).toContain(
      'providers.infrastructure[0].version: "1.x.y" is not a version or range; use an exact version (v1.13.5), a semver range (~1.13.0, ^2.10) or "latest"',
    );
    expect(r.stderr).toContain('providers.infrastructure[0].colour: unknown field; allowed: name, version, url, type,');
    expect(r.stderr).toContain('providers.infrastructure[1].version: expected string, received number');
    expect(r.stderr).toContain('contract: "beta" is not a contract such as "v1beta2"');
    expect(r.stderr).toContain(`at: ${dir}/capi.config.ts`);
    expect(r.stderr).not.toContain('    at '); // no stack trace
  });

  it('explains a typo inside `core: { … }` (an entry or a list) and a bad variable value instead of "Invalid input"', async () => {
    const dir = testdir({
      'capi.config.json': JSON.stringify({
        providers: { core: { name: 'cluster-api', verison: 'latest', url: './repo' } },
        variables: { A: ['x'], B: { envv: 'X' } },
        clusters: [{ namespace: 'a', infrastructure: 'docker', kubernetesVersion: 'v1.33.0' }],
      }),
    });
    const r = await runCli(['render'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('Invalid input');
    expect(r.stderr).toContain('providers.core.version: is required (string)');
    expect(r.stderr).toContain('providers.core.verison: unknown field; allowed: name, version, url, type,');
    expect(r.stderr).toContain('variables.A: expected string, number, boolean or object, received array');
    expect(r.stderr).toContain('variables.B.envv: unknown field; allowed: env');
    expect(r.stderr).toContain('clusters[0].name: is required (string)');
  });

  it('reports a syntax error in a TypeScript config without a stack trace', async () => {
    const dir = testdir({ 'capi.config.ts': 'export default { providers: { core: { name: "cluster-api", version: "latest" ' });
    const r = await runCli(['lock'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^Error: failed to load the config: /);
    expect(r.stderr).toContain(`at: ${dir}/capi.config.ts`);
  });

  it('loads a TypeScript config exporting `config` (no default), and says so when it exports neither', async () => {
    const dir = testdir({
      'capi.config.ts': "export const config = { providers: { core: { name: 'cluster-api', version: 'one' } } };\n",
    });
    const r = await runCli(['lock'], { cwd: dir });
    expect(r.code).toBe(2);
    // The config was read: validation talks about its fields, not about an unknown `config` field.
    expect(r.stderr).toContain('providers.core.version: "one" is not a version or range');
    expect(r.stderr).not.toContain('config: unknown field');
    testdir({ 'capi.config.ts': 'export const cfg = {};\n' }, dir);
    const none = await runCli(['lock'], { cwd: dir });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Error: the config file exports no config');
  });

  it('points at the line and column of a TypeScript syntax error', async () => {
    const dir = testdir({ 'capi.config.ts': 'export default {\n  providers: {},\n};\nconst a: number = ;\n' });
    const r = await runCli(['lock'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^Error: failed to load the config: .*Unexpected token\n/);
    expect(r.stderr).toContain(`at: ${dir}/capi.config.ts:4:18`);
  });

  it('checks rules across fields: core required, unknown infrastructure, the same cluster twice', async () => {
    const dir = testdir({
      'capi.config.json': JSON.stringify({
        providers: { infrastructure: [{ name: 'docker', version: 'latest', url: './repo' }] },
        clusters: [
          { name: 'a', namespace: 'ns', infrastructure: 'docker', kubernetesVersion: 'v1.33.0' },
          { name: 'a', namespace: 'ns', infrastructure: 'docker', kubernetesVersion: 'v1.33.0' },
          { name: 'b', namespace: 'ns', infrastructure: 'azure', kubernetesVersion: 'v1.33.0' },
        ],
      }),
    });
    const r = await runCli(['render'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('providers.core: is required');
    expect(r.stderr).toContain('clusters[1]: cluster "ns/a" is already defined at clusters[0]; names must be unique per namespace');
    expect(r.stderr).toContain('clusters[2].infrastructure: "azure" is not a configured infrastructure provider; allowed: "docker"');
  });

  it('finds capi.config.yaml in the working directory, or the file given with --config', async () => {
    const yamlDir = testdir({ 'capi.config.yaml': 'providers:\n  core: { name: cluster-api, version: "one" }\n' });
    const r = await runCli(['lock'], { cwd: yamlDir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`at: ${yamlDir}/capi.config.yaml`);
    const none = testdir({ 'README.md': '' });
    const r2 = await runCli(['render'], { cwd: none });
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain(`Error: no capiform config found in ${none}`);
    expect(r2.stderr).toContain('capi.config.ts, capi.config.mts, capi.config.js, capi.config.mjs, capi.config.json, capi.config.yaml');
    const r3 = await runCli(['render', '--config', 'nope.ts'], { cwd: none });
    expect(r3.code).toBe(2);
    expect(r3.stderr).toContain('Error: config file "nope.ts" does not exist');
  });

  it('rejects a YAML syntax error with its line', async () => {
    const dir = testdir({ 'capi.config.yaml': 'providers:\n  core: [\n' });
    const r = await runCli(['render'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Error: config is not valid YAML: .*\n {2}at: .*capi\.config\.yaml:\d+:\d+/);
  });

  it('loads a .mjs config and a config exporting `config` instead of a default', async () => {
    const dir = fixtureProject();
    testdir({ 'alt.config.mjs': fixtureConfig().replace("import { defineConfig } from 'capiform';", 'const defineConfig = (c) => c;').replace('export default', 'export const config =') }, dir);
    const r = await runCli(['lock', '--config', 'alt.config.mjs'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('cluster-api v1.13.1 (v1beta2)');
  });

  it('defineConfig returns its argument and types the config', () => {
    const c: CapiformConfig = { providers: { core: { name: 'cluster-api', version: 'latest' } } };
    expect(defineConfig(c)).toBe(c);
  });
});

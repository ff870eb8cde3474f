/**
 * `render` validates every topology Cluster's variables against its ClusterClass: on the embedded example, a value
 * the class's schema refuses fails the render (exit 2) naming the config entry, the variable, the rule and the value,
 * and nothing is written — neither the tree nor the lock.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { repoRoot } from './helpers/diff-fixtures.js';
import { snapshotDir } from './helpers/dir-snapshot.js';
import { tempDir } from './helpers/testdir.js';

function exampleProject(): string {
  const dir = tempDir();
  for (const f of ['capi.config.ts', 'capi.lock.yaml', 'examples', 'providers', 'clusterclasses', 'clusters', 'argocd']) {
    cpSync(join(repoRoot, f), join(dir, f), { recursive: true });
  }
  const config = join(dir, 'capi.config.ts');
  // A plain object export: under vitest a `capiform` import would make the config loader transpile all of src/.
  writeFileSync(config, readFileSync(config, 'utf8').replace("import { defineConfig } from 'capiform';\n", '').replace('export default defineConfig({', 'export default ({'));
  return dir;
}

describe('render: topology variables are validated against the ClusterClass', () => {
  it('the example renders as committed (its variables are valid)', async () => {
    const dir = exampleProject();
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, CAPIFORM_CACHE_DIR: tempDir('capiform-cache-') };
    const r = await runCli(['render', '--check'], { cwd: dir, env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('a value the schema refuses exits 2 with clusters[1], spec.topology.variables[<name>], the rule and the value; nothing is written', async () => {
    const dir = exampleProject();
    const config = join(dir, 'capi.config.ts');
    // podSecurityStandard.enabled is a boolean in the class; the development flavor fills it from this variable.
    writeFileSync(config, readFileSync(config, 'utf8').replace("POD_SECURITY_STANDARD_ENABLED: 'false'", "POD_SECURITY_STANDARD_ENABLED: 'maybe'"));
    const before = snapshotDir(dir);
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, CAPIFORM_CACHE_DIR: tempDir('capiform-cache-') };
    const r = await runCli(['render'], { cwd: dir, env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('clusters[1] (team-a/dev-2)');
    expect(r.stderr).toContain('the topology variables of Cluster team-a/dev-2 are not valid for ClusterClass team-a/quick-start');
    expect(r.stderr).toContain(
      'spec.topology.variables[podSecurityStandard].value.enabled: Invalid value: "{\\"enabled\\":\\"maybe\\",\\"enforce\\":\\"baseline\\"}": enabled in body must be of type boolean: "string"',
    );
    expect(r.stderr).toContain('clusters[1].variables');
    expect(snapshotDir(dir)).toEqual(before);
  });
});

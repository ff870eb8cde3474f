/**
 * Config mistakes that render clean today, on real provider releases (the corpus): a variable set where nothing reads
 * it (a typo of the one the template reads) is a warning with a did-you-mean, in a single management cluster and in a
 * fleet; a manager.featureGates name the release does not know stops the render.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { sharedDir } from './helpers/shared.js';
import { tempDir } from './helpers/testdir.js';

const corpus = sharedDir('corpus');
const repository = join(corpus.path, 'repository');
const env = { PATH: process.env.PATH, HOME: process.env.HOME };

function edit(dir: string, change: (text: string) => string): void {
  const file = join(dir, 'capi.config.ts');
  const before = readFileSync(file, 'utf8');
  const after = change(before);
  expect(after).not.toBe(before);
  writeFileSync(file, after);
}

/** A project `init` made for CAPD's development (ClusterClass) flavor, locked. */
async function dockerProject(): Promise<string> {
  const dir = tempDir();
  expect((await runCli(['init', '--repository', repository, '-i', 'docker'], { cwd: dir, env })).code).toBe(0);
  expect((await runCli(['lock'], { cwd: dir, env })).code).toBe(0);
  return dir;
}

describe.skipIf(!corpus.present)(`variables the config sets and nothing reads${corpus.skipped}`, () => {
  it("CAPD's development flavor: typos at the cluster, provider and global level are warnings naming the config path and the variable meant", async () => {
    const dir = await dockerProject();
    edit(dir, (t) =>
      t
        .replace('workerMachineCount: 1,', "workerMachineCount: 1,\n      variables: { POD_SECURITY_STANDARD_ENABLD: 'true', POD_CIDR: '[\"10.0.0.0/16\"]' },")
        .replace("core: { name: 'cluster-api', version: '~1.13.5',", "core: { name: 'cluster-api', version: '~1.13.5', variables: { EXP_RUNTIME_SDKK: 'true' },")
        .replace("CLUSTER_TOPOLOGY: 'true',", "CLUSTER_TOPOLOGY: 'true',\n    EXP_MACHINE_POOLL: 'false',\n    SERVICE_DOMAIN: 'cluster.example',"),
    );
    const render = await runCli(['render'], { cwd: dir, env });
    expect(render.code, render.stderr).toBe(0);
    const warnings = render.stderr.split('\n').filter((l) => l.startsWith('warning:'));
    expect(warnings).toEqual([
      'warning: providers.core.variables.EXP_RUNTIME_SDKK is set but no template, ClusterClass or component of providers.core (cluster-api) reads it; did you mean EXP_RUNTIME_SDK?',
      'warning: clusters[0].variables.POD_SECURITY_STANDARD_ENABLD is set but no template, ClusterClass or component of clusters[0] (default/docker-example) reads it; did you mean POD_SECURITY_STANDARD_ENABLED?',
      'warning: variables.EXP_MACHINE_POOLL is set but no provider component, cluster template or ClusterClass reads it; did you mean EXP_MACHINE_POOL?',
    ]);
    // The tree is written as before: the template's own default stands in for the typo.
    expect(readFileSync(join(dir, 'clusters/default/docker-example/cluster.yaml'), 'utf8')).toContain('10.0.0.0/16');

    // The same on a run that takes everything from the tree cache, in --json, and under --check; never the exit code.
    const json = await runCli(['render', '--json'], { cwd: dir, env });
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as { unusedVariables: { path: string; variable: string; didYouMean: string[] }[] };
    expect(report.unusedVariables.map((u) => [u.path, u.didYouMean])).toEqual([
      ['providers.core.variables.EXP_RUNTIME_SDKK', ['EXP_RUNTIME_SDK']],
      ['clusters[0].variables.POD_SECURITY_STANDARD_ENABLD', ['POD_SECURITY_STANDARD_ENABLED']],
      ['variables.EXP_MACHINE_POOLL', ['EXP_MACHINE_POOL']],
    ]);
    const check = await runCli(['render', '--check', '--frozen'], { cwd: dir, env });
    expect(check.code).toBe(0);
    expect(check.stderr).toContain('warning: clusters[0].variables.POD_SECURITY_STANDARD_ENABLD is set');
    expect((await runCli(['render', '--quiet'], { cwd: dir, env })).stderr).toBe('');
    // lock reads the same files (without rendering them) and says the same.
    const lock = await runCli(['lock'], { cwd: dir, env });
    expect(lock.code).toBe(0);
    expect(lock.stderr).toContain('warning: variables.EXP_MACHINE_POOLL is set but no provider component');
  });

  it('validate alone warns the same, from the lock and the cache, with its exit code unchanged; without a lock it says the check was skipped', async () => {
    const dir = await dockerProject();
    const clean = await runCli(['validate'], { cwd: dir, env });
    expect(clean.stderr).not.toContain('warning:');
    expect(clean.stderr).not.toContain('unused-variables');
    edit(dir, (t) =>
      t
        .replace('workerMachineCount: 1,', "workerMachineCount: 1,\n      variables: { POD_SECURITY_STANDARD_ENABLD: 'true' },")
        .replace("CLUSTER_TOPOLOGY: 'true',", "CLUSTER_TOPOLOGY: 'true',\n    EXP_MACHINE_POOLL: 'false',"),
    );
    const before = readFileSync(join(dir, 'capi.lock.yaml'), 'utf8');
    const validate = await runCli(['validate'], { cwd: dir, env });
    expect(validate.code, validate.stderr).toBe(clean.code);
    expect(validate.stderr.split('\n').filter((l) => l.startsWith('warning:'))).toEqual([
      'warning: clusters[0].variables.POD_SECURITY_STANDARD_ENABLD is set but no template, ClusterClass or component of clusters[0] (default/docker-example) reads it; did you mean POD_SECURITY_STANDARD_ENABLED?',
      'warning: variables.EXP_MACHINE_POOLL is set but no provider component, cluster template or ClusterClass reads it; did you mean EXP_MACHINE_POOL?',
    ]);
    // validate reads the lock, never writes it.
    expect(readFileSync(join(dir, 'capi.lock.yaml'), 'utf8')).toBe(before);
    const json = await runCli(['validate', '--json'], { cwd: dir, env });
    expect(json.code).toBe(clean.code);
    const report = JSON.parse(json.stdout) as { unusedVariables: { path: string }[] };
    expect(report.unusedVariables.map((u) => u.path)).toEqual(['clusters[0].variables.POD_SECURITY_STANDARD_ENABLD', 'variables.EXP_MACHINE_POOLL']);
    expect((await runCli(['validate', '--quiet'], { cwd: dir, env })).stderr).toBe('');

    rmSync(join(dir, 'capi.lock.yaml'));
    const unlocked = await runCli(['validate'], { cwd: dir, env });
    expect(unlocked.code).toBe(clean.code);
    expect(unlocked.stderr).not.toContain('warning:');
    expect(unlocked.stderr.split('\n').filter((l) => l.startsWith('note: unused-variables'))).toEqual(['note: unused-variables check skipped: no capi.lock.yaml (run `capiform lock` first)']);
    expect(existsSync(join(dir, 'capi.lock.yaml'))).toBe(false);
  });

  it('a fleet: a shared variable one management cluster reads is used; one none reads is reported once, a management cluster\'s own by its path', async () => {
    const dir = tempDir();
    const p = (name: string): string => `{ name: '${name}', version: '~1.13.5', url: ${JSON.stringify(repository)} }`;
    writeFileSync(
      join(dir, 'capi.config.ts'),
      `export default {
  providers: { core: ${p('cluster-api')}, bootstrap: [${p('kubeadm')}], controlPlane: [${p('kubeadm')}], infrastructure: [${p('docker')}] },
  certManager: { version: '~1.19.4', url: ${JSON.stringify(repository)} },
  variables: { CLUSTER_TOPOLOGY: 'true', POD_SECURITY_STANDARD_ENABLED: 'false', SERVICE_DOMAN: 'cluster.example' },
  managementClusters: {
    east: {
      clusters: [{ name: 'dev', namespace: 'default', infrastructure: 'docker', flavor: 'development', kubernetesVersion: 'v1.33.1', controlPlaneMachineCount: 1 }],
    },
    west: { variables: { POD_CDIR: '10.1.0.0/16' } },
  },
};
`,
    );
    const render = await runCli(['render'], { cwd: dir, env });
    expect(render.code, render.stderr).toBe(0);
    expect(render.stderr.split('\n').filter((l) => l.startsWith('warning:'))).toEqual([
      'warning: managementClusters.west.variables.POD_CDIR is set but no template, ClusterClass or component of any provider or cluster of management cluster west reads it',
      'warning: variables.SERVICE_DOMAN is set but no provider component, cluster template or ClusterClass reads it; did you mean SERVICE_DOMAIN?',
    ]);
    expect(readdirSync(join(dir, 'targets')).sort()).toEqual(['east', 'west']);
    // validate judges the fleet the same way, from the lock.
    const validate = await runCli(['validate'], { cwd: dir, env });
    expect(validate.stderr.split('\n').filter((l) => l.startsWith('warning:') || l.startsWith('note:'))).toEqual(render.stderr.split('\n').filter((l) => l.startsWith('warning:')));
  });
});

describe.skipIf(!corpus.present)(`manager.featureGates names the release's manager knows${corpus.skipped}`, () => {
  it("CAPD knows CAPI's gates beyond its own flag; a misspelt gate stops the render with the known gates", async () => {
    const dir = await dockerProject();
    edit(dir, (t) => t.replace("{ name: 'docker', version: '~1.13.5',", "{ name: 'docker', version: '~1.13.5', manager: { featureGates: { KubeadmBootstrapFormatIgnition: true, ClusterTopolgy: true } },"));
    const render = await runCli(['render'], { cwd: dir, env });
    expect(render.code).toBe(2);
    expect(render.stderr).toContain('infrastructure-docker: the release\'s manager does not know the feature gate "ClusterTopolgy"');
    expect(render.stderr).toContain('providers.infrastructure[0].manager.featureGates.ClusterTopolgy');
    expect(render.stderr).toContain('did you mean ClusterTopology?');
    expect(render.stderr).not.toContain('"KubeadmBootstrapFormatIgnition"');
    expect(readdirSync(dir)).not.toContain('providers');
  });
});

describe.skipIf(!corpus.present)(`feature gates in operator mode come from the operator's provider objects${corpus.skipped}`, () => {
  it("spec.manager.featureGates over the release's defaults (after the config's variables) decide what the webhooks accept", async () => {
    const dir = await dockerProject();
    edit(dir, (t) => t.replace('export default defineConfig({\n', "export default defineConfig({\n  output: 'operator',\n"));
    // init's CLUSTER_TOPOLOGY: 'true' goes to every provider's config Secret: the release's ${CLUSTER_TOPOLOGY:=false} reads it.
    const on = await runCli(['render'], { cwd: dir, env });
    expect(on.code, on.stderr).toBe(0);
    expect(readFileSync(join(dir, 'providers/cluster-api/operator.yaml'), 'utf8')).toContain('kind: CoreProvider');

    edit(dir, (t) => t.replace("core: { name: 'cluster-api', version: '~1.13.5',", "core: { name: 'cluster-api', version: '~1.13.5', manager: { featureGates: { ClusterTopology: false } },"));
    const off = await runCli(['render'], { cwd: dir, env });
    expect(off.code).toBe(2);
    expect(off.stderr).toContain('error [gate/ClusterTopology]: ClusterClass default/quick-start');
    expect(off.stderr).toContain('feature gate ClusterTopology is off in the cluster-api manager');
    expect(off.stderr).toContain('providers.core.manager.featureGates.ClusterTopology: true');
    // The provider object was not written: the tree still holds the one that turned the gate on.
    expect(readFileSync(join(dir, 'providers/cluster-api/operator.yaml'), 'utf8')).not.toContain('featureGates');

    expect((await runCli(['render', '--no-validate'], { cwd: dir, env })).code).toBe(0);
    const validate = await runCli(['validate', '--json'], { cwd: dir, env });
    expect(validate.code).toBe(1);
    const report = JSON.parse(validate.stdout) as { findings: { rule?: string; kind: string; severity: string }[] };
    expect(report.findings.filter((f) => f.rule === 'gate/ClusterTopology').map((f) => f.kind)).toEqual(expect.arrayContaining(['Cluster', 'ClusterClass']));
  });
});

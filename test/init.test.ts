import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { sharedDir } from './helpers/shared.js';
import { tempDir } from './helpers/testdir.js';

const corpus = sharedDir('corpus');
const corpusRepository = join(corpus.path, 'repository');
const exampleRepository = resolve(import.meta.dirname, '..', 'examples', 'repository');
const env = { PATH: process.env.PATH, HOME: process.env.HOME };

const read = (dir: string, file: string): string => readFileSync(join(dir, file), 'utf8');

describe.skipIf(!corpus.present)(`capiform init against the corpus, then lock, render and CI's check${corpus.skipped}`, () => {
  it('writes a config pinned to the newest releases that locks, renders and passes `render --check --frozen`', async () => {
    const dir = tempDir();
    const init = await runCli(['init', '--repository', corpusRepository, '--infrastructure', 'docker'], { cwd: dir, env });
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    expect(init.stdout).toContain('wrote capi.config.ts, .gitignore, .github/workflows/capiform.yml');
    expect(init.stdout).toContain('next:\n  npx capiform lock\n  npx capiform render\n');

    const config = read(dir, 'capi.config.ts');
    expect(config).toContain("import { defineConfig } from 'capiform';");
    // The newest releases the corpus offers, as patch ranges.
    expect(config).toContain("core: { name: 'cluster-api', version: '~1.13.5'");
    expect(config).toContain("{ name: 'docker', version: '~1.13.5'");
    expect(config).toContain("certManager: { version: '~1.19.4'");
    // docker ships no cluster-template.yaml: its first flavor is the example's.
    expect(config).toContain("flavor: 'development',");
    // That flavor is a ClusterClass and a topology Cluster: core, KCP and CAPD read ClusterTopology from this variable.
    expect(config).toContain("  variables: {\n    // the ClusterTopology feature gate of cluster-api, control-plane-kubeadm, infrastructure-docker: needed by docker-example (cluster-template-development.yaml): Cluster, ClusterClass, DockerClusterTemplate, KubeadmControlPlaneTemplate.\n    CLUSTER_TOPOLOGY: 'true',\n  },\n");
    expect(init.stdout).toContain("  sets variables.CLUSTER_TOPOLOGY: 'true': feature gate ClusterTopology of cluster-api, control-plane-kubeadm, infrastructure-docker, which the example needs");

    const lock = await runCli(['lock'], { cwd: dir, env });
    // CAPD v1.13.5 breaks the provider contract (its DevMachinePool CRDs label v1beta1, which they do not serve):
    // the lock reports it and is written all the same (`contractLint` defaults to "warn").
    expect(lock.stderr).toContain('provider contract: infrastructure-docker v1.13.5: 2 errors (crd.contract-label ×2); locked anyway');
    expect(lock.code).toBe(0);
    expect(lock.stdout).toContain('cert-manager v1.19.4');
    expect((await runCli(['render'], { cwd: dir, env })).code).toBe(0);
    expect(existsSync(join(dir, 'clusters', 'default', 'docker-example', 'cluster.yaml'))).toBe(true);
    const check = await runCli(['render', '--check', '--frozen'], { cwd: dir, env });
    expect(check.stderr).toBe('');
    expect(check.code).toBe(0);
    for (const p of ['cluster-api', 'control-plane-kubeadm', 'infrastructure-docker']) expect(read(dir, `providers/${p}/components.yaml`)).toMatch(/--feature-gates=.*ClusterTopology=true/);
    const validate = await runCli(['validate'], { cwd: dir, env });
    expect(validate.stdout).toBe('');
    expect(validate.code).toBe(0);

    // Without the gate the management cluster would refuse the class and the cluster: render writes nothing.
    writeFileSync(join(dir, 'capi.config.ts'), config.replace("CLUSTER_TOPOLOGY: 'true'", "CLUSTER_TOPOLOGY: 'false'"));
    const before = read(dir, 'providers/cluster-api/components.yaml');
    const refused = await runCli(['render'], { cwd: dir, env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('the rendered objects are invalid (4 errors); nothing was written');
    expect(refused.stderr).toContain('clusters/default/docker-example/cluster.yaml:1: error [gate/ClusterTopology]: Cluster default/docker-example: spec.topology: Forbidden: can be set only if the ClusterTopology feature flag is enabled (feature gate ClusterTopology is off in the cluster-api manager');
    expect(refused.stderr).toContain("set providers.core.variables.CLUSTER_TOPOLOGY: 'true' (or the global variables.CLUSTER_TOPOLOGY");
    expect(refused.stderr).toContain('KubeadmControlPlaneTemplate default/quick-start-control-plane: spec: Forbidden');
    expect(read(dir, 'providers/cluster-api/components.yaml')).toBe(before);
    // Written anyway, `validate` refuses the same objects.
    expect((await runCli(['render', '--no-validate'], { cwd: dir, env })).code).toBe(0);
    const invalid = await runCli(['validate'], { cwd: dir, env });
    expect(invalid.code).toBe(1);
    expect(invalid.stdout.match(/\[gate\/ClusterTopology\]/g)).toHaveLength(4);
    expect(invalid.stdout).toContain('DockerClusterTemplate default/quick-start-cluster: spec: Forbidden: can be set only if the ClusterTopology feature flag is enabled (feature gate ClusterTopology is off in the infrastructure-docker manager');
    expect(invalid.stdout).toContain('providers.infrastructure[0].manager.featureGates.ClusterTopology: true');
    // Eleven CLI runs on real releases, on a shared machine.
  }, 240_000);

  it("sets no gate for the other providers' default flavors (none needs one off by default)", async () => {
    for (const infrastructure of ['aws', 'azure', 'vsphere', 'metal3']) {
      const dir = tempDir();
      const init = await runCli(['init', '--repository', corpusRepository, '-i', infrastructure, '--json'], { cwd: dir, env });
      expect(init.code).toBe(0);
      expect(JSON.parse(init.stdout).gates).toEqual([]);
      expect(read(dir, 'capi.config.ts')).not.toMatch(/CLUSTER_TOPOLOGY|featureGates/);
    }
  });

  it('lists the variables an example cluster still needs, with the config key to set them in', async () => {
    const dir = tempDir();
    const init = await runCli(['init', '--repository', corpusRepository, '-i', 'aws'], { cwd: dir, env });
    expect(init.code).toBe(0);
    expect(init.stdout).toContain('    reads from the environment when rendering: AWS_B64ENCODED_CREDENTIALS\n');
    expect(init.stdout).toContain('set before rendering: AWS_CONTROL_PLANE_MACHINE_TYPE, AWS_NODE_MACHINE_TYPE, AWS_REGION, AWS_SSH_KEY_NAME in clusters[0].variables');
    const config = read(dir, 'capi.config.ts');
    // A credential is read from the environment at render time and kept out of the tree.
    expect(config).toContain("AWS_B64ENCODED_CREDENTIALS: { env: 'AWS_B64ENCODED_CREDENTIALS' }");
    expect(config).toContain("secrets: { policy: 'omit' },");
    expect(config).toContain("// AWS_REGION: '',");

    expect((await runCli(['lock'], { cwd: dir, env })).code).toBe(0);
    const render = await runCli(['render'], { cwd: dir, env });
    expect(render.code).toBe(2);
    // The missing variables name the cluster, the template file and the config key to set.
    expect(render.stderr).toContain('value for variables [AWS_CONTROL_PLANE_MACHINE_TYPE, AWS_NODE_MACHINE_TYPE, AWS_REGION, AWS_SSH_KEY_NAME] is not set');
    expect(render.stderr).toContain('clusters[0] (default/aws-example)');
    expect(render.stderr).toContain('infrastructure-aws v2.11.1 cluster-template.yaml');
    expect(render.stderr).toContain('in clusters[0].variables');
  });
});

describe('capiform init', () => {
  it('checks --kubernetes-version at once: a version without the v gets one, one without a patch release is refused', async () => {
    const cwd = tempDir();
    const r = await runCli(['init', '--repository', exampleRepository, '-i', 'docker', '--kubernetes-version', '1.33.2'], { cwd, env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("  --kubernetes-version 1.33.2 written as v1.33.2 (CAPI's webhooks want the v)\n");
    expect(read(cwd, 'capi.config.ts')).toContain("kubernetesVersion: 'v1.33.2',");

    for (const [given, fix] of [
      ['1.33', 'fix: name a patch release of 1.33, e.g. --kubernetes-version v1.33.0'],
      ['v1.33', 'fix: name a patch release of 1.33, e.g. --kubernetes-version v1.33.0'],
      ['latest', 'fix: e.g. --kubernetes-version v1.33.1'],
    ] as const) {
      const empty = tempDir();
      const bad = await runCli(['init', '--repository', exampleRepository, '-i', 'docker', '--kubernetes-version', given], { cwd: empty, env });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain(`Error: --kubernetes-version "${given}" is not a Kubernetes release version (vMAJOR.MINOR.PATCH)`);
      expect(bad.stderr).toContain(fix);
      expect(existsSync(join(empty, 'capi.config.ts'))).toBe(false);
    }
    const noUrl = tempDir();
    const argocd = await runCli(['init', '--repository', exampleRepository, '-i', 'docker', '--argocd', ''], { cwd: noUrl, env });
    expect(argocd.code).toBe(2);
    expect(argocd.stderr).toContain('--argocd needs the URL of the git repository Argo CD reads the tree from');
    expect(existsSync(join(noUrl, 'capi.config.ts'))).toBe(false);
  });

  it('pins a version asked for, and works on a folder it creates', async () => {
    const cwd = tempDir();
    const r = await runCli(['init', 'fleet', '--repository', exampleRepository, '--core', 'cluster-api:v1.12.4', '-i', 'docker:v1.12.4', '--cert-manager', 'v1.18.2', '--argocd', 'https://git.example.com/fleet.git'], { cwd, env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('wrote capi.config.ts, .gitignore, .github/workflows/capiform.yml, .github/workflows/capiform-relock.yml in fleet');
    expect(r.stdout).toContain('  cd fleet && npx capiform lock\n  npx capiform render\n');
    const config = read(join(cwd, 'fleet'), 'capi.config.ts');
    expect(config).toContain("core: { name: 'cluster-api', version: '~1.12.4'");
    // Providers not named take the newest release.
    expect(config).toContain("{ name: 'kubeadm', version: '~1.13.1'");
    expect(config).toContain("certManager: { version: '~1.18.2'");
    expect(config).toContain("argocd: { repoURL: 'https://git.example.com/fleet.git' },");
    // The repository is written relative to the config, so the project can move with it.
    expect(config).toMatch(/url: '\.\.\/[^']*examples\/repository'/);
  });

  it('refuses to overwrite an existing config (exit 2) unless --force, and keeps an existing .gitignore', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'capi.config.yaml'), 'providers: {}\n');
    writeFileSync(join(dir, '.gitignore'), 'secrets/\n');
    const refused = await runCli(['init', '--repository', exampleRepository, '-i', 'docker'], { cwd: dir, env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('already has capi.config.yaml: init does not overwrite a project');
    expect(refused.stderr).toContain('--force');
    expect(existsSync(join(dir, 'capi.config.ts'))).toBe(false);

    const forced = await runCli(['init', '--repository', exampleRepository, '-i', 'docker', '--force'], { cwd: dir, env });
    expect(forced.code).toBe(0);
    const ignore = read(dir, '.gitignore');
    expect(ignore.startsWith('secrets/\n')).toBe(true);
    expect(ignore).toContain('.capiform/staging/');
    // Running it again adds nothing twice.
    const again = await runCli(['init', '--repository', exampleRepository, '-i', 'docker', '--force'], { cwd: dir, env });
    expect(again.code).toBe(0);
    expect(read(dir, '.gitignore')).toBe(ignore);
  });

  it("writes a CI workflow that runs capiform's action pinned to this version, and a re-lock workflow for Renovate's branches", async () => {
    const dir = tempDir();
    expect((await runCli(['init', '--repository', exampleRepository], { cwd: dir, env })).code).toBe(0);
    const workflow = read(dir, '.github/workflows/capiform.yml');
    const version = (JSON.parse(readFileSync(resolve(import.meta.dirname, '..', 'package.json'), 'utf8')) as { version: string }).version;
    expect(workflow).toContain(`      - uses: capiform/capiform@v${version}\n`);
    expect(workflow).toContain('fetch-depth: 0');
    expect(workflow).not.toContain('gh pr comment');
    expect(read(dir, '.github/workflows/capiform-relock.yml')).toContain('          mode: relock\n');
  });

  it('says where it looked when the repository has no cert-manager release', async () => {
    const repo = tempDir();
    for (const label of ['cluster-api', 'bootstrap-kubeadm', 'control-plane-kubeadm']) {
      mkdirSync(join(repo, label, 'v1.13.1'), { recursive: true });
      const from = join(exampleRepository, label, 'v1.13.1');
      for (const f of ['metadata.yaml', label === 'cluster-api' ? 'core-components.yaml' : `${label.split('-kubeadm')[0]}-components.yaml`]) {
        writeFileSync(join(repo, label, 'v1.13.1', f), readFileSync(join(from, f)));
      }
    }
    const dir = tempDir();
    const r = await runCli(['init', '--repository', repo], { cwd: dir, env });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`no cert-manager release found: capiform looked in ${join(repo, 'cert-manager')}\n`);
    expect(r.stderr).toContain('cert-manager/<version>/cert-manager.yaml');
    expect(existsSync(join(dir, 'capi.config.ts'))).toBe(false);
  });
});

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeFeatureGates } from '../src/render/tree/customize.js';
import { runCli } from './helpers/cli.js';
import { fixtureProject } from './helpers/pipeline-fixtures.js';

describe('manager.featureGates merges with the gates the release already sets', () => {
  it("keeps the release's gates and order, changes the ones the config sets, and appends new ones sorted", () => {
    const r = mergeFeatureGates(['--leader-elect', '--feature-gates=MachinePool=true,ClusterTopology=false', '--v=2'], { Zeta: true, ClusterTopology: true, Alpha: false });
    expect(r.args).toEqual(['--leader-elect', '--feature-gates=MachinePool=true,ClusterTopology=true,Alpha=false,Zeta=true', '--v=2']);
    expect(r.overrides).toEqual([{ gate: 'ClusterTopology', release: 'false', config: 'true' }]);
  });

  it('an explicit false turns an upstream gate off; setting the value the release has is no override', () => {
    const r = mergeFeatureGates(['--feature-gates=MachinePool=true,RuntimeSDK=false'], { MachinePool: false, RuntimeSDK: false });
    expect(r.args).toEqual(['--feature-gates=MachinePool=false,RuntimeSDK=false']);
    expect(r.overrides).toEqual([{ gate: 'MachinePool', release: 'true', config: 'false' }]);
  });

  it('adds the flag when the release has none, and joins a value given as the next argument', () => {
    expect(mergeFeatureGates(['--v=2'], { B: true, A: false }).args).toEqual(['--v=2', '--feature-gates=A=false,B=true']);
    expect(mergeFeatureGates(['--feature-gates', 'A=true', '--v=2'], { B: true }).args).toEqual(['--feature-gates=A=true,B=true', '--v=2']);
  });

  it('render writes the merged list and says which upstream gates the config overrides, on every run', async () => {
    const dir = fixtureProject(
      { infra: `{ name: 'docker', version: '^1.12', url: './repo', manager: { featureGates: { MachinePool: false, KubeadmBootstrapFormatIgnition: true } } }` },
      'plain',
    );
    // Like CAPD's release: the gates are variables with defaults (ClusterTopology on: the fixture's ClusterClass needs it).
    for (const v of readdirSync(join(dir, 'repo/infrastructure-docker'))) {
      const file = join(dir, 'repo/infrastructure-docker', v, 'infrastructure-components.yaml');
      writeFileSync(file, readFileSync(file, 'utf8').replace('        - --leader-elect\n', '        - --leader-elect\n        - --feature-gates=MachinePool=${EXP_MACHINE_POOL:=true},ClusterTopology=${CLUSTER_TOPOLOGY:=true}\n'));
    }
    // CAPD's manager registers every gate of CAPI's feature package: a gate another CAPI manager passes is known to it.
    for (const v of readdirSync(join(dir, 'repo/bootstrap-kubeadm'))) {
      const file = join(dir, 'repo/bootstrap-kubeadm', v, 'bootstrap-components.yaml');
      writeFileSync(file, readFileSync(file, 'utf8').replace('        - --leader-elect\n', '        - --leader-elect\n        - --feature-gates=KubeadmBootstrapFormatIgnition=${EXP_KUBEADM_BOOTSTRAP_FORMAT_IGNITION:=false}\n'));
    }
    const note = "infrastructure-docker: providers.infrastructure[0].manager.featureGates overrides the release's MachinePool=true with MachinePool=false";
    const first = await runCli(['render'], { cwd: dir });
    expect(first.code).toBe(0);
    expect(first.stderr).toContain(`${note}\n`);
    const components = readFileSync(join(dir, 'providers/infrastructure-docker/components.yaml'), 'utf8');
    expect(components).toMatch(/- '?--feature-gates=MachinePool=false,ClusterTopology=true,KubeadmBootstrapFormatIgnition=true'?\n/);
    // The provider directory now comes from the tree cache: the note is still printed.
    const again = await runCli(['render'], { cwd: dir });
    expect(again.stdout).toContain('tree is up to date');
    expect(again.stderr).toContain(`${note}\n`);
    expect((await runCli(['render', '--quiet'], { cwd: dir })).stderr).toBe('');
  });

  it('a gate the release does not know is refused at once (exit 2, nothing written), with the known gates and a did-you-mean', async () => {
    const dir = fixtureProject({ infra: `{ name: 'docker', version: '^1.12', url: './repo', manager: { featureGates: { ClusterTopolgy: true } } }` }, 'plain');
    for (const v of readdirSync(join(dir, 'repo/infrastructure-docker'))) {
      const file = join(dir, 'repo/infrastructure-docker', v, 'infrastructure-components.yaml');
      writeFileSync(file, readFileSync(file, 'utf8').replace('        - --leader-elect\n', '        - --leader-elect\n        - --feature-gates=MachinePool=${EXP_MACHINE_POOL:=true},ClusterTopology=${CLUSTER_TOPOLOGY:=true}\n'));
    }
    const r = await runCli(['render'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('infrastructure-docker: the release\'s manager does not know the feature gate "ClusterTopolgy": it would exit at start (unrecognized feature gate: ClusterTopolgy)');
    expect(r.stderr).toContain('providers.infrastructure[0].manager.featureGates.ClusterTopolgy');
    expect(r.stderr).toContain('did you mean ClusterTopology? the gates its --feature-gates default names: ClusterTopology, MachinePool');
    expect(r.stderr).not.toContain('    at ');
    expect(readdirSync(dir).filter((f) => ['providers', 'clusters', 'clusterclasses'].includes(f))).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { fixtureProject } from './helpers/pipeline-fixtures.js';

describe('a missing template variable names the cluster, the template file and the config key to set', () => {
  it('one problem: where and fix on their own lines', async () => {
    const dir = fixtureProject({ clusters: `{ name: 'b', namespace: 'ns', infrastructure: 'docker', kubernetesVersion: 'v1.33.1' },` }, 'plain');
    const r = await runCli(['render'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Error: value for variables [DOCKER_REGION] is not set.');
    expect(r.stderr).toContain('  at: clusters[0] (ns/b): infrastructure-docker v1.13.1 cluster-template.yaml\n');
    expect(r.stderr).toContain("  fix: set DOCKER_REGION: '…' in clusters[0].variables or in the global variables of the config");
  });

  it('several problems: each keeps its own file and config key', async () => {
    const dir = fixtureProject(
      {
        clusters: `
      { name: 'b', namespace: 'ns', infrastructure: 'docker', kubernetesVersion: 'v1.33.1' },
      { name: 'd', namespace: 'ns', infrastructure: 'docker', kubernetesVersion: 'v1.33.1' },`,
      },
      'plain',
    );
    const r = await runCli(['render'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      '  clusters[1] (ns/d): value for variables [DOCKER_REGION] is not set. Please set the value using os environment variables or the clusterctl config file\n' +
        '    at: infrastructure-docker v1.13.1 cluster-template.yaml\n' +
        "    fix: set DOCKER_REGION: '…' in clusters[1].variables or in the global variables of the config",
    );
    expect(r.stderr).toContain("    fix: set DOCKER_REGION: '…' in clusters[0].variables");
  });
});

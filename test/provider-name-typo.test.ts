/**
 * A provider name typo reads the same whether the provider comes from clusterctl's catalog or from a local
 * repository: the did-you-mean and the names there are, not clusterctl's "rename the folder" of a path.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { sharedDir } from './helpers/shared.js';
import { tempDir } from './helpers/testdir.js';

const corpus = sharedDir('corpus');
const repository = join(corpus.path, 'repository');
const env = { PATH: process.env.PATH, HOME: process.env.HOME };

function project(infrastructure: string): string {
  const dir = tempDir();
  const at = `url: '${repository}'`;
  writeFileSync(
    join(dir, 'capi.config.ts'),
    `export default {
  providers: {
    core: { name: 'cluster-api', version: 'v1.13.5', ${at} },
    bootstrap: [{ name: 'kubeadm', version: 'v1.13.5', ${at} }],
    controlPlane: [{ name: 'kubeadm', version: 'v1.13.5', ${at} }],
    infrastructure: [${infrastructure}],
  },
  clusters: [],
};
`,
  );
  return dir;
}

describe.skipIf(!corpus.present)(`provider name typos${corpus.skipped}`, () => {
  it('with a local repository: did you mean, and the providers of that type the repository has (exit 2, no lock)', async () => {
    const dir = project(`{ name: 'dockr', version: 'v1.13.5', url: '${repository}' }`);
    const r = await runCli(['lock'], { cwd: dir, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `Error: unknown provider "dockr" of type InfrastructureProvider in the repository ${repository}\n` +
        '  at: providers.infrastructure[0].name\n' +
        '  fix: did you mean "docker"? the repository has aws, azure, docker, metal3, vsphere (folders infrastructure-<name>/<version>/)\n',
    );
    expect(existsSync(join(dir, 'capi.lock.yaml'))).toBe(false);
  });

  it('without url: the same did-you-mean, from the catalog', async () => {
    const r = await runCli(['lock'], { cwd: project(`{ name: 'dockr', version: 'v1.13.5' }`), env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Error: unknown provider "dockr" of type InfrastructureProvider\n  at: providers.infrastructure[0].name\n  fix: did you mean "docker"?');
  });
});

/**
 * The secrets policy on real providers, as a new user meets it: `init`'s own config for Azure and vSphere, its
 * required values filled in. Public SSH keys are no credentials, and "omit" leaves out Secrets only.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { sharedDir } from './helpers/shared.js';
import { tempDir } from './helpers/testdir.js';

const corpus = sharedDir('corpus');
const repository = join(corpus.path, 'repository');
const read = (dir: string, file: string): string => readFileSync(join(dir, file), 'utf8');
const kindsIn = (yaml: string): string[] => [...yaml.matchAll(/^kind: (\S+)$/gm)].map((m) => m[1]!);

/** `init --infrastructure <infra>`, then every "set it before rendering" line given a value (`values`, or `x`). */
async function initProject(infra: string, values: Record<string, string>, env: NodeJS.ProcessEnv): Promise<string> {
  const dir = tempDir();
  const init = await runCli(['init', '--repository', repository, '--infrastructure', infra], { cwd: dir, env });
  expect(init.code).toBe(0);
  const config = read(dir, 'capi.config.ts').replace(/\/\/ ([A-Z0-9_]+): '', \/\/ required: .*$/gm, (_, name: string) => `${name}: '${values[name] ?? 'x'}',`);
  writeFileSync(join(dir, 'capi.config.ts'), config);
  expect((await runCli(['lock'], { cwd: dir, env })).code).toBe(0);
  return dir;
}

describe.skipIf(!corpus.present)(`secrets policy on the corpus's Azure and vSphere releases${corpus.skipped}`, { timeout: 240_000 }, () => {
  const base = { PATH: process.env.PATH, HOME: process.env.HOME };

  it('Azure: AZURE_SSH_PUBLIC_KEY_B64 is written into both AzureMachineTemplates, not taken for a credential', async () => {
    // A real public key: CAPZ's webhook refuses a key ssh.ParseAuthorizedKey cannot read.
    const key = Buffer.from('ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHeSvQw07eSTZizW2rlIitLCWs7IgAch3ZIv6yfdJYys operator@example').toString('base64');
    const dir = await initProject('azure', { AZURE_SSH_PUBLIC_KEY_B64: key }, base);
    const config = read(dir, 'capi.config.ts').replace("AZURE_TENANT_ID: 'x',", `AZURE_TENANT_ID: 'x', AZURE_SSH_PUBLIC_KEY_B64: '${key}',`);
    writeFileSync(join(dir, 'capi.config.ts'), config);
    const r = await runCli(['render'], { cwd: dir, env: base });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const cluster = read(dir, 'clusters/default/azure-example/cluster.yaml');
    expect(kindsIn(cluster).filter((k) => k === 'AzureMachineTemplate')).toHaveLength(2);
    expect(cluster.split(`sshPublicKey: ${key}`).length - 1).toBe(2);
  });

  it('vSphere: VSPHERE_SSH_AUTHORIZED_KEY is a value to set, and "omit" leaves out only the Secrets holding VSPHERE_PASSWORD', async () => {
    const env = { ...base, VSPHERE_PASSWORD: 'canary-password-4b1e' };
    const dir = tempDir();
    const init = await runCli(['init', '--repository', repository, '--infrastructure', 'vsphere'], { cwd: dir, env });
    expect(init.stdout).toContain('reads from the environment when rendering: VSPHERE_PASSWORD\n');
    expect(init.stdout).toMatch(/set before rendering: .*VSPHERE_SSH_AUTHORIZED_KEY/);
    expect(read(dir, 'capi.config.ts')).not.toContain("VSPHERE_SSH_AUTHORIZED_KEY: { env:");

    const project = await initProject('vsphere', { CONTROL_PLANE_ENDPOINT_IP: '10.0.0.10', CPI_IMAGE_K8S_VERSION: 'v1.33.0', VSPHERE_SSH_AUTHORIZED_KEY: 'ssh-ed25519 AAAAoperator' }, env);
    const r = await runCli(['render'], { cwd: project, env });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('objects left out because they would hold credentials');
    const omitted = r.stderr.split('\n').filter((l) => l.startsWith('  '));
    expect(omitted.length).toBeGreaterThan(0);
    for (const line of omitted) expect(line).toMatch(/^ {2}Secret /);
    const cluster = read(project, 'clusters/default/vsphere-example/cluster.yaml');
    expect(kindsIn(cluster)).toEqual(expect.arrayContaining(['KubeadmControlPlane', 'KubeadmConfigTemplate']));
    expect(cluster.split('- ssh-ed25519 AAAAoperator').length - 1).toBe(2);
    expect(r.stdout + r.stderr + cluster).not.toContain('canary-password-4b1e');
  });

  it('"omit" refuses a credential inside an object that is not a Secret, with the fix, and writes nothing', async () => {
    const env = { ...base, VSPHERE_PASSWORD: 'canary-password-4b1e' };
    const dir = await initProject('vsphere', { CONTROL_PLANE_ENDPOINT_IP: '10.0.0.10', CPI_IMAGE_K8S_VERSION: 'v1.33.0' }, env);
    // The server's address lands in the VSphereCluster and the VSphereMachineTemplates: leaving those out would
    // leave a cluster without infrastructure.
    writeFileSync(join(dir, 'capi.config.ts'), read(dir, 'capi.config.ts').replace("secrets: { policy: 'omit' },", "secrets: { policy: 'omit', variables: ['VSPHERE_SERVER'] },"));
    const r = await runCli(['render'], { cwd: dir, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Error: credentials would be written in plain text into objects that are not Secrets (secrets.policy "omit" leaves out only Secrets):\n  VSPHERE_SERVER:\n');
    expect(r.stderr).toContain('    - VSphereCluster default/vsphere-example in clusters/default/vsphere-example/cluster.yaml (clusters[0] (default/vsphere-example))');
    expect(r.stderr).toContain("keep a credential in a Secret the object references");
    expect(r.stderr).toContain('secrets.allowPlaintext');
    expect(r.stderr).not.toMatch(/ at .*\.(ts|js):\d+/);
    expect(existsSync(join(dir, 'clusters'))).toBe(false);
    expect(existsSync(join(dir, 'providers'))).toBe(false);
  });
});

/**
 * The infrastructure providers' webhooks on their real releases (the corpus): a flavor rendered by `init`'s project,
 * then changed as a pull request would change it. `diff` reports an update the provider refuses as rejected, and
 * `validate` reports what it refuses on create, with the webhook's field path and message.
 */
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DiffReport } from '../src/plan/diff/index.js';
import { runCli } from './helpers/cli.js';
import { sharedDir } from './helpers/shared.js';
import { tempDir } from './helpers/testdir.js';

const corpus = sharedDir('corpus');
const repository = join(corpus.path, 'repository');
const env = { PATH: process.env.PATH, HOME: process.env.HOME };

/** An `init` project for `infrastructure` with every required variable set (`values`, else 'x'), locked and rendered. */
async function rendered(infrastructure: string, values: Record<string, string>, renderEnv: NodeJS.ProcessEnv = env): Promise<string> {
  const dir = tempDir();
  expect((await runCli(['init', '--repository', repository, '--infrastructure', infrastructure], { cwd: dir, env })).code).toBe(0);
  const file = join(dir, 'capi.config.ts');
  writeFileSync(file, readFileSync(file, 'utf8').replace(/\/\/ ([A-Z0-9_]+): '', \/\/ required: .*$/gm, (_, name: string) => `${name}: '${values[name] ?? 'x'}',`));
  expect((await runCli(['lock'], { cwd: dir, env })).code).toBe(0);
  const render = await runCli(['render'], { cwd: dir, env: renderEnv });
  expect(render.code, render.stderr).toBe(0);
  return dir;
}

/** A copy of the rendered tree of `dir`. */
function treeOf(dir: string): string {
  const out = tempDir();
  for (const d of ['providers', 'clusters', 'clusterclasses']) if (existsSync(join(dir, d))) cpSync(join(dir, d), join(out, d), { recursive: true });
  return out;
}

function edit(file: string, change: (text: string) => string): void {
  const text = readFileSync(file, 'utf8');
  const next = change(text);
  expect(next).not.toBe(text);
  writeFileSync(file, next);
}

const rejected = (r: DiffReport) => r.changes.flatMap((c) => c.impacts.filter((i) => i.kind === 'rejected').map((i) => [c.kind, i.rule, i.message]));

describe.skipIf(!corpus.present)(`the providers' webhooks on the corpus releases${corpus.skipped}`, { timeout: 240_000 }, () => {
  it('CAPA: moving an AWSCluster to another region is rejected by the review', async () => {
    const dir = await rendered('aws', { AWS_REGION: 'eu-west-1', AWS_SSH_KEY_NAME: 'default', AWS_CONTROL_PLANE_MACHINE_TYPE: 't3.large', AWS_NODE_MACHINE_TYPE: 't3.large' }, { ...env, AWS_B64ENCODED_CREDENTIALS: 'Zm9v' });
    const base = treeOf(dir);
    const head = treeOf(dir);
    edit(join(head, 'clusters', 'default', 'aws-example', 'cluster.yaml'), (t) => t.replace('\n  region: "eu-west-1"\n', '\n  region: "eu-central-1"\n'));
    const r = await runCli(['diff', '--format', 'json', base, head]);
    const report = JSON.parse(r.stdout) as DiffReport;
    expect(rejected(report)).toEqual([['AWSCluster', 'webhook/AWSCluster.region-immutable', 'spec.region: Invalid value: "eu-central-1": field is immutable']]);
    expect(report.clusters.map((c) => [c.cluster, c.impact])).toEqual([['default/aws-example', 'rejected']]);
    const md = await runCli(['diff', '--format', 'markdown', base, head]);
    expect(md.stdout).toContain('| AWSCluster <code>default/aws-example</code> | <code>spec.region</code> | spec.region: Invalid value: &quot;eu-central-1&quot;: field is immutable |');
  });

  it('CAPZ: changing the location and the subscription of an AzureCluster is rejected by the review', async () => {
    const dir = await rendered('azure', { AZURE_LOCATION: 'westeurope', AZURE_SUBSCRIPTION_ID: '00000000-0000-0000-0000-000000000001' });
    const base = treeOf(dir);
    const head = treeOf(dir);
    edit(join(head, 'clusters', 'default', 'azure-example', 'cluster.yaml'), (t) =>
      t.replace(/^  location: westeurope$/m, '  location: northeurope').replace(/^  subscriptionID: 00000000-0000-0000-0000-000000000001$/m, '  subscriptionID: 00000000-0000-0000-0000-000000000002'),
    );
    const report = JSON.parse((await runCli(['diff', '--format', 'json', base, head])).stdout) as DiffReport;
    expect(rejected(report)).toEqual([
      ['AzureCluster', 'webhook/AzureCluster.subscription-immutable', 'spec.subscriptionID: Invalid value: "00000000-0000-0000-0000-000000000002": field is immutable'],
      ['AzureCluster', 'webhook/AzureCluster.location-immutable', 'spec.location: Invalid value: "northeurope": field is immutable'],
    ]);
  });

  it('CAPZ: an SSH public key given as the key line instead of its base64 is refused by render, which writes nothing', async () => {
    const dir = await rendered('azure', { AZURE_LOCATION: 'westeurope', AZURE_SUBSCRIPTION_ID: '00000000-0000-0000-0000-000000000001' });
    const cluster = join(dir, 'clusters', 'default', 'azure-example', 'cluster.yaml');
    const before = readFileSync(cluster, 'utf8');
    const line = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHeSvQw07eSTZizW2rlIitLCWs7IgAch3ZIv6yfdJYys operator@example';
    edit(join(dir, 'capi.config.ts'), (t) => t.replace("AZURE_TENANT_ID: 'x',", `AZURE_TENANT_ID: 'x', AZURE_SSH_PUBLIC_KEY_B64: '${line}',`));
    const r = await runCli(['render'], { cwd: dir, env });
    expect(r.code).toBe(2);
    const refused = r.stderr.split('\n').filter((l) => l.includes('[webhook/AzureMachineTemplate.ssh-public-key]'));
    expect(refused.map((l) => l.replace(/^.*?: error /, ''))).toEqual(
      ['azure-example-control-plane', 'azure-example-md-0'].map(
        (name) => `[webhook/AzureMachineTemplate.ssh-public-key]: AzureMachineTemplate default/${name}: sshPublicKey: Invalid value: "${line}": the SSH public key is not properly base64 encoded`,
      ),
    );
    expect(r.stderr).toContain('hint: sshPublicKey is the base64 of an authorized_keys line');
    expect(readFileSync(cluster, 'utf8')).toBe(before);
  });

  it('CAPV: fixed ipAddrs in the VSphereMachineTemplate and an invalid hardware version are refused by validate', async () => {
    const renderEnv = { ...env, VSPHERE_PASSWORD: 'canary-password-4b1e' };
    const dir = await rendered('vsphere', { CONTROL_PLANE_ENDPOINT_IP: '10.0.0.10', CPI_IMAGE_K8S_VERSION: 'v1.33.0', VSPHERE_SSH_AUTHORIZED_KEY: 'ssh-ed25519 AAAAoperator' }, renderEnv);
    const clean = await runCli(['validate'], { cwd: dir, env: renderEnv });
    expect(clean.code, clean.stdout + clean.stderr).toBe(0);
    const file = join(dir, 'clusters', 'default', 'vsphere-example', 'cluster.yaml');
    edit(file, (t) => {
      // The control plane's template: a fixed address on its first device and a hardware version that is not vmx-N.
      const at = t.indexOf('\nkind: VSphereMachineTemplate\n');
      const device = '        - dhcp4: true\n';
      const d = t.indexOf(device, at);
      const spec = t.indexOf('\n    spec:\n', at) + '\n    spec:\n'.length;
      expect(at).toBeGreaterThan(0);
      expect(d).toBeGreaterThan(spec);
      return `${t.slice(0, spec)}      hardwareVersion: vmx-1x\n${t.slice(spec, d)}${device}          ipAddrs: [10.0.0.21/24]\n${t.slice(d + device.length)}`;
    });
    const validate = await runCli(['validate', '--json'], { cwd: dir, env: renderEnv });
    expect(validate.code).toBe(1);
    const findings = (JSON.parse(validate.stdout) as { findings: Array<{ rule?: string; message: string; kind: string }> }).findings.filter((f) => f.rule?.startsWith('webhook/VSphere'));
    expect(findings.map((f) => [f.kind, f.rule, f.message])).toEqual([
      ['VSphereMachineTemplate', 'webhook/VSphereMachineTemplate.ip-addresses', 'spec.template.spec.network.devices.ipAddrs: Forbidden: cannot be set in templates'],
      ['VSphereMachineTemplate', 'webhook/VSphereMachineTemplate.hardware-version', 'spec.template.spec.hardwareVersion: Invalid value: "vmx-1x": should be a valid VM hardware version, example vmx-17'],
    ]);
  });

  it('CAPV: editing a VSphereFailureDomain in place is rejected by the review, a HostGroup region by validate', async () => {
    const renderEnv = { ...env, VSPHERE_PASSWORD: 'canary-password-4b1e' };
    const dir = await rendered('vsphere', { CONTROL_PLANE_ENDPOINT_IP: '10.0.0.10', CPI_IMAGE_K8S_VERSION: 'v1.33.0', VSPHERE_SSH_AUTHORIZED_KEY: 'ssh-ed25519 AAAAoperator' }, renderEnv);
    // A failure domain the operator keeps beside the cluster, as CAPV's failure-domain docs write it.
    const failureDomain = (datastore: string, regionType = 'Datacenter') =>
      [
        'apiVersion: infrastructure.cluster.x-k8s.io/v1beta2',
        'kind: VSphereFailureDomain',
        'metadata:',
        '  name: zone-a',
        'spec:',
        `  region: { name: dc1, type: ${regionType}, tagCategory: k8s-region }`,
        '  zone: { name: zone-a, type: ComputeCluster, tagCategory: k8s-zone }',
        `  topology: { datacenter: dc1, computeCluster: cluster-a, datastore: ${datastore} }`,
        '',
      ].join('\n');
    const base = treeOf(dir);
    const head = treeOf(dir);
    writeFileSync(join(base, 'clusters', 'default', 'vsphere-example', 'failure-domain.yaml'), failureDomain('ds-1'));
    writeFileSync(join(head, 'clusters', 'default', 'vsphere-example', 'failure-domain.yaml'), failureDomain('ds-2'));
    const report = JSON.parse((await runCli(['diff', '--format', 'json', base, head])).stdout) as DiffReport;
    expect(rejected(report)).toEqual([['VSphereFailureDomain', 'webhook/VSphereFailureDomain.spec-immutable', 'spec: Forbidden: VSphereFailureDomainSpec is immutable']]);

    writeFileSync(join(dir, 'clusters', 'default', 'vsphere-example', 'failure-domain.yaml'), failureDomain('ds-1', 'HostGroup'));
    const validate = await runCli(['validate', '--json'], { cwd: dir, env: renderEnv });
    expect(validate.code).toBe(1);
    const findings = (JSON.parse(validate.stdout) as { findings: Array<{ rule?: string; message: string; kind: string }> }).findings.filter((f) => f.rule?.startsWith('webhook/VSphere'));
    expect(findings.map((f) => [f.kind, f.rule, f.message])).toEqual([['VSphereFailureDomain', 'webhook/VSphereFailureDomain.topology', "spec.Region.Type: Forbidden: region's Failure Domain type cannot be HostGroup"]]);
  });
});

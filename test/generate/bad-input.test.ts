/**
 * Bad input to `capiform generate …`: every case prints clusterctl's message (plus capiform's hint) and exits with the
 * documented code, without a stack trace and without hanging.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/testdir.js';

const metadata = `apiVersion: clusterctl.cluster.x-k8s.io/v1alpha3
kind: Metadata
releaseSeries:
- major: 1
  minor: 0
  contract: v1beta2
`;

const components = (body: string): string => `apiVersion: v1
kind: Namespace
metadata:
  name: test-system
---
${body}`;

const deployment = (image: string): string => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: controller
  namespace: test-system
spec:
  selector:
    matchLabels: {app: c}
  template:
    metadata:
      labels: {app: c}
    spec:
      containers:
      - name: manager
        image: ${image}
`;

let root: string;
let config: string;

/** A local repository with one provider per case, and a clusterctl.yaml pointing at each. */
beforeAll(() => {
  root = tempDir('capiform-bad-');
  const providers: { name: string; type: string; url: string }[] = [];
  const add = (name: string, files: Record<string, string>, version = 'v1.0.0'): void => {
    const dir = join(root, 'repo', `infrastructure-${name}`, version);
    mkdirSync(dir, { recursive: true });
    for (const [f, c] of Object.entries(files)) writeFileSync(join(dir, f), c);
    providers.push({ name, type: 'InfrastructureProvider', url: join(dir, 'infrastructure-components.yaml') });
  };
  add('good', {
    'metadata.yaml': metadata,
    'infrastructure-components.yaml': components(
      `${deployment('registry.k8s.io/test/controller:v1.0.0')}---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: \${REQUIRED_A}\n  b: \${REQUIRED_B}\n  c: \${OPTIONAL:=x}\n`,
    ),
    'cluster-template.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${CLUSTER_NAME}\ndata:\n  x: ${TEMPLATE_VAR}\n',
    'cluster-template-dev.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${CLUSTER_NAME}\n',
  });
  add('twons', {
    'metadata.yaml': metadata,
    'infrastructure-components.yaml': `${components('')}apiVersion: v1\nkind: Namespace\nmetadata:\n  name: other\n`,
  });
  add('shortimage', {
    'metadata.yaml': metadata,
    'infrastructure-components.yaml': components(deployment('nginx:1')),
  });
  add('badmeta', {
    'metadata.yaml': 'apiVersion: clusterctl.cluster.x-k8s.io/v1alpha2\nkind: Metadata\nreleaseSeries: []\n',
    'infrastructure-components.yaml': components(''),
  });
  add('oldseries', {
    'metadata.yaml': metadata.replace('minor: 0', 'minor: 9'),
    'infrastructure-components.yaml': components(''),
  });
  providers.push({
    name: 'gone',
    type: 'InfrastructureProvider',
    url: join(root, 'missing', 'infrastructure-gone', 'v1.0.0', 'infrastructure-components.yaml'),
  });
  config = join(root, 'clusterctl.yaml');
  writeFileSync(
    config,
    `providers:\n${providers.map((p) => `- name: ${p.name}\n  type: ${p.type}\n  url: ${p.url}\n`).join('')}`,
  );
  writeFileSync(join(root, 'malformed.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [unclosed\n');
  writeFileSync(join(root, 'bomb.yaml'), aliasBomb());
});

function aliasBomb(): string {
  let s = 'a0: &a0 ["x","x","x","x","x","x","x","x","x","x"]\n';
  for (let i = 1; i < 30; i++) s += `a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(',')}]\n`;
  return s;
}

const env = (): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: root });
const cli = (args: string[], extraEnv: NodeJS.ProcessEnv = {}) =>
  runCli(args, { env: { ...env(), ...extraEnv }, cwd: root });

function expectNoStack(stderr: string): void {
  expect(stderr).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/);
  expect(stderr).not.toContain('internal error');
}

describe('generate: bad input', () => {
  it('malformed YAML names the document, the file and the line (exit 2)', async () => {
    const r = await cli(['generate', 'yaml', '--from', 'malformed.yaml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('failed to parse yaml: failed to unmarshal the 1st yaml document');
    expect(r.stderr).toMatch(/malformed\.yaml:\d+/);
    expectNoStack(r.stderr);
  });

  it('an alias bomb is refused, not expanded (exit 2)', async () => {
    const r = await cli(['generate', 'yaml', '--from', 'bomb.yaml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/alias/i);
    expectNoStack(r.stderr);
  });

  it('an unknown provider lists the closest known names (exit 3)', async () => {
    const r = await cli(['generate', 'provider', '--infrastructure', 'godo:v1.0.0', '--config', config]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(
      'Error: failed to get configuration for the InfrastructureProvider with name godo. Please check the provider name and/or add configuration for new providers using the .clusterctl config file',
    );
    expect(r.stderr).toMatch(/closest known InfrastructureProvider names: .*good/);
  });

  it('a provider used with the wrong type says which flag it needs (exit 3)', async () => {
    const r = await cli(['generate', 'provider', '--bootstrap', 'good:v1.0.0', '--config', config]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('"good" is an InfrastructureProvider (--infrastructure, or providers.infrastructure in capi.config)');
  });

  it('an unknown flavor lists the available ones (exit 3)', async () => {
    const r = await cli(['generate', 'cluster', 'c1', '-n', 'ns', '--infrastructure', 'good:v1.0.0', '--flavor', 'prod', '--config', config]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(
      'Error: failed to read "cluster-template-prod.yaml" from provider\'s repository "infrastructure-good"',
    );
    expect(r.stderr).toContain('available flavors of infrastructure-good v1.0.0: (default, no --flavor), dev');
  });

  it('missing variables in components: all of them, clusterctl message, wrapped (exit 2)', async () => {
    const r = await cli(['generate', 'provider', '--infrastructure', 'good:v1.0.0', '--config', config]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'Error: failed to perform variable substitution: value for variables [REQUIRED_A, REQUIRED_B] is not set. Please set the value using os environment variables or the clusterctl config file',
    );
    expect(r.stderr).toContain('  fix: export REQUIRED_A=<value> REQUIRED_B=<value>, or set them in the clusterctl config file (--config)');
  });

  it('the hint for a missing lower-case variable names the environment variable capiform reads (upper-cased)', async () => {
    const r = await runCli(['generate', 'yaml'], { stdin: 'region: ${aws_region}\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Error: value for variables [aws_region] is not set.');
    expect(r.stderr).toContain('  fix: export AWS_REGION=<value>, or set it in the clusterctl config file');
  });

  it('missing variables in a cluster template: clusterctl message, unwrapped (exit 2)', async () => {
    const r = await cli(['generate', 'cluster', 'c1', '-n', 'ns', '--infrastructure', 'good:v1.0.0', '--config', config]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'Error: value for variables [TEMPLATE_VAR] is not set. Please set the value using os environment variables or the clusterctl config file',
    );
    expect(r.stderr).toContain('  fix: export TEMPLATE_VAR=<value>, or set it in the clusterctl config file (--config); --list-variables');
  });

  it("clusterctl's cluster-reading flags say what to use instead (exit 2), and stay out of --help", async () => {
    const cm = await runCli(['generate', 'cluster', 'c1', '-n', 'ns', '--from-config-map', 'templates']);
    expect(cm.code).toBe(2);
    expect(cm.stderr).toContain('Error: --from-config-map is not supported: capiform never reads a management cluster');
    expect(cm.stderr).toContain('fix: export the template to a file (kubectl get configmap NAME -n NAMESPACE');
    const kc = await runCli(['generate', 'cluster', 'c1', '--kubeconfig', '/tmp/kubeconfig']);
    expect(kc.code).toBe(2);
    expect(kc.stderr).toContain('fix: pass the namespace with --target-namespace and the provider with --infrastructure name:version');
    const help = await runCli(['generate', 'cluster', '--help']);
    expect(help.stdout).not.toContain('kubeconfig');
  });

  it('an invalid cluster name (exit 2)', async () => {
    const r = await cli(['generate', 'cluster', 'My_Cluster', '-n', 'ns', '--infrastructure', 'good:v1.0.0', '--config', config]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "Error: invalid cluster name: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    );
  });

  it('an invalid target namespace (exit 2)', async () => {
    const r = await cli(['generate', 'cluster', 'c1', '-n', 'my.ns', '--infrastructure', 'good:v1.0.0', '--config', config]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Error: invalid target-namespace: must not contain dots');
    const r2 = await cli(['generate', 'cluster', 'c1', '-n', 'Bad!', '--infrastructure', 'good:v1.0.0', '--config', config]);
    expect(r2.stderr).toContain(
      "Error: invalid target-namespace: a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    );
  });

  it('no target namespace and no version: clusterctl messages plus a hint (exit 2)', async () => {
    const r = await cli(['generate', 'cluster', 'c1', '--infrastructure', 'good:v1.0.0', '--config', config]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'Error: management cluster not available. Cannot auto-discover target namespace. Please specify a target namespace',
    );
    expect(r.stderr).toContain('fix: capiform never reads a kubeconfig');
    const r2 = await cli(['generate', 'cluster', 'c1', '-n', 'ns', '--infrastructure', 'good', '--config', config]);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain(
      'Error: management cluster not available. Cannot auto-discover version for the provider "good" automatically. Please specify a version',
    );
    expect(r2.stderr).toContain('--infrastructure good:<version>');
  });

  it('invalid machine counts and Kubernetes version (exit 2)', async () => {
    const base = ['generate', 'cluster', 'c1', '-n', 'ns', '--infrastructure', 'good:v1.0.0', '--config', config];
    const r = await cli([...base, '--control-plane-machine-count', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('invalid ControlPlaneMachineCount. Please use a number greater than or equal to 1');
    const r2 = await cli([...base, '--worker-machine-count', 'two']);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain('invalid argument "two" for "--worker-machine-count" flag');
    const r3 = await cli([...base, '--kubernetes-version', '1.30']);
    expect(r3.code).toBe(2);
    expect(r3.stderr).toContain('invalid KubernetesVersion. Please use a semantic version number');
    const r4 = await cli(base, { WORKER_MACHINE_COUNT: 'many' });
    expect(r4.code).toBe(2);
    expect(r4.stderr).toContain('invalid value for WORKER_MACHINE_COUNT set');
  });

  it('a components file with two Namespace objects (exit 2)', async () => {
    const r = await cli(['generate', 'provider', '--infrastructure', 'twons:v1.0.0', '--config', config]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'Invalid manifest. There should be no more than one resource with Kind Namespace in the provider components yaml',
    );
  });

  it('an unqualified image fails even with --raw (exit 2)', async () => {
    for (const extra of [[], ['--raw']]) {
      const r = await cli(['generate', 'provider', '--infrastructure', 'shortimage:v1.0.0', '--config', config, ...extra]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('failed to apply image overrides');
      expect(r.stderr).toContain("couldn't parse image name");
    }
  });

  it('a missing repository path (exit 3)', async () => {
    const r = await cli(['generate', 'provider', '--infrastructure', 'gone:v1.0.0', '--config', config]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('infrastructure-gone');
    expectNoStack(r.stderr);
  });

  it('a bad metadata.yaml (clusterctl message)', async () => {
    const r = await cli(['generate', 'provider', '--infrastructure', 'badmeta:v1.0.0', '--config', config]);
    expect([2, 3]).toContain(r.code);
    expect(r.stderr).toContain('invalid provider metadata');
    const r2 = await cli(['generate', 'provider', '--infrastructure', 'oldseries:v1.0.0', '--config', config]);
    expect(r2.code).toBe(3);
    expect(r2.stderr).toContain(
      'Error: invalid provider metadata: version v1.0.0 for the provider oldseries does not match any release series',
    );
  });

  it('a --from file that does not exist, a directory, an http:// URL (exit 2)', async () => {
    const r = await cli(['generate', 'yaml', '--from', 'nope.yaml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Error: failed to read file "nope.yaml"');
    const r2 = await cli(['generate', 'yaml', '--from', '.']);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain('Error: invalid path: file "." is actually a directory');
    const r3 = await cli(['generate', 'yaml', '--from', 'http://example.com/t.yaml']);
    expect(r3.code).toBe(2);
    expect(r3.stderr).toContain(
      'Error: unable to read content from "http://example.com/t.yaml". Only reading from GitHub and local file system is supported',
    );
  });

  it('usage errors: no provider flag, two template sources, no cluster name (exit 2)', async () => {
    const r = await cli(['generate', 'provider', '--config', config]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('at least one of --core');
    const r2 = await cli(['generate', 'cluster', 'c1', '-n', 'ns', '--infrastructure', 'good:v1.0.0', '--from', 'x.yaml']);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain('invalid cluster template source: only one template can be used at time');
    const r3 = await cli(['generate', 'cluster', '-n', 'ns']);
    expect(r3.code).toBe(2);
    expect(r3.stderr).toContain('please specify a cluster name');
    const r4 = await cli(['generate', 'yaml', '--from', '']);
    expect(r4.code).toBe(2);
    expect(r4.stderr).toContain('unable to read custom template. Please specify a template source');
  });
});

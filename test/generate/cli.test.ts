/** `capiform generate …` happy paths through the in-process CLI, on a small local repository. */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/testdir.js';

let root: string;
let config: string;

beforeAll(() => {
  root = tempDir('capiform-cli-');
  const dir = join(root, 'repo', 'infrastructure-demo', 'v0.3.1');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'metadata.yaml'),
    'apiVersion: clusterctl.cluster.x-k8s.io/v1alpha3\nkind: Metadata\nreleaseSeries:\n- major: 0\n  minor: 3\n  contract: v1beta1\n',
  );
  writeFileSync(
    join(dir, 'infrastructure-components.yaml'),
    'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: demo-system\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: demo-system\ndata:\n  region: ${DEMO_REGION:=eu-west-1}\n  token: ${DEMO_TOKEN}\n',
  );
  writeFileSync(
    join(dir, 'cluster-template.yaml'),
    'apiVersion: cluster.x-k8s.io/v1beta1\nkind: Cluster\nmetadata:\n  name: ${CLUSTER_NAME}\n  namespace: somewhere\nspec:\n  topology:\n    class: demo\n    version: ${KUBERNETES_VERSION}\n',
  );
  writeFileSync(
    join(dir, 'clusterclass-demo.yaml'),
    'apiVersion: cluster.x-k8s.io/v1beta1\nkind: ClusterClass\nmetadata:\n  name: demo\n',
  );
  config = join(root, 'clusterctl.yaml');
  writeFileSync(
    config,
    `providers:\n- name: demo\n  type: InfrastructureProvider\n  url: ${join(dir, 'infrastructure-components.yaml')}\nDEMO_TOKEN: from-config\n`,
  );
});

const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: root, ...extra });

describe('capiform generate', () => {
  it('generate yaml substitutes stdin and prints YAML plus one newline', async () => {
    const r = await runCli(['generate', 'yaml'], { stdin: 'a: ${A}\nb: ${B:=two}\n', env: env({ A: 'one' }), cwd: root });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('a: one\nb: two\n');
  });

  it('generate provider takes variables from the environment over the config file', async () => {
    const r = await runCli(['generate', 'provider', '--infrastructure', 'demo:v0.3.1', '--config', config], {
      env: env({ DEMO_TOKEN: 'from-env' }),
      cwd: root,
    });
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('token: from-env');
    expect(r.stdout).toContain('region: eu-west-1');
    expect(r.stdout.startsWith('apiVersion: v1\nkind: Namespace\n')).toBe(true);
  });

  it('generate provider --describe lists variables without substituting', async () => {
    const r = await runCli(['generate', 'provider', '--infrastructure', 'demo:v0.3.1', '--describe', '--config', config], {
      env: env(),
      cwd: root,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Name:               demo\nType:               InfrastructureProvider\n');
    expect(r.stdout).toContain('Version:            v0.3.1\nFile:               infrastructure-components.yaml\n');
    expect(r.stdout).toContain('TargetNamespace:    demo-system\nVariables:\n  - DEMO_REGION\n  - DEMO_TOKEN\n');
  });

  it('--write-to writes the file atomically and prints nothing', async () => {
    const out = join(root, 'out', 'demo.yaml');
    mkdirSync(join(root, 'out'), { recursive: true });
    const r = await runCli(
      ['generate', 'provider', '--infrastructure', 'demo:v0.3.1', '-n', 'demo', '--write-to', out, '--config', config],
      { env: env(), cwd: root },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(readFileSync(out, 'utf8')).toContain('namespace: demo');
    expect(readdirSync(join(root, 'out'))).toEqual(['demo.yaml']);
  });

  it('--write-to makes the file private (0600): the output may hold credentials', async () => {
    const out = join(root, 'private', 'demo.yaml');
    mkdirSync(join(root, 'private'), { recursive: true });
    writeFileSync(out, 'an older output, readable by all\n', { mode: 0o644 });
    const r = await runCli(
      ['generate', 'provider', '--infrastructure', 'demo:v0.3.1', '-n', 'demo', '--write-to', out, '--config', config],
      { env: env(), cwd: root },
    );
    expect(r.code).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(0o600);
  });

  it('generate cluster sets the common variables, forces the namespace and adds the ClusterClass first', async () => {
    const r = await runCli(
      ['generate', 'cluster', 'c1', '--infrastructure', 'demo:v0.3.1', '-n', 'team-a', '--kubernetes-version', 'v1.33.1', '--config', config],
      { env: env(), cwd: root },
    );
    expect(r.stderr).toBe('');
    const docs = r.stdout.split('\n---\n');
    expect(docs).toHaveLength(2);
    expect(docs[0]).toContain('kind: ClusterClass');
    expect(docs[0]).toContain('namespace: team-a');
    expect(docs[1]).toContain('name: c1');
    expect(docs[1]).toContain('version: v1.33.1');
    expect(docs[1]).toContain('namespace: team-a');
  });

  it('generate cluster --list-variables does not include the ClusterClass', async () => {
    const r = await runCli(
      ['generate', 'cluster', 'c1', '--infrastructure', 'demo:v0.3.1', '-n', 'team-a', '--list-variables', '--config', config],
      { env: env(), cwd: root },
    );
    expect(r.stdout).toBe(
      'Required Variables:\n  - KUBERNETES_VERSION\n\nOptional Variables:\n  - CLUSTER_NAME  (defaults to c1)\n\n',
    );
  });

  it('--output-style clusterctl prints clusterctl\'s bytes; the default keeps the source text', async () => {
    const src = '# keep me\nkind: ConfigMap\napiVersion: v1\nmetadata:\n  name: ${NAME:=x}\ndata:\n  on: yes\n';
    const ours = await runCli(['generate', 'yaml'], { stdin: src, env: env(), cwd: root });
    expect(ours.stdout).toBe('# keep me\nkind: ConfigMap\napiVersion: v1\nmetadata:\n  name: x\ndata:\n  on: yes\n');
    const theirs = await runCli(['generate', 'yaml', '--output-style', 'clusterctl'], { stdin: src, env: env(), cwd: root });
    expect(theirs.stdout).toBe('apiVersion: v1\ndata:\n  "true": true\nkind: ConfigMap\nmetadata:\n  name: x\n');
    const bad = await runCli(['generate', 'yaml', '--output-style', 'kubectl'], { stdin: src, env: env(), cwd: root });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('invalid output style "kubectl", valid values: [capiform clusterctl]');
  });
});

/** `capiform validate` from the command line: inputs, `--schemas`, `--json` and the exit codes. */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { tempDir, testdir } from './helpers/testdir.js';

const repoRoot = join(import.meta.dirname, '..');

const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: { kind: Widget, plural: widgets }
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: { type: integer }
`;

const widget = (size: string): string => `apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  namespace: a\nspec:\n  size: ${size}\n`;

describe('capiform validate', () => {
  it('the embedded example validates clean (exit 0)', async () => {
    const res = await runCli(['validate'], { cwd: repoRoot });
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/^0 errors, 0 warnings in \d+ objects/);
    expect(res.code).toBe(0);
  });

  it('reads CRDs from --schemas and reports findings with exit 1', async () => {
    const dir = testdir({ 'crds/widgets.yaml': crd, 'objects/w.yaml': `# a widget\n${widget('"big"')}` });
    const res = await runCli(['validate', 'objects', '--schemas', 'crds'], { cwd: dir });
    expect(res.stdout).toBe(
      'objects/w.yaml:1: error: Widget a/w: spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"\n',
    );
    expect(res.stderr).toBe('1 error, 0 warnings in 1 object (1 checked against a schema)\n');
    expect(res.code).toBe(1);
  });

  it('takes the CRDs among the paths themselves (the CRD itself checked against the built-in schema), and prints JSON for CI', async () => {
    const dir = testdir({ 'all.yaml': `${crd}---\n${widget('3')}` });
    const res = await runCli(['validate', 'all.yaml', '--json'], { cwd: dir });
    expect(res.code).toBe(0);
    const json = JSON.parse(res.stdout) as Record<string, unknown>;
    expect(json).toMatchObject({ valid: true, errors: 0, warnings: 0, objects: 2, checked: 2, unchecked: [], findings: [] });
  });

  it('lists findings in JSON with file, line, object, field, message and value', async () => {
    const dir = testdir({ 'all.yaml': `${crd}---\n${widget('"x"')}` });
    const res = await runCli(['validate', 'all.yaml', '--json'], { cwd: dir });
    expect(res.code).toBe(1);
    expect((JSON.parse(res.stdout) as { findings: unknown[] }).findings).toEqual([
      {
        severity: 'error',
        file: 'all.yaml',
        line: 22,
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        namespace: 'a',
        name: 'w',
        field: 'spec.size',
        message: 'spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"',
        value: 'x',
      },
    ]);
  });

  it('exits 2 for unreadable input', async () => {
    const dir = testdir({ 'bad.yaml': 'a: [\n' });
    expect((await runCli(['validate', 'missing.yaml'], { cwd: dir })).code).toBe(2);
    expect((await runCli(['validate', 'bad.yaml'], { cwd: dir })).code).toBe(2);
    expect((await runCli(['validate', 'bad.yaml', '--schemas', 'nope'], { cwd: dir })).code).toBe(2);
  });

  it('--contract lints release folders and names each rule', async () => {
    const metadata = 'apiVersion: clusterctl.cluster.x-k8s.io/v1alpha3\nkind: Metadata\nreleaseSeries:\n- major: 1\n  minor: 0\n  contract: v1beta2\n';
    const components = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: c\n  namespace: x-system\n  labels:\n    cluster.x-k8s.io/provider: infrastructure-x\nspec:\n  template:\n    spec:\n      containers:\n      - name: controller\n';
    const dir = testdir({ 'repo/infrastructure-x/v1.0.0/metadata.yaml': metadata, 'repo/infrastructure-x/v1.0.0/infrastructure-components.yaml': components });
    const res = await runCli(['validate', '--contract', 'repo'], { cwd: dir });
    expect(res.stdout).toBe(
      'infrastructure-x/v1.0.0/infrastructure-components.yaml:1: warning [components.namespace-count]: the components hold 0 Namespace objects; clusterctl expects exactly one (the target namespace)\n' +
        'infrastructure-x/v1.0.0/infrastructure-components.yaml:1: error [components.manager-container]: Deployment x-system/c: the Deployment has no container named "manager" (clusterctl sets image overrides and flags on it)\n',
    );
    expect(res.stderr).toBe('1 error, 1 warning in 1 release\n');
    expect(res.code).toBe(1);
  });

  it('without paths, the topology of each cluster is expanded and a Cluster that cannot be expanded is an error', async () => {
    const dir = tempDir('capiform-validate-topology-');
    for (const f of ['capi.config.ts', 'capi.lock.yaml', 'examples', 'providers', 'clusters', 'clusterclasses']) cpSync(join(repoRoot, f), join(dir, f), { recursive: true });
    const file = join(dir, 'clusters', 'team-a', 'dev-1', 'cluster.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('        enforce: baseline\n', '        enforce: baseline\n        colour: red\n'));
    const res = await runCli(['validate', '--json'], { cwd: dir });
    const report = JSON.parse(res.stdout) as { objects: number; findings: Array<{ rule?: string; file: string; severity: string; message: string }> };
    expect(res.code).toBe(1);
    expect(report.findings.filter((f) => f.severity === 'error').map((f) => [f.rule, f.file])).toEqual([['capi.topology', 'clusters/team-a/dev-1/cluster.yaml']]);
    expect(report.findings[0]!.message).toContain('colour');
  });
});

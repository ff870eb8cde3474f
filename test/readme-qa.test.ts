/**
 * The manual (README.md and docs/) read as a user's manual: what it promises about commands, flags, exit codes and
 * messages holds. Each test names the page and section it checks.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as capiform from '../src/index.js';

const repoRoot = join(import.meta.dirname, '..');

describe('docs/configuration.md: Configuration reference', () => {
  it('the embedded example imports defineConfig from "capiform", as the documented config does', () => {
    // Importing from ./src made jiti transpile all of src/ on every run (≈ 8 s of a 10 s `render --check`),
    // and a copy of the example outside this repository would not load at all.
    const readme = readFileSync(join(repoRoot, 'docs/configuration.md'), 'utf8');
    const example = readFileSync(join(repoRoot, 'capi.config.ts'), 'utf8');
    expect(readme).toContain("import { defineConfig } from 'capiform';");
    expect(example).toContain("import { defineConfig } from 'capiform';");
    expect(example).not.toMatch(/from '\.\/src\//);
  });
});

describe('docs/argocd.md: Argo CD', () => {
  it('kustomizationFor and argocdManifests are importable from the package root, as documented', () => {
    expect(capiform.kustomizationFor(['cluster.yaml'])).toBe(
      'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- cluster.yaml\n',
    );
    expect(typeof capiform.argocdManifests).toBe('function');
  });
});

describe('docs/clusterclass-review.md: ClusterClass topology engine (library)', () => {
  it('expandTopology is importable from the package root and ignores Clusters without a topology', () => {
    const plain = { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'a', namespace: 'x' }, spec: {} };
    expect(capiform.expandTopology([plain])).toEqual({ clusters: [], problems: [] });
  });
});

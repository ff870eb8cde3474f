/**
 * The Renovate preset (renovate/capiform.json) finds every provider and cert-manager version of a `capi.config.ts`
 * and names the GitHub repository that releases it. These tests run the preset's custom managers the way Renovate's
 * regex manager does (file patterns, global matches of every `matchStrings` entry, Handlebars templates, replacing
 * `currentValue` inside the match) on the embedded example, and compare with a fixture of what Renovate would change.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';
import { describe, expect, it } from 'vitest';
import { builtinProviders } from '../src/resolve/index.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const fixtures = join(root, 'test/fixtures/renovate');

interface CustomManager {
  customType: string;
  managerFilePatterns: string[];
  matchStrings: string[];
  depNameTemplate?: string;
  packageNameTemplate?: string;
  datasourceTemplate?: string;
  versioningTemplate?: string;
}

interface Dep {
  depName: string;
  packageName: string;
  datasource: string;
  currentValue: string;
  versioning: string;
  /** Where the match starts and the text it matched: Renovate replaces `currentValue` inside it. */
  index: number;
  match: string;
}

const preset = JSON.parse(readFileSync(join(root, 'renovate/capiform.json'), 'utf8')) as { customManagers: CustomManager[]; packageRules: { matchPackageNames?: string[]; groupName?: string }[] };

/** `/regex/` patterns are regular expressions; anything else is a glob (the preset uses only the former). */
function fileMatches(pattern: string, path: string): boolean {
  const m = /^\/(.*)\/([a-z]*)$/.exec(pattern);
  if (!m) throw new Error(`glob patterns are not used by the preset: ${pattern}`);
  return new RegExp(m[1]!, m[2]).test(path);
}

function template(t: string | undefined, groups: Record<string, string>): string | undefined {
  return t === undefined ? undefined : Handlebars.compile(t)(groups);
}

/** Renovate's regex manager (matchStringsStrategy "any"): every match of every string is one dependency. */
function extract(path: string, content: string): Dep[] {
  const deps: Dep[] = [];
  for (const m of preset.customManagers) {
    expect(m.customType).toBe('regex');
    if (!m.managerFilePatterns.some((p) => fileMatches(p, path))) continue;
    for (const s of m.matchStrings) {
      for (const hit of content.matchAll(new RegExp(s, 'g'))) {
        const g = { ...hit.groups } as Record<string, string>;
        const depName = template(m.depNameTemplate, g) ?? g.depName!;
        deps.push({
          depName,
          packageName: template(m.packageNameTemplate, g) ?? g.packageName ?? depName,
          datasource: template(m.datasourceTemplate, g) ?? g.datasource!,
          currentValue: g.currentValue!,
          versioning: template(m.versioningTemplate, g) ?? 'semver-coerced',
          index: hit.index,
          match: hit[0],
        });
      }
    }
  }
  return deps.sort((a, b) => a.index - b.index);
}

/** Renovate's auto-replace: the matched text with `currentValue` replaced, written back where it was found. */
function applyUpdates(content: string, deps: readonly Dep[], newValues: readonly string[]): string {
  let out = content;
  // Back to front, so earlier offsets stay valid.
  for (let i = deps.length - 1; i >= 0; i--) {
    const d = deps[i]!;
    expect(out.slice(d.index, d.index + d.match.length)).toBe(d.match);
    out = out.slice(0, d.index) + d.match.replace(d.currentValue, newValues[i]!) + out.slice(d.index + d.match.length);
  }
  return out;
}

describe('Renovate preset on the embedded example', () => {
  const config = readFileSync(join(root, 'capi.config.ts'), 'utf8');
  const expected = JSON.parse(readFileSync(join(fixtures, 'example-updates.json'), 'utf8')) as { updates: (Omit<Dep, 'index' | 'match' | 'versioning'> & { newValue: string })[] };

  it('finds every provider and cert-manager version, with the repository that releases it', () => {
    const deps = extract('capi.config.ts', config);
    expect(deps.map(({ depName, packageName, datasource, currentValue }) => ({ depName, packageName, datasource, currentValue }))).toEqual(
      expected.updates.map(({ newValue: _n, ...d }) => d),
    );
    // npm versioning understands both `~1.12.0` ranges and exact `v1.12.4` tags.
    expect(new Set(deps.map((d) => d.versioning))).toEqual(new Set(['npm']));
  });

  it('changes exactly the version literals Renovate would change', () => {
    const deps = extract('capi.config.ts', config);
    const renovated = applyUpdates(config, deps, expected.updates.map((u) => u.newValue));
    expect(renovated).toBe(readFileSync(join(fixtures, 'capi.config.ts.renovated'), 'utf8'));
  });

  it('groups the providers released together by kubernetes-sigs/cluster-api into one update', () => {
    expect(preset.packageRules).toContainEqual(expect.objectContaining({ matchPackageNames: ['kubernetes-sigs/cluster-api'], groupName: 'Cluster API' }));
  });

  it('reads only capi.config.* files', () => {
    for (const path of ['capi.config.ts', 'fleet/eu/capi.config.mjs', 'capi.config.js']) expect(extract(path, config).length).toBeGreaterThan(0);
    for (const path of ['capi.config.ts.bak', 'src/capi.config.yaml', 'package.json']) expect(extract(path, config)).toEqual([]);
  });
});

describe('Renovate preset and the provider catalog', () => {
  const repoOf = (url: string): string => /^https:\/\/github\.com\/([^/]+\/[^/]+)\/releases\//.exec(url)![1]!;
  const reposByName = new Map<string, Set<string>>();
  for (const p of builtinProviders) reposByName.set(p.name, (reposByName.get(p.name) ?? new Set()).add(repoOf(p.url)));

  it('maps every catalog name released from one repository to that repository', () => {
    for (const [name, repos] of reposByName) {
      const deps = extract('capi.config.ts', `{ name: '${name}', version: 'v1.2.3' }`);
      if (repos.size > 1) {
        // talos, microk8s, metal3, nutanix: the repository depends on the provider type; the entry names it.
        expect(deps, name).toEqual([]);
        continue;
      }
      expect(deps.map((d) => [d.depName, d.packageName, d.datasource, d.currentValue]), name).toEqual([[name, [...repos][0], 'github-releases', 'v1.2.3']]);
    }
  });

  it('takes the repository from a `// renovate: github-releases=` line for any other provider', () => {
    const text = [
      "bootstrap: [{ name: 'talos',",
      '  // renovate: github-releases=siderolabs/cluster-api-bootstrap-provider-talos',
      "  version: 'v0.6.9' }],",
      "infrastructure: [{ name: 'acme', url: 'https://github.com/acme/cluster-api-provider-acme/releases/latest/infrastructure-components.yaml',",
      '  // renovate: github-releases=acme/cluster-api-provider-acme',
      '  version: "^0.4.0" }],',
    ].join('\n');
    expect(extract('capi.config.ts', text).map((d) => [d.depName, d.packageName, d.currentValue])).toEqual([
      ['siderolabs/cluster-api-bootstrap-provider-talos', 'siderolabs/cluster-api-bootstrap-provider-talos', 'v0.6.9'],
      ['acme/cluster-api-provider-acme', 'acme/cluster-api-provider-acme', '^0.4.0'],
    ]);
  });

  it('leaves cluster entries and "latest" alone', () => {
    const text = "clusters: [{ name: 'docker', namespace: 'a', infrastructure: 'docker', kubernetesVersion: 'v1.33.1' }]";
    expect(extract('capi.config.ts', text)).toEqual([]);
    // `latest` is extracted but npm versioning cannot update it: Renovate skips it as an invalid value.
    expect(extract('capi.config.ts', "{ name: 'aws', version: 'latest' }").map((d) => d.currentValue)).toEqual(['latest']);
  });
});

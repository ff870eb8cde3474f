/**
 * The Renovate preset (renovate/capiform.json) is what scripts/renovate-preset.mjs writes for clusterctl's catalog,
 * its expressions compile in RE2 (Renovate's engine) and JavaScript (its fallback), and, run the way Renovate's regex
 * manager runs them (file patterns, the "recursive" strategy, Handlebars templates), they find every version of the
 * config shapes of test/helpers/renovate-shapes.ts. test/renovate-extract.test.ts runs Renovate itself on the same.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import { RE2JS } from '@bufbuild/re2';
import { describe, expect, it } from 'vitest';
import { builtinProviders } from '../src/resolve/index.js';
import { renovatePreset } from '../scripts/renovate-preset.mjs';
import { repoRoot, shapes, type ExpectedDep } from './helpers/renovate-shapes.js';

interface CustomManager {
  customType: string;
  managerFilePatterns: string[];
  matchStrings: string[];
  matchStringsStrategy?: string;
  depNameTemplate?: string;
  packageNameTemplate?: string;
  depTypeTemplate?: string;
  datasourceTemplate?: string;
  versioningTemplate?: string;
}

interface Dep {
  depName: string;
  packageName: string;
  datasource: string;
  currentValue: string;
  depType: string;
  /** The text Renovate replaces `currentValue` inside. */
  replaceString: string;
}

const preset = JSON.parse(readFileSync(join(repoRoot, 'renovate/capiform.json'), 'utf8')) as {
  customManagers: CustomManager[];
  packageRules: Record<string, unknown>[];
};

const hb = Handlebars.create();
// Renovate's template helpers that the preset uses.
hb.registerHelper('equals', (a: unknown, b: unknown) => a === b);

function fileMatches(pattern: string, path: string): boolean {
  const m = /^\/(.*)\/([a-z]*)$/.exec(pattern);
  if (!m) throw new Error(`glob patterns are not used by the preset: ${pattern}`);
  return new RegExp(m[1]!, m[2]).test(path);
}

function template(t: string | undefined, groups: Record<string, string>): string | undefined {
  return t === undefined ? undefined : hb.compile(t, { noEscape: true })(groups);
}

/** Renovate's regex manager: each level of `matchStrings` runs on every match of the one before; groups add up. */
function extract(path: string, content: string): Dep[] {
  const deps: Dep[] = [];
  for (const m of preset.customManagers) {
    if (!m.managerFilePatterns.some((p) => fileMatches(p, path))) continue;
    const levels = m.matchStringsStrategy === 'recursive' ? [m.matchStrings] : m.matchStrings.map((s) => [s]);
    for (const level of levels) {
      const walk = (text: string, i: number, groups: Record<string, string>): void => {
        for (const hit of text.matchAll(new RegExp(level[i]!, 'g'))) {
          const g = { ...groups, ...Object.fromEntries(Object.entries(hit.groups ?? {}).filter(([, v]) => v !== undefined)) } as Record<string, string>;
          if (i < level.length - 1) {
            walk(hit[0], i + 1, g);
            continue;
          }
          const depName = template(m.depNameTemplate, g) ?? g.depName!;
          deps.push({
            depName,
            packageName: template(m.packageNameTemplate, g) ?? g.packageName ?? depName,
            datasource: template(m.datasourceTemplate, g)!,
            currentValue: g.currentValue!,
            depType: template(m.depTypeTemplate, g) ?? '',
            replaceString: hit[0],
          });
        }
      };
      walk(content, 0, {});
    }
  }
  return deps;
}

const sorted = (deps: ExpectedDep[]): ExpectedDep[] => [...deps].sort((a, b) => a.join(' ').localeCompare(b.join(' ')));

describe('Renovate preset', () => {
  it('is what scripts/renovate-preset.mjs writes for clusterctl\'s catalog', () => {
    expect(preset).toEqual(renovatePreset(builtinProviders));
  });

  it('compiles in RE2 (no lookaround, no backreferences) and in JavaScript', () => {
    for (const m of preset.customManagers) {
      for (const s of m.matchStrings) {
        expect(() => RE2JS.compile(s), m.matchStrings.indexOf(s) + ' of ' + String((m as { description?: string }).description)).not.toThrow();
        expect(() => new RegExp(s, 'g')).not.toThrow();
      }
    }
  });

  for (const shape of shapes()) {
    it(`extracts every version of ${shape.path}`, () => {
      const deps = extract(shape.path, shape.content);
      expect(sorted(deps.map((d) => [d.depName, d.packageName, d.currentValue, d.depType]))).toEqual(sorted(shape.deps));
      expect(new Set(deps.map((d) => d.datasource))).toEqual(new Set(['github-releases']));
      // Renovate rewrites the version inside the text it matched: it must be there, and the match one entry's.
      for (const d of deps) expect(d.replaceString).toContain(d.currentValue);
    });
  }

  it('reads only the config files capiform reads', () => {
    const entry = "providers: { core: { name: 'cluster-api', version: '~1.13.0' } }";
    for (const path of ['capi.config.ts', 'fleet/eu/capi.config.mjs', 'capi.config.js', 'capi.config.json']) expect(extract(path, entry).length, path).toBe(1);
    for (const path of ['capi.config.ts.bak', 'src/capi.config.yml', 'package.json']) expect(extract(path, entry), path).toEqual([]);
  });

  it('maps every catalog name released from one repository to that repository', () => {
    const repoOf = (url: string): string => /^https:\/\/github\.com\/([^/]+\/[^/]+)\/releases\//.exec(url)![1]!;
    const reposByName = new Map<string, Set<string>>();
    for (const p of builtinProviders) reposByName.set(p.name, (reposByName.get(p.name) ?? new Set()).add(repoOf(p.url)));
    for (const [name, repos] of reposByName) {
      const deps = extract('capi.config.ts', `providers: { infrastructure: [{ name: '${name}', version: 'v1.2.3' }] }`);
      if (repos.size > 1) {
        // talos, microk8s, metal3, nutanix: the repository depends on the provider type; the entry names it.
        expect(deps, name).toEqual([]);
        continue;
      }
      expect(deps.map((d) => [d.depName, d.packageName, d.currentValue]), name).toEqual([[name, [...repos][0], 'v1.2.3']]);
    }
  });

  it('takes the repository from a `// renovate: github-releases=` line for any other provider', () => {
    const text = [
      "providers: { bootstrap: [{ name: 'talos',",
      '  // renovate: github-releases=siderolabs/cluster-api-bootstrap-provider-talos',
      "  version: 'v0.6.9' }],",
      "infrastructure: [{ name: 'acme', url: 'https://github.com/acme/cluster-api-provider-acme/releases/latest/infrastructure-components.yaml',",
      '  // renovate: github-releases=acme/cluster-api-provider-acme',
      '  version: "^0.4.0" }] }',
    ].join('\n');
    expect(extract('capi.config.ts', text).map((d) => [d.depName, d.packageName, d.currentValue])).toEqual([
      ['siderolabs/cluster-api-bootstrap-provider-talos', 'siderolabs/cluster-api-bootstrap-provider-talos', 'v0.6.9'],
      ['acme/cluster-api-provider-acme', 'acme/cluster-api-provider-acme', '^0.4.0'],
    ]);
  });

  it('leaves cluster entries and "latest" alone', () => {
    expect(extract('capi.config.ts', "clusters: [{ name: 'docker', namespace: 'a', infrastructure: 'docker', kubernetesVersion: 'v1.33.1' }]")).toEqual([]);
    expect(extract('capi.config.ts', "providers: { infrastructure: [{ name: 'aws', version: 'latest' }] }")).toEqual([]);
  });

  it('disables local folders, bumps ranges on every release and splits management clusters into their own pull requests', () => {
    const rule = (key: string) => preset.packageRules.find((r) => key in r)!;
    expect(rule('enabled')).toMatchObject({ matchDepTypes: ['local-folder'], enabled: false });
    expect(rule('rangeStrategy')).toMatchObject({ rangeStrategy: 'bump' });
    expect(rule('additionalBranchPrefix')).toMatchObject({ matchDepTypes: ['/^target-/'], additionalBranchPrefix: '{{depType}}-' });
    expect(rule('groupName')).toMatchObject({ matchPackageNames: ['kubernetes-sigs/cluster-api'], groupName: 'Cluster API' });
  });
});

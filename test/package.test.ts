/**
 * What `npm i` and `npm pack` see: the Node versions we declare must satisfy every installed package's own `engines`
 * (so installing prints no EBADENGINE warning), and the packed package must carry what a new project needs: the CLI,
 * the library, `init`'s generated files and the config's JSON Schema, whose `$id` is where that file is published.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { configJsonSchemaPath } from '../src/config/index.js';

const root = resolve(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  version: string;
  engines: { node: string };
  files: string[];
  exports: Record<string, unknown>;
  repository: { url: string };
};
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
};

describe('engines: npm i prints no engine warning on the Node versions we support', () => {
  it('every installed package accepts every Node version package.json declares', () => {
    const ours = pkg.engines.node;
    const refusing: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      if (path === '' || Array.isArray(entry.engines)) continue;
      const theirs = entry.engines?.node;
      if (theirs === undefined || theirs === '*') continue;
      if (!semver.subset(ours, theirs)) refusing.push(`${path.replace(/^.*node_modules\//, '')}@${entry.version}: node ${theirs}`);
    }
    expect(refusing, `these packages refuse part of "${ours}"`).toEqual([]);
  });

  it('the lock file declares the same range, and Node 20 is supported', () => {
    expect((lock.packages['']!.engines as { node: string }).node).toBe(pkg.engines.node);
    expect(semver.satisfies('20.19.0', pkg.engines.node)).toBe(true);
    expect(semver.satisfies(process.versions.node, pkg.engines.node)).toBe(true);
  });
});

describe('the packed npm package', () => {
  it('holds the CLI, the library (init included) and the JSON Schema', () => {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', env: { ...process.env, npm_config_loglevel: 'silent' } });
    const files = new Set((JSON.parse(out) as [{ files: { path: string }[] }])[0].files.map((f) => f.path));
    for (const f of ['package.json', 'bin/capiform.js', 'dist/cli-bundle/cli.js', 'dist/index.js', 'dist/cli/commands/init.js', 'dist/config/scaffold.js', 'dist/pipeline/init.js', configJsonSchemaPath]) {
      expect(files, `${f} (run \`npm run build\` first)`).toContain(f);
    }
    expect([...files].some((f) => f.startsWith('src/') || f.startsWith('test/'))).toBe(false);
  });

  it('exports the JSON Schema, and its $id is that file at this version in the repository package.json names', () => {
    const schema = JSON.parse(readFileSync(join(root, configJsonSchemaPath), 'utf8')) as { $id: string };
    const repo = /github\.com\/([^/]+\/[^/.]+)(\.git)?$/.exec(pkg.repository.url)?.[1];
    expect(repo).toBeDefined();
    expect(schema.$id).toBe(`https://raw.githubusercontent.com/${repo}/v${pkg.version}/${configJsonSchemaPath}`);
    expect(pkg.files).toContain(configJsonSchemaPath.split('/')[0]);
    expect(pkg.exports[`./${configJsonSchemaPath}`]).toBe(`./${configJsonSchemaPath}`);
    // `capiform/schema/capi.config.schema.json` resolves through the package's exports (a self-reference here).
    const require = createRequire(join(root, 'package.json'));
    expect(require.resolve(`capiform/${configJsonSchemaPath}`)).toBe(join(root, configJsonSchemaPath));
  });
});

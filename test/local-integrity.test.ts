/**
 * Every byte verified, also for local repositories: a file edited after `capiform lock` is an integrity error (exit 3)
 * on every command, whether or not the content cache and the render cache hold the locked copy — a run must not pass
 * on a warm laptop and fail in CI. `lock --upgrade <provider>` re-pins an intended change.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseYamlValue as parse } from '../src/yaml/index.js';
import { describe, expect, it } from 'vitest';
import { runCli, type CliResult } from './helpers/cli.js';
import { fixtureProject } from './helpers/pipeline-fixtures.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read the lock as plain YAML
type Any = Record<string, any>;

const cli = (dir: string, ...argv: string[]): Promise<CliResult> =>
  runCli(argv, { cwd: dir, env: { PATH: process.env.PATH, HOME: dir, CAPIFORM_CACHE_DIR: join(dir, '.cache') } });

function lockedFile(dir: string, label: string, name: string): { path: string; sha256: string; version: string } {
  const lock = parse(readFileSync(join(dir, 'capi.lock.yaml'), 'utf8')) as Any;
  const entry = (lock.providers as Any[]).find((p) => p.label === label)!;
  const file = (entry.files as Any[]).find((f) => f.name === name)!;
  return { path: join(dir, file.path as string), sha256: file.sha256 as string, version: entry.version as string };
}

describe('a local repository file edited after capiform lock', { timeout: 240_000 }, () => {
  it('fails every command with exit 3 naming the file and both digests, even with warm caches; restoring it passes again', async () => {
    const dir = fixtureProject();
    expect((await cli(dir, 'render')).code).toBe(0);
    // Both caches are warm now: the content cache holds the locked bytes, the render cache the rendered directories.
    const { path, sha256, version } = lockedFile(dir, 'infrastructure-docker', 'infrastructure-components.yaml');
    const original = readFileSync(path, 'utf8');
    appendFileSync(path, '# edited by hand\n');

    for (const argv of [['render', '--check'], ['render', '--check', '--frozen'], ['render'], ['lock']]) {
      const r = await cli(dir, ...argv);
      expect(r.code, argv.join(' ')).toBe(3);
      expect(r.stderr).toContain(`Error: infrastructure-components.yaml of infrastructure-docker ${version} does not match capi.lock.yaml: expected sha256 ${sha256}, got `);
      expect(r.stderr).toContain(`(read from repo/infrastructure-docker/${version}/infrastructure-components.yaml)`);
      expect(r.stderr).toContain('capiform lock --upgrade infrastructure-docker');
      expect(r.stderr).not.toContain('    at ');
    }

    writeFileSync(path, original);
    expect((await cli(dir, 'render', '--check', '--frozen')).code).toBe(0);
  });

  it('an intended change is re-pinned by lock --upgrade <provider>, and the tree follows', async () => {
    const dir = fixtureProject();
    expect((await cli(dir, 'render')).code).toBe(0);
    const { path, sha256 } = lockedFile(dir, 'infrastructure-docker', 'infrastructure-components.yaml');
    appendFileSync(path, '# patched release\n');
    const r = await cli(dir, 'lock', '--upgrade', 'docker');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const repinned = lockedFile(dir, 'infrastructure-docker', 'infrastructure-components.yaml');
    expect(repinned.sha256).not.toBe(sha256);
    expect((await cli(dir, 'render', '--check', '--frozen')).code).toBe(1);
    expect((await cli(dir, 'render')).code).toBe(0);
    expect((await cli(dir, 'render', '--check', '--frozen')).code).toBe(0);
  });
});

/**
 * `generate` writes only content-addressed cache entries (temporary sibling + rename, verified or validated on read),
 * so parallel jobs sharing one cache need no lock: they neither wait for each other nor see half an entry. Four
 * `generate provider` processes started together on a cold cache must print exactly what one process prints alone,
 * and so must a later run answered from the cache they filled.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compiledCli } from './helpers/compiled-cli.js';
import { sharedDir } from './helpers/shared.js';
import { tempDir } from './helpers/testdir.js';

const shared = sharedDir('corpus');

function run(cli: string, cwd: string, env: NodeJS.ProcessEnv, argv: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...argv], { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe.skipIf(!shared.present)(`parallel generate jobs sharing one cache${shared.skipped}`, { timeout: 120_000 }, () => {
  it('print the same bytes as a lone run, cold and warm, without waiting for a lock', async () => {
    const cli = await compiledCli();
    const root = tempDir('capiform-generate-parallel-');
    const [project, cache, alone, tmp] = ['project', 'cache', 'alone', 'tmp'].map((d) => join(root, d)) as [string, string, string, string];
    for (const d of [project, cache, alone, tmp]) mkdirSync(d);
    const core = join(shared.path, 'repository', 'cluster-api', 'v1.13.5', 'core-components.yaml');
    writeFileSync(join(project, 'clusterctl.yaml'), `providers:\n- name: cluster-api\n  type: CoreProvider\n  url: ${core}\n`);
    const argv = ['generate', 'provider', '--core', 'cluster-api:v1.13.5', '--target-namespace', 'capi-system', '--config', 'clusterctl.yaml'];
    const env = (cacheDir: string): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: root, TMPDIR: tmp, CAPIFORM_CACHE_DIR: cacheDir });

    const reference = await run(cli, project, env(alone), argv);
    expect(reference.stderr).toBe('');
    expect(reference.code).toBe(0);

    const parallel = await Promise.all([1, 2, 3, 4].map(() => run(cli, project, env(cache), argv)));
    for (const r of parallel) {
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout === reference.stdout).toBe(true);
    }
    const warm = await run(cli, project, env(cache), argv);
    expect(warm.code).toBe(0);
    expect(warm.stdout === reference.stdout).toBe(true);
  });
});

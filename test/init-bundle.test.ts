import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { bundleProject } from './helpers/bundle-project.js';
import { tempDir } from './helpers/testdir.js';

describe('capiform init from an air-gapped bundle', () => {
  it('takes the versions the bundle holds, and lock and render from the bundle accept the result', async () => {
    const project = bundleProject();
    const made = await runCli(['bundle', '--out', 'site.tar.gz'], { cwd: project });
    expect(made.code).toBe(0);
    const bundle = join(project, 'site.tar.gz');

    const dir = tempDir();
    // No network here: the HTTP proxy points nowhere, so any remote read would fail.
    const env = { PATH: process.env.PATH, HOME: dir, HTTPS_PROXY: 'http://127.0.0.1:9', HTTP_PROXY: 'http://127.0.0.1:9' };
    const init = await runCli(['init', '--bundle', bundle, '--bootstrap', '', '--control-plane', '', '-i', 'docker'], { cwd: dir, env });
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    const config = readFileSync(join(dir, 'capi.config.ts'), 'utf8');
    expect(config).toContain("core: { name: 'cluster-api', version: '~1.12.4' },");
    expect(config).toContain("{ name: 'docker', version: '~1.12.4' },");
    expect(config).toContain("certManager: { version: '~1.18.2' },");
    expect(init.stdout).toContain(`npx capiform lock --bundle ${relative(dir, bundle)}\n`);

    const lock = await runCli(['lock', '--bundle', bundle], { cwd: dir, env });
    expect(lock.stderr).toBe('');
    expect(lock.code).toBe(0);
    const render = await runCli(['render', '--bundle', bundle], { cwd: dir, env });
    expect(render.stderr).toBe('');
    expect(render.code).toBe(0);
    expect(existsSync(join(dir, 'clusters/default/docker-example/cluster.yaml'))).toBe(true);
  });
});

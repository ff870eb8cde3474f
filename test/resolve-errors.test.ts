/**
 * The provider-resolution mistakes users make most, and what capiform answers: the right flag for a provider given
 * under the wrong type, the versions a repository has when the one asked for is not there, and a local repository
 * folder that does not exist. clusterctl's message stays first; the `fix:` line is capiform's.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { testdir } from './helpers/pipeline-fixtures.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// examples/clusterctl.yaml names the embedded repository through ${PWD}, as clusterctl users write it.
const generate = (...argv: string[]) =>
  runCli(['generate', 'provider', ...argv, '--config', 'examples/clusterctl.yaml'], { cwd: repoRoot, env: { PATH: process.env.PATH, HOME: repoRoot, PWD: repoRoot } });

describe('generate provider: a provider under the wrong type', () => {
  it('names the type it really is, with the flag and the config key to use (exit 3)', async () => {
    const r = await generate('--core', 'docker:v1.12.4');
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('Error: failed to get configuration for the CoreProvider with name docker.');
    expect(r.stderr).toContain('fix: "docker" is an InfrastructureProvider (--infrastructure, or providers.infrastructure in capi.config)');
  });
});

describe('a version the local repository does not have', () => {
  it('lists the versions it has (exit 3)', async () => {
    const r = await generate('--infrastructure', 'docker:v9.9.9');
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('from local release v9.9.9');
    expect(r.stderr).toContain('fix: the repository has no release v9.9.9; it has: v1.12.4, v1.13.1');
  });

  it('suggests the v prefix when it is missing', async () => {
    const r = await generate('--core', 'cluster-api:1.12.4');
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('fix: the repository has no release 1.12.4 (did you mean v1.12.4?); it has: v1.12.4, v1.13.1');
  });
});

describe('capi.config: a local repository folder that does not exist', () => {
  it('says the folder is missing and how relative urls resolve, not that the path needs another layout (exit 2)', async () => {
    const dir = testdir({ 'capi.config.ts': "export default { providers: { core: { name: 'cluster-api', version: '~1.12.0', url: './examples/nope' } } };\n" });
    const r = await runCli(['lock'], { cwd: dir, env: { PATH: process.env.PATH, HOME: dir, CAPIFORM_CACHE_DIR: join(dir, '.cache') } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`Error: the local repository of cluster-api does not exist: no folder ${join(dir, 'examples/nope')}`);
    expect(r.stderr).toContain('at: providers.core.url');
    expect(r.stderr).toContain(`fix: a relative url is resolved against the config's folder (${dir}); a local repository holds <label>/<version>/<components file>, e.g. cluster-api/v1.2.3/core-components.yaml`);
    expect(r.stderr).not.toContain('absolute path');
  });
});

describe('capi.config: a url scheme capiform does not read', () => {
  it.each([
    ['s3://bucket/providers/cluster-api', 's3'],
    ['git://example.org/cluster-api.git', 'git'],
    ['htps://github.com/kubernetes-sigs/cluster-api/releases/latest/core-components.yaml', 'htps'],
  ])('%s is a config error naming the schemes capiform reads, not a local folder (exit 2, nothing written)', async (url, scheme) => {
    const config = `export default { providers: { core: { name: 'cluster-api', version: '~1.12.0', url: ${JSON.stringify(url)} } } };\n`;
    const dir = testdir({ 'capi.config.ts': config });
    const r = await runCli(['lock'], { cwd: dir, env: { PATH: process.env.PATH, HOME: dir, CAPIFORM_CACHE_DIR: join(dir, '.cache') } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`Error: unsupported repository url scheme "${scheme}://" in ${JSON.stringify(url)}`);
    expect(r.stderr).toContain('at: providers.core.url');
    expect(r.stderr).toContain('fix: capiform reads https://');
    expect(r.stderr).not.toContain('release directories');
    expect(existsSync(join(dir, 'capi.lock.yaml'))).toBe(false);
  });

  it('certManager.url is checked the same way', async () => {
    const dir = testdir({
      'capi.config.ts':
        "export default { providers: { core: { name: 'cluster-api', version: '~1.12.0', url: './repo' } }, certManager: { version: 'v1.16.0', url: 'ftp://mirror/cert-manager.yaml' } };\n",
      'repo/cluster-api/v1.12.0/core-components.yaml': 'kind: Namespace\n',
    });
    const r = await runCli(['lock'], { cwd: dir, env: { PATH: process.env.PATH, HOME: dir, CAPIFORM_CACHE_DIR: join(dir, '.cache') } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Error: unsupported repository url scheme "ftp://"');
    expect(r.stderr).toContain('at: certManager.url');
    expect(existsSync(join(dir, 'capi.lock.yaml'))).toBe(false);
  });
});

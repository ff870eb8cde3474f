import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { fixtureRepository, testdir } from './helpers/pipeline-fixtures.js';

const env = { PATH: process.env.PATH, HOME: process.env.HOME };

/** A project whose cert-manager is a range; the repository offers only v1.18.2 at first (v1.19.1 is put aside). */
function project(certManager: string): string {
  const root = testdir({});
  fixtureRepository(root);
  cpSync(join(root, 'repo/cert-manager/v1.19.1'), join(root, 'later/v1.19.1'), { recursive: true });
  rmSync(join(root, 'repo/cert-manager/v1.19.1'), { recursive: true });
  writeFileSync(
    join(root, 'capi.config.yaml'),
    `providers:
  core: { name: cluster-api, version: "~1.13.0", url: ./repo }
  infrastructure: [{ name: docker, version: "^1.12", url: ./repo }]
certManager: { version: "${certManager}", url: ./repo }
`,
  );
  return root;
}

const lockedCertManager = (root: string): string => /certManager:\n {2}version: (\S+)/.exec(readFileSync(join(root, 'capi.lock.yaml'), 'utf8'))![1]!;

describe('lock --upgrade cert-manager works like every other provider', () => {
  it('a range resolves to the newest release in it; the lock keeps it until `lock --upgrade cert-manager`', async () => {
    const root = project('^1.18.0');
    expect((await runCli(['lock'], { cwd: root, env })).code).toBe(0);
    expect(lockedCertManager(root)).toBe('v1.18.2');

    // A newer release appears: a plain lock (or an upgrade of something else) keeps the pinned one.
    cpSync(join(root, 'later/v1.19.1'), join(root, 'repo/cert-manager/v1.19.1'), { recursive: true });
    expect((await runCli(['lock'], { cwd: root, env })).stdout).toContain('capi.lock.yaml is up to date');
    expect((await runCli(['lock', '--upgrade', 'docker'], { cwd: root, env })).code).toBe(0);
    expect(lockedCertManager(root)).toBe('v1.18.2');

    const up = await runCli(['lock', '--upgrade', 'cert-manager'], { cwd: root, env });
    expect(up.stderr).toContain('cert-manager: v1.18.2 → v1.19.1');
    expect(up.stdout).toContain('cert-manager v1.19.1\nwrote capi.lock.yaml');
    expect(lockedCertManager(root)).toBe('v1.19.1');
    expect((await runCli(['render', '--frozen'], { cwd: root, env })).code).toBe(0);
    expect(readFileSync(join(root, 'providers/cert-manager/cert-manager.yaml'), 'utf8')).toContain('cert-manager-controller:v1.19.1');
  });

  it('`lock --upgrade` (all) moves cert-manager too; a range it no longer fits is explained as stale', async () => {
    const root = project('^1.18.0');
    expect((await runCli(['lock'], { cwd: root, env })).code).toBe(0);
    cpSync(join(root, 'later/v1.19.1'), join(root, 'repo/cert-manager/v1.19.1'), { recursive: true });
    expect((await runCli(['lock', '--upgrade'], { cwd: root, env })).code).toBe(0);
    expect(lockedCertManager(root)).toBe('v1.19.1');

    writeFileSync(join(root, 'capi.config.yaml'), readFileSync(join(root, 'capi.config.yaml'), 'utf8').replace('^1.18.0', '~1.18.0'));
    const frozen = await runCli(['render', '--frozen'], { cwd: root, env });
    expect(frozen.code).toBe(2);
    expect(frozen.stderr).toContain('cert-manager: locked v1.19.1 does not satisfy "~1.18.0"');
  });

  it('names cert-manager among what --upgrade accepts, and an empty range lists the releases there are', async () => {
    const root = project('^1.18.0');
    const wrong = await runCli(['lock', '--upgrade', 'cert-manger'], { cwd: root, env });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('use a name or label of: cluster-api, infrastructure-docker, cert-manager');
    writeFileSync(join(root, 'capi.config.yaml'), readFileSync(join(root, 'capi.config.yaml'), 'utf8').replace('^1.18.0', '^2.0.0'));
    const none = await runCli(['lock'], { cwd: root, env });
    expect(none.code).toBe(3);
    expect(none.stderr).toContain('cert-manager (certManager.version): no version satisfies "^2.0.0"; available: v1.18.2');
  });
});

describe('a missing cert-manager repository says where capiform looked and how to add it', () => {
  it('a local repository without a cert-manager folder', async () => {
    const root = project('v1.18.2');
    rmSync(join(root, 'repo/cert-manager'), { recursive: true });
    const r = await runCli(['lock'], { cwd: root, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`no cert-manager release: capiform looked for ${join(root, 'repo', 'cert-manager')}/<version>/cert-manager.yaml`);
    expect(r.stderr).toContain('at: certManager.url');
    expect(r.stderr).toContain('fix: copy cert-manager\'s release there (cert-manager/v1.18.2/cert-manager.yaml');
  });

  it("no certManager.url: clusterctl's default on GitHub, which an offline run cannot reach", async () => {
    const root = project('v1.18.2');
    writeFileSync(join(root, 'capi.config.yaml'), readFileSync(join(root, 'capi.config.yaml'), 'utf8').replace('certManager: { version: "v1.18.2", url: ./repo }', 'certManager: { version: "v1.18.2" }'));
    const r = await runCli(['lock', '--offline'], { cwd: root, env });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('Error: cert-manager v1.18.2: offline:');
    expect(r.stderr).toContain('at: https://github.com/cert-manager/cert-manager/releases/download/v1.18.2/cert-manager.yaml');
    expect(r.stderr).toContain("fix: certManager.url is not set, so capiform read clusterctl's default (GitHub releases); set certManager.url to a repository holding cert-manager/<version>/cert-manager.yaml");
  });
});

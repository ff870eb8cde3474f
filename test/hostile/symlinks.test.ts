/**
 * A pull request can commit symbolic links. capiform reads a project file only when its real path, every link on the
 * way resolved, stays inside the project, and only a regular file: a link to a credentials file elsewhere on the
 * runner, a linked folder, or a FIFO is refused with exit 2 before anything is read or written.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { snapshotDir } from '../helpers/dir-snapshot.js';
import { fixtureProject } from '../helpers/pipeline-fixtures.js';
import { tempDir, writeFiles } from '../helpers/testdir.js';

const template = `apiVersion: cluster.x-k8s.io/v1beta2
kind: Cluster
metadata:
  name: \${CLUSTER_NAME}
spec:
  infrastructureRef:
    apiGroup: infrastructure.cluster.x-k8s.io
    kind: DockerCluster
    name: \${CLUSTER_NAME}
---
apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: DockerCluster
metadata:
  name: \${CLUSTER_NAME}
`;

const ownTemplate = `
    { name: 'dev-1', namespace: 'team-a', infrastructure: 'docker', template: 'templates/dev.yaml', kubernetesVersion: 'v1.33.1' },`;

let project = '';
let env: NodeJS.ProcessEnv = {};

beforeAll(() => {
  env = { PATH: process.env.PATH, HOME: process.env.HOME, CAPIFORM_CACHE_DIR: tempDir() };
  project = fixtureProject({ clusters: ownTemplate }, 'plain');
});

/** A copy of the project at `<base>/project`, beside `<base>/outside` with a credentials file (JSON is YAML). */
function layout(): { base: string; dir: string; outside: string } {
  const base = tempDir();
  const dir = join(base, 'project');
  const outside = join(base, 'outside');
  cpSync(project, dir, { recursive: true });
  writeFiles(outside, { 'credentials.json': '{"apiVersion": "v1", "kind": "Secret", "token": "s3cret-token"}\n', 'templates/dev.yaml': template });
  return { base, dir, outside };
}

/** Runs `render` and checks it refused with exit 2, without a stack or the file's content, changing nothing under `base`. */
async function refused(base: string, dir: string): Promise<CliResult> {
  const before = snapshotDir(base);
  const r = await runCli(['render'], { cwd: dir, env });
  expect(r.stderr).toMatch(/^Error: /);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.stderr + r.stdout).not.toContain('s3cret-token');
  expect(r.code).toBe(2);
  expect(snapshotDir(base)).toEqual(before);
  return r;
}

describe('T2: no file is read through a symbolic link that leaves the project — cluster templates', () => {
  it('a template that is a link to a file elsewhere is refused, naming the link and where it leads', async () => {
    const { base, dir, outside } = layout();
    mkdirSync(join(dir, 'templates'));
    symlinkSync(join(outside, 'credentials.json'), join(dir, 'templates/dev.yaml'));
    const r = await refused(base, dir);
    expect(r.stderr).toContain(`Error: the template of cluster team-a/dev-1 leads out of the project through a symbolic link: ${join(dir, 'templates/dev.yaml')} is ${join(outside, 'credentials.json')}`);
    expect(r.stderr).toContain('at: clusters[0].template');
    expect(r.stderr).toContain('fix: commit the file itself instead of a link to it');
  });

  it('a template inside a linked folder is refused', async () => {
    const { base, dir, outside } = layout();
    symlinkSync(join(outside, 'templates'), join(dir, 'templates'));
    const r = await refused(base, dir);
    expect(r.stderr).toContain('the template of cluster team-a/dev-1 leads out of the project through a symbolic link');
  });

  it('a relative link that climbs out of the project is refused', async () => {
    const { base, dir } = layout();
    mkdirSync(join(dir, 'templates'));
    symlinkSync('../../outside/credentials.json', join(dir, 'templates/dev.yaml'));
    await refused(base, dir);
  });

  it('a link that stays inside the project is followed', async () => {
    const { dir } = layout();
    writeFiles(dir, { 'common/dev.yaml': template });
    mkdirSync(join(dir, 'templates'));
    symlinkSync('../common/dev.yaml', join(dir, 'templates/dev.yaml'));
    const r = await runCli(['render'], { cwd: dir, env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});

describe('T5: never hang — a template that is not a regular file', () => {
  it('a FIFO given as a template is refused at once, not opened for reading', async () => {
    const { dir, outside } = layout();
    mkdirSync(join(dir, 'templates'));
    // Snapshots read every file, and reading a FIFO blocks: take them of the rest of the project only.
    const rest = (): Record<string, string> => snapshotDir(dir, join(dir, 'repo'));
    const before = [rest(), snapshotDir(outside)];
    execFileSync('mkfifo', [join(dir, 'templates/dev.yaml')]);
    const r = await runCli(['render'], { cwd: dir, env });
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect([rest(), snapshotDir(outside)]).toEqual(before);
    expect(existsSync(join(dir, 'clusters'))).toBe(false);
    expect(r.stderr).toContain(`Error: the template of cluster team-a/dev-1 is a FIFO (named pipe), not a regular file: ${join(dir, 'templates/dev.yaml')}`);
    expect(r.stderr).toContain('fix: point it at a regular file');
  }, 60_000);
});

describe('T2: no file is read through a symbolic link that leaves the project — local repositories', () => {
  it('a local repository inside the project that is a link to a folder elsewhere is refused', async () => {
    const { base, dir, outside } = layout();
    writeFiles(dir, { 'templates/dev.yaml': template });
    renameSync(join(dir, 'repo'), join(outside, 'repo'));
    symlinkSync(join(outside, 'repo'), join(dir, 'repo'));
    const r = await refused(base, dir);
    expect(r.stderr).toMatch(/leads out of the project through a symbolic link: .*\/project\/repo\/.* is .*\/outside\/repo\//);
  });

  it('a local repository the config names outside the project is read (the user named it)', async () => {
    const { dir, outside } = layout();
    writeFiles(dir, { 'templates/dev.yaml': template });
    renameSync(join(dir, 'repo'), join(outside, 'repo'));
    const config = join(dir, 'capi.config.ts');
    const text = execFileSync('cat', [config], { encoding: 'utf8' }).replaceAll("'./repo'", JSON.stringify(join(outside, 'repo')));
    rmSync(config);
    writeFiles(dir, { 'capi.config.ts': text });
    const r = await runCli(['render'], { cwd: dir, env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});

/**
 * Wrong kinds of input and values that reach other systems: each is a user error (exit 2) that says what is wrong and
 * where, with no stack trace, and the command changes nothing on disk. docs/security-inputs.md lists them.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fsUserError } from '../../src/cli/fs-error.js';
import { runCli } from '../helpers/cli.js';
import { snapshotDir } from '../helpers/dir-snapshot.js';
import { testdir } from '../helpers/testdir.js';

const repository = join(import.meta.dirname, '..', '..', 'examples', 'repository');

/** Runs capiform in `cwd` and checks the failure is a user error (exit 2) that left `cwd` as it was. */
async function refused(argv: string[], cwd: string): Promise<string> {
  const before = snapshotDir(cwd);
  const r = await runCli(argv, { cwd });
  expect(r.stderr).not.toMatch(/internal error|\n\s+at [^:]+\(/);
  expect(r.code, r.stderr).toBe(2);
  expect(snapshotDir(cwd)).toEqual(before);
  return r.stderr;
}

function config(argocd: Record<string, unknown>): string {
  return JSON.stringify({ providers: { core: { name: 'cluster-api', version: 'v1.12.4', url: repository } }, argocd: { repoURL: 'https://github.com/org/fleet.git', ...argocd } });
}

describe('init into something that is not a folder, and an --argocd URL Argo CD cannot clone', () => {
  it('init into a file names it and what it is (exit 2), the file untouched', async () => {
    const cwd = testdir({ 'notes.txt': 'mine\n' });
    const err = await refused(['init', 'notes.txt', '--repository', repository, '-i', 'docker'], cwd);
    expect(err).toBe(`Error: ${join(cwd, 'notes.txt')} is a file, where a folder is expected: init writes a project into a folder\n  at: ${join(cwd, 'notes.txt')}\n  fix: give a folder that exists or does not exist yet\n`);
  });

  it('init into a device says it is a device', async () => {
    const cwd = testdir();
    expect(await refused(['init', '/dev/null', '--repository', repository], cwd)).toContain('Error: /dev/null is a character device, where a folder is expected');
  });

  it("init --argocd 'not a url' is refused before anything is written", async () => {
    const cwd = testdir();
    const err = await refused(['init', 'fleet', '--repository', repository, '-i', 'docker', '--argocd', 'not a url'], cwd);
    expect(err).toContain('Error: "not a url" is not a git repository URL Argo CD can clone');
    expect(err).toContain('  at: --argocd\n');
  });
});

describe('T1: nothing outside the project is read, written, moved or deleted — Argo CD names and paths from the config', () => {
  for (const mode of ['applications', 'applicationset']) {
    it(`argocd.namePrefix "../" is a config error naming argocd.namePrefix in ${mode} mode`, async () => {
      const cwd = testdir({ 'capi.config.json': config({ mode, namePrefix: '../' }) });
      const err = await refused(['render', '--offline'], cwd);
      expect(err).toContain('argocd.namePrefix: "../" is not the start of an Argo CD Application name, a lowercase RFC 1123 label');
      expect(err).toContain(`at: ${join(cwd, 'capi.config.json')}`);
    });
  }

  it('argocd.namePrefix with characters Kubernetes refuses, or longer than a name can carry, is refused', async () => {
    for (const namePrefix of ['Capi_', 'capi prod-', '-capi', 'a'.repeat(55)]) {
      const cwd = testdir({ 'capi.config.json': config({ mode: 'applicationset', namePrefix }) });
      expect(await refused(['render', '--offline'], cwd)).toContain('argocd.namePrefix: ');
    }
  });

  it('argocd.path outside the repository is a config error, not an internal assertion', async () => {
    for (const path of ['../x', '/etc', 'a/../../b', 'a\\b']) {
      const cwd = testdir({ 'capi.config.json': config({ path }) });
      const err = await refused(['render', '--offline'], cwd);
      expect(err).toContain(`argocd.path: ${JSON.stringify(path)} is not a folder inside the git repository`);
    }
  });

  it('argocd.repoURL, namespace, project and destination.server are checked against what Argo CD and Kubernetes accept', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ repoURL: 'not a url' }, 'argocd.repoURL: "not a url" is not a git repository URL'],
      [{ namespace: '../argocd' }, 'argocd.namespace: "../argocd" is not a lowercase RFC 1123 label'],
      [{ project: 'Team A' }, 'argocd.project: "Team A" is not an Argo CD project name'],
      [{ destination: { server: 'kubernetes.default.svc' } }, 'argocd.destination.server: "kubernetes.default.svc" is not a Kubernetes API server URL'],
      [{ targetRevision: 'main branch' }, 'argocd.targetRevision: "main branch" is not a git revision'],
    ];
    for (const [argocd, message] of cases) {
      const cwd = testdir({ 'capi.config.json': config(argocd) });
      expect(await refused(['render', '--offline'], cwd)).toContain(message);
    }
  });
});

describe('validate --schemas: documents that declare nothing or nest without end', () => {
  const object = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  namespace: default\n';

  it('100,000 levels of nested JSON are an input error at the file and line (exit 2)', async () => {
    const cwd = testdir({ 'cm.yaml': object, 'deep.json': `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}` });
    const err = await refused(['validate', 'cm.yaml', '--schemas', 'deep.json'], cwd);
    expect(err).toBe('Error: deep.json is not valid JSON: nesting is deeper than 256 levels of mappings and sequences\n  at: deep.json:1:1281\n  fix: flatten the document; Kubernetes objects and OpenAPI documents nest far less deeply\n');
  });

  it('a $ref cycle is an error naming the cycle, not "0 errors"', async () => {
    const ref = (n: string) => ({ $ref: `#/components/schemas/${n}` });
    const doc = {
      openapi: '3.0.0',
      components: {
        schemas: {
          'io.k8s.api.core.v1.ConfigMap': { ...ref('Alias'), 'x-kubernetes-group-version-kind': [{ group: '', kind: 'ConfigMap', version: 'v1' }] },
          Alias: { allOf: [ref('io.k8s.api.core.v1.ConfigMap')] },
        },
      },
    };
    const cwd = testdir({ 'cm.yaml': object, 'cycle.json': JSON.stringify(doc) });
    const err = await refused(['validate', 'cm.yaml', '--schemas', 'cycle.json'], cwd);
    expect(err).toContain('Error: cycle.json: the $ref chain io.k8s.api.core.v1.ConfigMap → Alias → io.k8s.api.core.v1.ConfigMap is a cycle');
  });

  it('a recursive type (a $ref back to itself below a field) is still accepted', async () => {
    const doc = {
      openapi: '3.0.0',
      components: {
        schemas: {
          'io.k8s.api.core.v1.ConfigMap': {
            type: 'object',
            properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' }, data: { $ref: '#/components/schemas/io.k8s.api.core.v1.ConfigMap' } },
            'x-kubernetes-group-version-kind': [{ group: '', kind: 'ConfigMap', version: 'v1' }],
          },
        },
      },
    };
    const cwd = testdir({ 'cm.yaml': object, 'tree.json': JSON.stringify(doc) });
    const r = await runCli(['validate', 'cm.yaml', '--schemas', 'tree.json'], { cwd });
    expect(r.code, r.stderr).toBe(0);
  });
});

describe('T5: never hang — devices and FIFOs are named for what they are and never read', () => {
  it('validate of /dev/zero or a FIFO, as a manifest, a schema or a file in a folder, says what it is (exit 2)', async () => {
    const cwd = testdir({ 'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n' });
    execFileSync('mkfifo', [join(cwd, 'pipe.yaml')]);
    mkdirSync(join(cwd, 'manifests'));
    execFileSync('ln', ['-s', '/dev/zero', join(cwd, 'manifests', 'zero.yaml')]);
    expect(await refused(['validate', '/dev/zero'], cwd)).toContain('Error: /dev/zero is a character device, where a file is expected\n');
    expect(await refused(['validate', 'pipe.yaml'], cwd)).toContain(`Error: ${join(cwd, 'pipe.yaml')} is a FIFO (named pipe), where a file is expected\n`);
    expect(await refused(['validate', 'cm.yaml', '--schemas', '/dev/zero'], cwd)).toContain('is a character device, where a file is expected');
    expect(await refused(['validate', 'cm.yaml', '--schemas', 'pipe.yaml'], cwd)).toContain('is a FIFO (named pipe), where a file is expected');
    // A link in a folder to a device leaves the folder: refused as such, before its target is looked at.
    expect(await refused(['validate', 'manifests'], cwd)).toMatch(/manifests\/zero\.yaml leads out of the folder .* through a symbolic link: .* is \/dev\/zero\n/);
    rmSync(join(cwd, 'manifests', 'zero.yaml'));
    execFileSync('mkfifo', [join(cwd, 'manifests', 'pipe.yaml')]);
    expect(await refused(['validate', 'manifests'], cwd)).toContain('FIFO (named pipe)');
  });

  it('validate --contract of a device or a FIFO says what it is', async () => {
    const cwd = testdir();
    execFileSync('mkfifo', [join(cwd, 'pipe')]);
    expect(await refused(['validate', '--contract', '/dev/zero'], cwd)).toContain('Error: /dev/zero is a character device, where a release folder or a local repository is expected\n');
    expect(await refused(['validate', '--contract', 'pipe'], cwd)).toContain('is a FIFO (named pipe), where a release folder or a local repository is expected\n');
  });
});

describe('T1: nothing outside the project is read, written, moved or deleted — validate --contract', () => {
  it('validate --contract / is refused from its own listing, before any folder below it is read', async () => {
    const cwd = testdir();
    const err = await refused(['validate', '--contract', '/'], cwd);
    expect(err).toContain('Error: / is not a provider release folder, a provider folder or a local repository: nothing below it was read\n');
  });

  it('a folder of unrelated folders is refused too; a provider folder and a repository are linted', async () => {
    const cwd = testdir({ 'home/user/notes.yaml': 'a: 1\n' });
    expect(await refused(['validate', '--contract', 'home'], cwd)).toContain('is not a provider release folder');
    const provider = await runCli(['validate', '--contract', join(repository, 'infrastructure-docker')], { cwd });
    expect(provider.stderr).toMatch(/in \d+ releases?\n$/);
    const repo = await runCli(['validate', '--contract', repository], { cwd });
    expect(repo.stderr).toMatch(/in \d+ releases?\n$/);
    expect(repo.stderr).not.toMatch(/ 0 releases?/);
  });
});

describe('a read-only project folder names the file that could not be written', () => {
  // Tests run as root, where a read-only folder is still writable: the mapping from the error of the temporary
  // sibling (the rename source of every atomic write) to the file is what is checked.
  it('EACCES on capi.lock.yaml’s temporary sibling names capi.lock.yaml', () => {
    const err = Object.assign(new Error('EACCES'), { code: 'EACCES', syscall: 'open', path: '/srv/fleet/.capi.lock.yaml.tmp-4242-1' });
    const e = fsUserError(err)!;
    expect(e.message).toBe('cannot write /srv/fleet/capi.lock.yaml: permission denied');
    expect(e.where).toBe('/srv/fleet/capi.lock.yaml');
    expect(e.exitCode).toBe(2);
  });

  it('a file named like a temporary sibling by the user is left as it is', () => {
    const err = Object.assign(new Error('EACCES'), { code: 'EACCES', syscall: 'open', path: '/srv/fleet/.notes.tmp-x' });
    expect(fsUserError(err)!.message).toBe('cannot write /srv/fleet/.notes.tmp-x: permission denied');
  });
});


describe('repeated keys in the config, the lock and clusterctl.yaml are errors; an alias bomb names its file', () => {
  const core = `providers:\n  core:\n    name: cluster-api\n    version: v1.12.4\n    url: ${repository}\n`;

  it('a repeated key in capi.config.yaml or capi.config.json is a config error at its line (exit 2)', async () => {
    const yaml = testdir({ 'capi.config.yaml': `${core}    version: v1.12.3\n` });
    expect(await refused(['render', '--offline'], yaml)).toBe(
      `Error: config is not valid YAML: mapping key "version" appears more than once\n  at: ${join(yaml, 'capi.config.yaml')}:6:5\n  fix: keep one of the two keys: which value was meant is ambiguous\n`,
    );
    const json = testdir({ 'capi.config.json': `{"providers":{"core":{"name":"cluster-api","version":"v1.12.4","version":"v1.12.3","url":${JSON.stringify(repository)}}}}` });
    expect(await refused(['render', '--offline'], json)).toContain('Error: config is not valid JSON: mapping key "version" appears more than once\n');
  });

  it('a repeated key in capi.lock.yaml is an error naming the lock (exit 2)', async () => {
    const lock = 'lockfileVersion: 1\nlockfileVersion: 1\nproviders: []\n';
    const cwd = testdir({ 'capi.config.yaml': core, 'capi.lock.yaml': lock });
    const err = await refused(['render', '--check', '--frozen', '--offline'], cwd);
    expect(err).toContain('capi.lock.yaml is not valid YAML: mapping key "lockfileVersion" appears more than once');
  });

  it('a repeated key in clusterctl.yaml is an error at its line (exit 2)', async () => {
    const cwd = testdir({ 'clusterctl.yaml': 'FOO: a\nFOO: b\n', 't.yaml': 'kind: ConfigMap\n' });
    const err = await refused(['generate', 'yaml', '--config', 'clusterctl.yaml', '--from', 't.yaml'], cwd);
    expect(err).toContain('Map keys must be unique');
    expect(err).toContain(`at: ${join(cwd, 'clusterctl.yaml')}:2`);
  });

  it('an alias bomb in clusterctl.yaml is refused naming the file (exit 2)', async () => {
    const levels = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (const [i, n] of ['b', 'c', 'd', 'e', 'f', 'g'].entries()) {
      const prev = 'abcdef'[i]!;
      levels.push(`${n}: &${n} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    const cwd = testdir({ 'clusterctl.yaml': `${levels.join('\n')}\n`, 't.yaml': 'kind: ConfigMap\n' });
    const err = await refused(['generate', 'yaml', '--config', 'clusterctl.yaml', '--from', 't.yaml'], cwd);
    expect(err).toBe(
      `Error: failed to initialize the configuration reader: While parsing config: document too large or too many alias expansions\n  at: ${join(cwd, 'clusterctl.yaml')}\n  fix: the clusterctl configuration file expands to more than 1000000 values: remove the aliases that repeat one another (an alias bomb)\n`,
    );
  });
});

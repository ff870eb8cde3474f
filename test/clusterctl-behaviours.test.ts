/**
 * clusterctl behaviours the specs name, checked through capiform's public functions and the CLI: ProcessYAML from a
 * local file (path, relative path, file:// URL), generate cluster keeping KUBERNETES_VERSION from the environment
 * when no --kubernetes-version is given, a nil variables client for GitHub repositories, and FromUnstructured.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode, ResolutionError } from '../src/errors.js';
import { processYaml } from '../src/pipeline/generate/index.js';
import { GitHubRepository } from '../src/resolve/github/repository.js';
import { HttpClient } from '../src/resolve/index.js';
import { fromUnstructured } from '../src/yaml/index.js';
import { runCli } from './helpers/cli.js';
import { testdir } from './helpers/testdir.js';
import { thrown, type ThrownError } from './helpers/thrown.js';

const template = 'v1: ${VAR1:=default1}\nv2: ${VAR2=default2}\nv3: ${VAR3:-default3}';

/** What an async call rejects with; the test fails when it resolves. */
async function rejection(fn: () => Promise<unknown>): Promise<ThrownError> {
  try {
    await fn();
  } catch (err) {
    return err as ThrownError;
  }
  throw new Error('expected an error');
}

function io(cwd: string, env: NodeJS.ProcessEnv = {}) {
  return {
    env: { HOME: join(cwd, 'home'), XDG_CONFIG_HOME: join(cwd, 'xdg'), ...env },
    cwd,
    readStdin: async () => new Uint8Array(),
  };
}

describe('ProcessYAML reads a local template file', () => {
  it('by absolute path, relative path and file:// URL, with the same result', async () => {
    const dir = testdir({ 'template.yaml': template });
    for (const from of [join(dir, 'template.yaml'), './template.yaml', 'template.yaml', `file://${join(dir, 'template.yaml')}`]) {
      const t = await processYaml(io(dir), { from });
      expect({ from, yaml: t.yaml(), variables: t.variables }).toEqual({
        from,
        yaml: 'v1: default1\nv2: default2\nv3: default3',
        variables: ['VAR1', 'VAR2', 'VAR3'],
      });
    }
  });

  it('lists the variables only when asked (SkipTemplateProcess): no objects', async () => {
    const dir = testdir({ 'template.yaml': template });
    const t = await processYaml(io(dir), { from: './template.yaml', listVariables: true });
    expect(t.objects).toEqual([]);
    expect(t.yaml()).toBe('');
    expect(t.variables).toEqual(['VAR1', 'VAR2', 'VAR3']);
  });

  it('a missing file or a folder is an input error naming the path (exit 2)', async () => {
    const dir = testdir({ 'folder/': null });
    const missing = await rejection(() => processYaml(io(dir), { from: './nope.yaml' }));
    expect(missing).toMatchObject({ message: 'failed to read file "./nope.yaml"', exitCode: ExitCode.input });
    const folder = await rejection(() => processYaml(io(dir), { from: `file://${join(dir, 'folder')}` }));
    expect(folder.message).toMatch(/^invalid path: file ".*folder" is actually a directory$/);
    expect(folder).toMatchObject({ exitCode: ExitCode.input });
  });

  it('no source at all is a usage error with clusterctl\'s message', async () => {
    const e = await rejection(() => processYaml(io(testdir()), { from: '' }));
    expect(e).toMatchObject({ message: 'unable to read custom template. Please specify a template source', exitCode: ExitCode.input });
  });
});

describe('generate cluster without --kubernetes-version', () => {
  const clusterTemplate = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${CLUSTER_NAME}\ndata:\n  version: ${KUBERNETES_VERSION}\n';

  function env(dir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
    mkdirSync(join(dir, 'home'), { recursive: true });
    return { PATH: process.env.PATH, HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'xdg'), ...extra };
  }

  it('keeps KUBERNETES_VERSION from the environment; the flag, when given, wins', async () => {
    const dir = testdir({ 't.yaml': clusterTemplate });
    const fromEnv = await runCli(['generate', 'cluster', 'dev', '-n', 'team', '--from', './t.yaml'], {
      cwd: dir,
      env: env(dir, { KUBERNETES_VERSION: 'v1.30.2' }),
    });
    expect(fromEnv).toEqual({
      code: 0,
      stdout: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dev\n  namespace: team\ndata:\n  version: v1.30.2\n',
      stderr: '',
    });
    const fromFlag = await runCli(
      ['generate', 'cluster', 'dev', '-n', 'team', '--from', './t.yaml', '--kubernetes-version', 'v1.31.0'],
      { cwd: dir, env: env(dir, { KUBERNETES_VERSION: 'v1.30.2' }) },
    );
    expect(fromFlag.code).toBe(0);
    expect(fromFlag.stdout).toContain('version: v1.31.0');
  });

  it('without the flag or the variable, the missing variable is named (exit 2, nothing printed)', async () => {
    const dir = testdir({ 't.yaml': clusterTemplate });
    const r = await runCli(['generate', 'cluster', 'dev', '-n', 'team', '--from', './t.yaml'], { cwd: dir, env: env(dir) });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      'Error: value for variables [KUBERNETES_VERSION] is not set. Please set the value using os environment variables or the clusterctl config file',
    );
  });
});

describe('GitHub repository and the variables client', () => {
  const url = 'https://github.com/o/r/releases/v1.0.0/components.yaml';

  it('a nil variables client is refused as clusterctl refuses it (exit 3)', () => {
    const e = thrown(() => new GitHubRepository(url, { http: new HttpClient({ offline: true }), variables: null }));
    expect(e).toBeInstanceOf(ResolutionError);
    expect(e.message).toBe("invalid arguments: configVariablesClient can't be nil");
    expect(e.exitCode).toBe(ExitCode.resolution);
  });

  it('without a token, github-token is read from the variables client', () => {
    const asked: string[] = [];
    const repo = new GitHubRepository(url, {
      http: new HttpClient({ offline: true }),
      variables: (name) => {
        asked.push(name);
        return undefined;
      },
    });
    expect(repo.location.repository).toBe('r');
    expect(asked).toEqual(['github-token']);
  });
});

describe('FromUnstructured', () => {
  it('joins the objects as clusterctl prints them: keys sorted, --- between, no final newline', () => {
    expect(fromUnstructured([{ kind: 'ConfigMap', apiVersion: 'v1' }, { kind: 'Secret', apiVersion: 'v1' }])).toBe(
      'apiVersion: v1\nkind: ConfigMap\n---\napiVersion: v1\nkind: Secret',
    );
    expect(fromUnstructured([])).toBe('');
  });
});

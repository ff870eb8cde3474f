/**
 * A render killed in the middle of its swap leaves a journal and a tree that is partly the old render and partly the
 * new one. Every command that reads the tree or the lock without writing them refuses it (exit 2, naming the journal
 * and `capiform render`, changing nothing) instead of reporting on a mix; `render` then finishes the write and the
 * readers work again.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readSettled, writeTree } from '../src/pipeline/index.js';
import { runCli } from './helpers/cli.js';
import { compiledCli } from './helpers/compiled-cli.js';
import { fixtureProject, writeFixtureConfig } from './helpers/pipeline-fixtures.js';
import { fileContents } from './helpers/file-contents.js';
import { testdir } from './helpers/testdir.js';


/** Every file under `root`, by path (the state a refusing command must leave as it found it). */
const files = (root: string): Record<string, string> => fileContents(root);

let project = '';
let clean = '';
let env: NodeJS.ProcessEnv = {};
/** A second copy of the interrupted project, for `lock`. */
let interrupted = '';

beforeAll(async () => {
  const cache = testdir();
  env = { PATH: process.env.PATH, HOME: process.env.HOME, CAPIFORM_CACHE_DIR: cache };
  clean = fixtureProject({}, 'plain');
  expect((await runCli(['render'], { cwd: clean, env })).code).toBe(0);
  // The same project, switched to a new core version and killed after its first directory was swapped.
  project = testdir();
  cpSync(clean, project, { recursive: true });
  writeFixtureConfig(project, { core: '~1.12.0' }, 'plain');
  const cli = await compiledCli();
  const signal = await new Promise<NodeJS.Signals | null>((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'render'], { cwd: project, env: { ...env, CAPIFORM_CRASH_AT: 'swap:dir-done' }, stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', (_code, sig) => resolve(sig));
  });
  expect(signal).toBe('SIGKILL');
  expect(existsSync(join(project, '.capiform/journal.json'))).toBe(true);
  interrupted = testdir();
  cpSync(project, interrupted, { recursive: true });
}, 120_000);

function outside(): string {
  const d = testdir();
  return d;
}

const readers: [string, (dir: string) => string[]][] = [
  ['render --check', () => ['render', '--check']],
  ['bundle', () => ['bundle']],
  ['bundle --out outside the project', () => ['bundle', '--out', join(outside(), 'b.tar.gz')]],
  ['images', () => ['images']],
  ['images --tree', (dir) => ['images', '--tree', dir]],
  ['diff DIR_A DIR_B', (dir) => ['diff', clean, dir]],
  ['plan upgrade', () => ['plan', 'upgrade']],
  ['plan move', () => ['plan', 'move']],
];

describe('commands that read the tree refuse an unfinished write', { timeout: 120_000 }, () => {
  for (const [name, args] of readers) {
    it(`${name}: exit 2 naming the journal and the fix, nothing changed`, async () => {
      const before = files(project);
      const r = await runCli(args(project), { cwd: project, env });
      expect(r.code, r.stdout + r.stderr).toBe(2);
      expect(r.stderr).toContain('has an unfinished write (.capiform/journal.json)');
      expect(r.stderr).toContain(join(project, '.capiform/journal.json'));
      expect(r.stderr).toContain('run `capiform render`');
      expect(r.stdout).toBe('');
      expect(files(project)).toEqual(before);
    });
  }

  it('lock, a writer, finishes the write first (the swap had begun: the new lock and tree), then locks', async () => {
    const r = await runCli(['lock'], { cwd: interrupted, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('repaired an interrupted earlier render (completed its staged changes)');
    expect(r.stdout).toContain('capi.lock.yaml is up to date');
    expect(existsSync(join(interrupted, '.capiform/journal.json'))).toBe(false);
    const check = await runCli(['render', '--check', '--frozen'], { cwd: interrupted, env });
    expect(check.code, check.stderr).toBe(0);
  });

  it('render finishes the write, and the readers work again', async () => {
    const r = await runCli(['render'], { cwd: project, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('repaired an interrupted earlier render (completed its staged changes)');
    expect(existsSync(join(project, '.capiform/journal.json'))).toBe(false);
    for (const args of [['render', '--check', '--frozen'], ['images'], ['plan', 'move']]) {
      const ok = await runCli(args, { cwd: project, env });
      expect(ok.code, `${args.join(' ')}: ${ok.stderr}`).toBe(0);
    }
  });
});

describe('a reader overlapping a completed write', () => {
  it('reads again, so what it returns comes from one write', async () => {
    const root = testdir();
    const tree = (v: string): { path: string; content: string }[] => [
      { path: 'providers/p/components.yaml', content: `v: ${v}\n` },
      { path: 'clusters/c/cluster.yaml', content: `v: ${v}\n` },
    ];
    writeTree(root, tree('1'), { lock: { name: 'capi.lock.yaml', content: 'lock: 1\n' } });
    const reads: string[] = [];
    const value = await readSettled(
      root,
      () => {
        const first = readFileSync(join(root, 'providers/p/components.yaml'), 'utf8');
        // A render completes between this reader's two files on its first pass.
        if (reads.length === 0) writeTree(root, tree('2'), { lock: { name: 'capi.lock.yaml', content: 'lock: 2\n' } });
        const second = readFileSync(join(root, 'clusters/c/cluster.yaml'), 'utf8');
        reads.push(`${first.trim()} ${second.trim()}`);
        return reads.at(-1);
      },
      'capi.lock.yaml',
    );
    expect(reads).toEqual(['v: 1 v: 2', 'v: 2 v: 2']);
    expect(value).toBe('v: 2 v: 2');
  });
});

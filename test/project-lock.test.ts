/**
 * One writer at a time: the writer lock (`.capiform/writer.lock`) that `render`, `lock` and `bundle` hold, its waiting
 * notice and timeout, the takeover of a lock left by a dead process, and two real `render` processes of different
 * configs racing into one tree.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireProcessLock } from '../src/cache/index.js';
import { runCli } from './helpers/cli.js';
import { compiledCli, compiledDoor } from './helpers/compiled-cli.js';
import { fixtureConfigPlain, fixtureProject, type FixtureConfigOptions } from './helpers/pipeline-fixtures.js';
import { fileContents } from './helpers/file-contents.js';
import { testdir } from './helpers/testdir.js';


/** Every file of the project but the configs and the fixture repository, by path. */
function projectFiles(root: string): Record<string, string> {
  return fileContents(root, { skip: (rel) => rel === 'repo' || /config\.ts$/.test(rel) });
}

/** The pid of a process that has exited (and been reaped): no process of this host has it now. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

const now = new Date().toISOString();

function writeLockFile(dir: string, owner: { pid: number; hostname?: string; command?: string; since?: string }): string {
  const file = join(dir, '.capiform/writer.lock');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ pid: owner.pid, hostname: owner.hostname ?? hostname(), since: owner.since ?? now, command: owner.command ?? 'capiform render' })}\n`);
  return file;
}

const configB: FixtureConfigOptions = {
  core: '~1.12.0',
  clusters: `
    { name: 'dev-3', namespace: 'team-c', infrastructure: 'docker', flavor: 'development', kubernetesVersion: 'v1.34.0', workerMachineCount: 4 },`,
};

describe('the project writer lock', { timeout: 300_000 }, () => {
  it('a render waits for a live holder, says so once naming its pid, and gives up with exit 3 after --lock-timeout, changing nothing', async () => {
    const dir = fixtureProject({}, 'plain');
    const env = { CAPIFORM_CACHE_DIR: testdir() };
    // This test process is alive: its pid holds the lock.
    const lockFile = writeLockFile(dir, { pid: process.pid, command: 'capiform lock' });
    const before = projectFiles(dir);
    const r = await runCli(['render', '--lock-timeout', '0.3'], { cwd: dir, env });
    expect(r.code).toBe(3);
    const notices = r.stderr.split('\n').filter((l) => l.startsWith('capiform: waiting for'));
    expect(notices).toEqual([`capiform: waiting for capi.lock.yaml/tree lock held by pid ${process.pid} (capiform lock, since ${now}) …`]);
    expect(r.stderr).toContain(`capi.lock.yaml/tree is locked by pid ${process.pid}`);
    expect(r.stderr).toContain('gave up after 0.3 s');
    expect(r.stderr).toContain('--lock-timeout');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(projectFiles(dir)).toEqual(before);
    expect(existsSync(join(dir, 'capi.lock.yaml'))).toBe(false);

    // `lock` and `bundle` into the project wait for the same lock.
    for (const args of [['lock'], ['bundle']]) {
      const w = await runCli([...args, '--lock-timeout', '0'], { cwd: dir, env });
      expect(w.code, `${args[0]}: ${w.stderr}`).toBe(3);
      expect(w.stderr).toContain(`locked by pid ${process.pid}`);
    }
    expect(projectFiles(dir)).toEqual(before);
    expect(readFileSync(lockFile, 'utf8')).toContain(`"pid":${process.pid}`);
  });

  it('a lock left by a dead process is taken over, and released after the render', async () => {
    const dir = fixtureProject({}, 'plain');
    const pid = deadPid();
    writeLockFile(dir, { pid });
    const r = await runCli(['render', '--lock-timeout', '0'], { cwd: dir, env: { CAPIFORM_CACHE_DIR: testdir() } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('waiting for');
    expect(existsSync(join(dir, 'capi.lock.yaml'))).toBe(true);
    expect(readdirSync(join(dir, '.capiform')).filter((n) => n.startsWith('writer.lock'))).toEqual([]);
  });

  it.runIf(existsSync('/proc/self/stat'))('a lock whose pid now belongs to a process started after it was taken (a reused pid) is taken over', async () => {
    const dir = fixtureProject({}, 'plain');
    // This process runs, but it started long after 2001: it cannot be the one that took the lock then.
    writeLockFile(dir, { pid: process.pid, since: '2001-01-01T00:00:00.000Z' });
    const r = await runCli(['render', '--lock-timeout', '0'], { cwd: dir, env: { CAPIFORM_CACHE_DIR: testdir() } });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(dir, '.capiform/writer.lock'))).toBe(false);
  });

  it('a lock held on another host is never taken over: the timeout says how to remove it', async () => {
    const dir = fixtureProject({}, 'plain');
    const file = writeLockFile(dir, { pid: deadPid(), hostname: 'build-7.example' });
    const r = await runCli(['render', '--lock-timeout', '0'], { cwd: dir, env: { CAPIFORM_CACHE_DIR: testdir() } });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('on build-7.example');
    expect(r.stderr).toContain(`delete ${file}`);
    expect(existsSync(file)).toBe(true);
  });

  it('--lock-timeout must be a number of seconds (exit 2)', async () => {
    const dir = fixtureProject({}, 'plain');
    const r = await runCli(['render', '--lock-timeout', 'soon'], { cwd: dir, env: { CAPIFORM_CACHE_DIR: testdir() } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--lock-timeout "soon" is not a number of seconds');
    expect(existsSync(join(dir, 'capi.lock.yaml'))).toBe(false);
  });

  it('a waiting process gets the lock as soon as its holder releases it', async () => {
    const dir = testdir();
    const file = join(dir, 'writer.lock');
    const first = await acquireProcessLock({ file, what: 'test', command: 'first', timeoutSeconds: 0 });
    const notices: string[] = [];
    // The holder lets go when the waiter announces itself: no timing involved.
    const second = await acquireProcessLock({
      file,
      what: 'test',
      command: 'second',
      timeoutSeconds: 60,
      onWait: (l) => {
        notices.push(l);
        first.release();
      },
    });
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain(`held by pid ${process.pid} (first,`);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ pid: process.pid, command: 'second' });
    first.release(); // no longer its lock: must not remove the second's
    expect(existsSync(file)).toBe(true);
    second.release();
    expect(existsSync(file)).toBe(false);
  });

  it('processes racing to take over one stale lock hold it one at a time', async () => {
    const cli = await compiledCli();
    const lockModule = compiledDoor(cli, 'cache');
    const dir = testdir();
    const file = join(dir, 'writer.lock');
    const log = join(dir, 'log');
    writeFileSync(file, `${JSON.stringify({ pid: deadPid(), hostname: hostname(), since: 'x', command: 'dead' })}\n`);
    writeFileSync(log, '');
    // Each process appends "+pid" on entering and "-pid" on leaving; a second holder would interleave them.
    const script = `
      import { appendFileSync } from 'node:fs';
      import { acquireProcessLock } from ${JSON.stringify(lockModule)};
      const lock = await acquireProcessLock({ file: ${JSON.stringify(file)}, what: 'test', command: 'racer', timeoutSeconds: 120 });
      appendFileSync(${JSON.stringify(log)}, '+' + process.pid + '\\n');
      for (let i = 0; i < 5; i++) { appendFileSync(${JSON.stringify(log)}, ''); await new Promise((r) => setImmediate(r)); }
      appendFileSync(${JSON.stringify(log)}, '-' + process.pid + '\\n');
      lock.release();
    `;
    const racers = Array.from({ length: 6 }, () =>
      new Promise<number | null>((resolve, reject) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'ignore' });
        child.on('error', reject);
        child.on('close', (code) => resolve(code));
      }),
    );
    expect(await Promise.all(racers)).toEqual([0, 0, 0, 0, 0, 0]);
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(12);
    for (let i = 0; i < lines.length; i += 2) {
      expect(lines[i]!.startsWith('+'), lines.join(' ')).toBe(true);
      expect(lines[i + 1], lines.join(' ')).toBe(`-${lines[i]!.slice(1)}`);
    }
    expect(existsSync(file)).toBe(false);
  });
});

describe('two renders of different configs into one tree at the same time', { timeout: 600_000 }, () => {
  it('always leave one whole lock+tree pair: the second waits, then renders its own', async () => {
    const cli = await compiledCli();
    const env = { ...process.env, CAPIFORM_CACHE_DIR: testdir() };
    const base = fixtureProject({}, 'plain');
    writeFileSync(join(base, 'a.config.ts'), fixtureConfigPlain({}));
    writeFileSync(join(base, 'b.config.ts'), fixtureConfigPlain(configB));
    rmSync(join(base, 'capi.config.ts'));

    // The pair each config renders on its own.
    const expected: Record<'a' | 'b', Record<string, string>> = { a: {}, b: {} };
    for (const which of ['a', 'b'] as const) {
      const ref = testdir();
      cpSync(base, ref, { recursive: true });
      const r = spawnSync(process.execPath, [cli, 'render', '--config', `${which}.config.ts`], { cwd: ref, env, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      expected[which] = projectFiles(ref);
    }
    expect(expected.a['capi.lock.yaml']).not.toBe(expected.b['capi.lock.yaml']);

    const render = (dir: string, which: 'a' | 'b'): Promise<{ which: 'a' | 'b'; code: number | null; stderr: string }> =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [cli, 'render', '--config', `${which}.config.ts`], { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
        child.on('error', reject);
        child.on('close', (code) => resolve({ which, code, stderr }));
      });

    // Renders of this size usually overlap, and then one of them waits.
    for (let round = 0; round < 5; round++) {
      const dir = testdir();
      cpSync(base, dir, { recursive: true });
      const results = await Promise.all([render(dir, 'a'), render(dir, 'b')]);
      for (const r of results) expect(r.code, `round ${round}, ${r.which}: ${r.stderr}`).toBe(0);
      const final = projectFiles(dir);
      const waiter = results.find((r) => r.stderr.includes('capiform: waiting for capi.lock.yaml/tree lock held by pid'));
      if (waiter) {
        // The one that waited rendered last: the final state is its whole pair.
        expect(final, `round ${round}: ${waiter.which} waited, so its pair must be on disk`).toEqual(expected[waiter.which]);
      } else {
        expect([expected.a, expected.b], `round ${round}: a mix of both renders`).toContainEqual(final);
      }
      const holder = results.find((r) => r !== waiter)!;
      if (waiter) expect(waiter.stderr.split('\n').filter((l) => l.includes('waiting for'))).toHaveLength(1);
      expect(holder.stderr).not.toContain('waiting for');
    }
    // One round where they surely overlap: both start while the lock is held here, and wait; then it is released.
    const dir = testdir();
    cpSync(base, dir, { recursive: true });
    const held = await acquireProcessLock({ file: join(dir, '.capiform/writer.lock'), what: 'test', command: 'test', timeoutSeconds: 0 });
    const both = [renderWaiting(dir, 'a'), renderWaiting(dir, 'b')];
    await Promise.all(both.map((r) => r.waiting));
    held.release();
    const results = await Promise.all(both.map((r) => r.done));
    for (const r of results) expect(r.code, `${r.which}: ${r.stderr}`).toBe(0);
    const final = projectFiles(dir);
    expect([expected.a, expected.b], 'a mix of both renders').toContainEqual(final);
    const which = final['capi.lock.yaml'] === expected.a['capi.lock.yaml'] ? 'a' : 'b';
    const check = spawnSync(process.execPath, [cli, 'render', '--check', '--frozen', '--config', `${which}.config.ts`], { cwd: dir, env, encoding: 'utf8' });
    expect(check.status, check.stderr).toBe(0);

    function renderWaiting(d: string, w: 'a' | 'b'): { waiting: Promise<void>; done: Promise<{ which: string; code: number | null; stderr: string }> } {
      let onWaiting: () => void = () => {};
      const waiting = new Promise<void>((r) => (onWaiting = r));
      const done = new Promise<{ which: string; code: number | null; stderr: string }>((resolve, reject) => {
        const child = spawn(process.execPath, [cli, 'render', '--config', `${w}.config.ts`], { cwd: d, env, stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (t: string) => {
          stderr += t;
          if (stderr.includes(`waiting for capi.lock.yaml/tree lock held by pid ${process.pid} (test,`)) onWaiting();
        });
        child.on('error', reject);
        child.on('close', (code) => {
          onWaiting();
          resolve({ which: w, code, stderr });
        });
      });
      return { waiting, done };
    }
  });
});

/**
 * Crash safety of `capiform render`: the real CLI is killed (SIGKILL) at every step of a write (CAPIFORM_CRASH_AT,
 * steps enumerated from the writer's own list, so a new step cannot go untested). The lock file and the tree change
 * together: once the next writing command has recovered, capi.lock.yaml and the tree are exactly the old pair or
 * exactly the new one, `render --check --frozen` agrees, and until then the readers refuse the half-written tree. A
 * recovery killed at the same step is itself recovered by the next one.
 *
 * Speed: the project's config is a plain object (no `capiform` import, which costs seconds per load: see
 * fixtureConfigPlain), the processes run the sources compiled once (compiled-cli.ts) instead of through jiti, and
 * they run side by side, each in its own copy of the project.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeSteps, type WriteStep } from '../src/pipeline/tree/tree-writer.js';
import { runCli } from './helpers/cli.js';
import { compiledCli } from './helpers/compiled-cli.js';
import { fixtureProject, writeFixtureConfig, type FixtureConfigOptions } from './helpers/pipeline-fixtures.js';
import { fileContents } from './helpers/file-contents.js';
import { testdir } from './helpers/testdir.js';


/** What a render owns in a project: the lock, the owned list and every file of the tree, by path. */
function pair(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const t of ['providers', 'clusters', 'clusterclasses']) if (existsSync(join(root, t))) fileContents(root, { dir: join(root, t) }, out);
  for (const f of ['capi.lock.yaml', '.capiform/owned.json']) if (existsSync(join(root, f))) out[f] = readFileSync(join(root, f), 'utf8');
  return out;
}

/** Left behind by an unfinished write (the writer lock of a killed process is taken over, so it may remain). */
const leftovers = (dir: string): string[] => ['.capiform/journal.json', '.capiform/staging', '.capiform/old'].filter((p) => existsSync(join(dir, p)));

// Config B moves the core provider to another version (a new lock), reconfigures docker and changes the clusters.
const configB: FixtureConfigOptions = {
  core: '~1.12.0',
  infra: `{ name: 'docker', version: '^1.12', url: './repo', manager: { verbosity: 5 } }`,
  clusters: `
    { name: 'dev-1', namespace: 'team-a', infrastructure: 'docker', flavor: 'development', kubernetesVersion: 'v1.34.0', workerMachineCount: 5 },
    { name: 'dev-3', namespace: 'team-c', infrastructure: 'docker', flavor: 'development', kubernetesVersion: 'v1.34.0' },`,
};

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** `capiform <args>` as a real process (killed by the crash hook when `crashAt` is given). */
function spawnCli(cli: string, dir: string, args: string[], env: NodeJS.ProcessEnv, crashAt?: WriteStep): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      cwd: dir,
      env: { ...process.env, ...env, ...(crashAt ? { CAPIFORM_CRASH_AT: crashAt } : {}) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
}

/** Runs `fn` on every item, at most `limit` at a time, results in item order. */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Steps before the journal says `swap` roll back to the old pair; from then on the write is completed. */
const rollsForward = (step: WriteStep): boolean => writeSteps.indexOf(step) >= writeSteps.indexOf('swap:begin');

describe('crash-safe writes of the lock and the tree', { timeout: 600_000 }, () => {
  it('after a SIGKILL at any step the next writing command leaves exactly the old or the new pair, and readers refuse until then', async () => {
    const env = { CAPIFORM_CACHE_DIR: testdir() };
    const old = fixtureProject({}, 'plain');
    expect((await runCli(['render'], { cwd: old, env })).code).toBe(0);
    const oldPair = pair(old);

    const fresh = testdir();
    cpSync(old, fresh, { recursive: true });
    writeFixtureConfig(fresh, configB, 'plain');
    expect((await runCli(['render'], { cwd: fresh, env })).code).toBe(0);
    const newPair = pair(fresh);
    expect(newPair['capi.lock.yaml']).not.toBe(oldPair['capi.lock.yaml']);
    for (const p of ['providers/cluster-api/inventory.yaml', 'providers/infrastructure-docker/components.yaml']) expect(newPair[p]).not.toBe(oldPair[p]);

    const cli = await compiledCli();
    const dirs = writeSteps.map(() => {
      const dir = testdir();
      cpSync(old, dir, { recursive: true });
      writeFixtureConfig(dir, configB, 'plain');
      return dir;
    });
    const parallel = Math.max(1, Math.min(4, availableParallelism()));

    // 1. The render of config B dies at the step.
    const killed = await mapLimit(writeSteps, parallel, (step, i) => spawnCli(cli, dirs[i]!, ['render'], env, step));
    for (const [i, step] of writeSteps.entries()) {
      expect(killed[i]!.signal, `${step}: the render was not killed there, so the step went untested: ${killed[i]!.stderr}`).toBe('SIGKILL');
    }

    // 2. Until a writer recovers, a reader refuses a half-written tree (exit 2, naming the journal and the fix).
    for (const [i, step] of writeSteps.entries()) {
      const dir = dirs[i]!;
      if (!existsSync(join(dir, '.capiform/journal.json'))) continue;
      const before = pair(dir);
      const check = await runCli(['render', '--check'], { cwd: dir, env });
      expect(check.code, `${step}: ${check.stderr}`).toBe(2);
      expect(check.stderr).toContain('.capiform/journal.json');
      expect(check.stderr).toContain('capiform render');
      expect(pair(dir), `${step}: render --check changed the project`).toEqual(before);
    }

    // 3. A recovery (completing a swap) killed at the same step leaves a journal the next one takes up again.
    const forward = writeSteps.filter(rollsForward);
    const twice = await mapLimit(forward, parallel, (step) => spawnCli(cli, dirs[writeSteps.indexOf(step)]!, ['render'], env, step));
    for (const [i, step] of forward.entries()) {
      const inRecovery = ['swap:dir-retired', 'swap:dir-done', 'swap:lock', 'swap:owned', 'cleanup:begin'].includes(step);
      if (inRecovery) expect(twice[i]!.signal, `${step}: the recovery did not reach the step: ${twice[i]!.stderr}`).toBe('SIGKILL');
      else expect(twice[i]!.code, `${step}: ${twice[i]!.stderr}`).toBe(0);
    }

    // 4. The next writing command recovers first (killed right after, to see what recovery alone left); its first
    // act is also to take over the writer lock the killed process left.
    const recovered = await mapLimit(writeSteps, parallel, (_step, i) => spawnCli(cli, dirs[i]!, ['render'], env, 'recovered'));
    for (const [i, step] of writeSteps.entries()) {
      const dir = dirs[i]!;
      expect(recovered[i]!.signal, `${step}: ${recovered[i]!.stderr}`).toBe('SIGKILL');
      expect(leftovers(dir), `${step}: left after recovery`).toEqual([]);
      const now = pair(dir);
      const expected = rollsForward(step) ? newPair : oldPair;
      expect(now, `${step}: the lock and tree are not exactly the ${rollsForward(step) ? 'new' : 'old'} pair`).toEqual(expected);
      // render --check --frozen agrees with the pair (config A for the old one, B for the new).
      writeFixtureConfig(dir, rollsForward(step) ? configB : {}, 'plain');
      const check = await runCli(['render', '--check', '--frozen'], { cwd: dir, env });
      expect(check.code, `${step}: render --check --frozen: ${check.stdout}${check.stderr}`).toBe(0);
    }

    // 5. And a full render of B from there gives the new pair.
    for (const [i, step] of writeSteps.entries()) {
      const dir = dirs[i]!;
      writeFixtureConfig(dir, configB, 'plain');
      const again = await runCli(['render'], { cwd: dir, env });
      expect(again.code, `${step}: ${again.stderr}`).toBe(0);
      expect(pair(dir), `${step}: after the next render`).toEqual(newPair);
      expect(leftovers(dir)).toEqual([]);
    }
  });
});

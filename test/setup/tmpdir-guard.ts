/**
 * `npm test` leaves the machine as it found it. The run gets a folder of its own inside TMPDIR (so other programs
 * using TMPDIR at the same time cannot be mistaken for leaks); workers and the processes tests start inherit it.
 * Anything left in it when the run ends is listed and fails the run, then removed.
 *
 * HOME is a folder inside it too: capiform caches under ~/.cache/capiform and reads ~/.cluster-api, so with the
 * user's own HOME a run would fill their cache, and a stale cache or a personal clusterctl.yaml could change results.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const isolated = ['TMPDIR', 'HOME', 'XDG_CACHE_HOME', 'XDG_CONFIG_HOME'] as const;

function sizeOf(path: string): number {
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) return 0;
  if (!st.isDirectory()) return st.size;
  return readdirSync(path).reduce((n, e) => n + sizeOf(join(path, e)), 0);
}

export function setup(): () => void {
  const outer = Object.fromEntries(isolated.map((k) => [k, process.env[k]]));
  const run = mkdtempSync(join(tmpdir(), 'capiform-vitest-'));
  const home = join(run, 'home');
  mkdirSync(home);
  process.env.TMPDIR = run;
  process.env.HOME = home;
  delete process.env.XDG_CACHE_HOME;
  delete process.env.XDG_CONFIG_HOME;
  return () => {
    for (const k of isolated) {
      if (outer[k] === undefined) delete process.env[k];
      else process.env[k] = outer[k];
    }
    const left = readdirSync(run)
      .filter((e) => e !== 'home')
      .sort();
    const bytes = left.reduce((n, e) => n + sizeOf(join(run, e)), 0);
    rmSync(run, { recursive: true, force: true });
    if (left.length === 0) return;
    const shown = left.slice(0, 20).join(', ') + (left.length > 20 ? `, … (${left.length - 20} more)` : '');
    // A throw here is printed but leaves the exit code at 0, so the failure is set explicitly.
    process.exitCode = 1;
    console.error(
      `\ntmpdir guard: the tests left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} (${bytes} bytes) in the temporary folder: ${shown}. ` +
        'Make each with tempDir()/testdir() from test/helpers/testdir.ts, or remove it in afterEach/afterAll.\n',
    );
  };
}

/**
 * `npm test` leaves the temporary folder as it found it. The run gets a folder of its own inside TMPDIR (so other
 * programs using TMPDIR at the same time cannot be mistaken for leaks); workers and the processes tests start inherit
 * it. Anything left in it when the run ends is listed and fails the run, then removed.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function sizeOf(path: string): number {
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) return 0;
  if (!st.isDirectory()) return st.size;
  return readdirSync(path).reduce((n, e) => n + sizeOf(join(path, e)), 0);
}

export function setup(): () => void {
  const outer = process.env.TMPDIR;
  const run = mkdtempSync(join(tmpdir(), 'capiform-vitest-'));
  process.env.TMPDIR = run;
  return () => {
    if (outer === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = outer;
    const left = readdirSync(run).sort();
    const bytes = sizeOf(run);
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

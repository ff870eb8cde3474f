/**
 * Runs this package's own CLI (bin/capiform.js beside the action's code) as the user would, in the project's folder,
 * and captures what it printed. The child gets the job's environment without the action's inputs, so the token given
 * to the action never reaches code a pull request controls (the config is a program).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { InputError } from '../errors.js';

export interface CliRun {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Output kept per stream: a review is bounded by `--max-size`, an error by its nature. */
const maxOutput = 16 * 1024 * 1024;

function launcher(): string {
  // dist/cli-bundle/action.js (the bundle) and dist/action/*.js (tsc) both sit two folders below the package root.
  for (const rel of ['../../bin/capiform.js', '../../../bin/capiform.js']) {
    const p = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(p)) return p;
  }
  throw new InputError('cannot find bin/capiform.js beside the action', { hint: 'install capiform (npm ci) before the action runs' });
}

export function childEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (!k.startsWith('INPUT_')) out[k] = v;
  out.NO_COLOR = '1';
  return out;
}

export function runCapiform(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [launcher(), ...args], { cwd, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    child.stdout.on('data', (b: Buffer) => {
      if ((outBytes += b.length) <= maxOutput) out.push(b);
    });
    child.stderr.on('data', (b: Buffer) => {
      if ((errBytes += b.length) <= maxOutput) err.push(b);
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      resolve({ exitCode: code ?? (signal ? 4 : 0), stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

/** Runs `git` in `cwd`; the exit code and output are the caller's to judge. */
export function runGit(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd, env: { ...childEnv(env), GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' }, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => resolve({ exitCode: code ?? 4, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
  });
}

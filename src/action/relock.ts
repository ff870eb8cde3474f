/**
 * `mode: relock`: on a bot's branch (Renovate edits only the config's version ranges), run `capiform lock` (entries
 * whose range still holds their locked release keep it; the edited ones are resolved again) and `capiform render`,
 * and commit the result back to the branch. Never for a fork's pull request: its code would run with a token that
 * can push.
 */
import { ConfigError } from '../errors.js';
import { isFleetLock, parseLockFile } from '../lock/index.js';
import { runCapiform, runGit, type CliRun } from './cli.js';
import { isFork, type EventInfo } from './event.js';
import type { Runner } from './runner.js';

export interface RelockSettings {
  cwd: string;
  /** Branch patterns the job may commit to (`renovate/**`): `*` within a path segment, `**` across them. */
  branches: readonly string[];
  /** Actors whose branches are re-locked whatever their name. */
  actors: readonly string[];
  gitUser: { name: string; email: string };
}

export const defaultRelockBranches = ['renovate/**'];
export const defaultRelockActors = ['renovate[bot]'];

export function branchMatches(branch: string, pattern: string): boolean {
  const re = pattern
    .split(/(\*\*|\*)/)
    .map((part) => (part === '**' ? '.*' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${re}$`).test(branch);
}

function failed(what: string, r: CliRun, runner: Runner): never {
  const said = runner.text(r.stderr).trim().split('\n').map((l) => l.trim()).filter((l) => l !== '').join(' ');
  throw new ConfigError(`${what} exited ${r.exitCode}: ${said.length > 800 ? `${said.slice(0, 800)}…` : said}`, {
    hint: 'run it on the branch locally to see why; the branch was left as it was',
  });
}

export async function relockMode(runner: Runner, event: EventInfo, s: RelockSettings): Promise<number> {
  const env = runner.io.env;
  const pr = event.pullRequest;
  if (pr && isFork(pr)) {
    runner.error(
      `refusing to re-lock ${pr.headRepo}:${pr.headRef}: it is a fork's pull request, and re-locking runs the branch's config with a token that can push to ${pr.baseRepo}. Re-lock it on a branch of this repository instead.`,
      'capiform relock',
    );
    runner.output('committed', 'false');
    return 2;
  }
  const branch = pr ? pr.headRef : env.GITHUB_HEAD_REF || env.GITHUB_REF_NAME || '';
  const byBranch = s.branches.some((p) => branchMatches(branch, p));
  const byActor = s.actors.includes(event.actor);
  if (branch === '' || (!byBranch && !byActor)) {
    runner.log(`not re-locking ${branch || 'this ref'}: neither a branch of ${s.branches.join(', ')} nor pushed by ${s.actors.join(', ')}`);
    runner.output('committed', 'false');
    return 0;
  }

  const before = await runGit(['rev-parse', 'HEAD:capi.lock.yaml'], s.cwd, env);
  runner.group('capiform lock');
  const lock = await runCapiform(['lock'], s.cwd, env);
  runner.log(runner.text(lock.stdout + lock.stderr).replace(/\n$/, ''));
  runner.endGroup();
  if (lock.exitCode !== 0) failed('capiform lock', lock, runner);
  runner.group('capiform render');
  const render = await runCapiform(['render'], s.cwd, env);
  runner.log(runner.text(render.stdout + render.stderr).replace(/\n$/, ''));
  runner.endGroup();
  if (render.exitCode !== 0) failed('capiform render', render, runner);

  const add = await runGit(['add', '-A', '--', '.'], s.cwd, env);
  if (add.exitCode !== 0) failed('git add', add, runner);
  const staged = await runGit(['diff', '--cached', '--quiet'], s.cwd, env);
  if (staged.exitCode === 0) {
    runner.log(`nothing to re-lock: capi.lock.yaml and the tree of ${branch} already match the config`);
    runner.output('committed', 'false');
    return 0;
  }
  const moved = await relockedEntries(s.cwd, env, before.exitCode === 0);
  const subject = moved.length > 0 ? `capiform: re-lock ${moved.join(', ')} and render` : 'capiform: re-lock and render';
  const message = `${subject}\n\nThe config on ${branch} changed; \`capiform lock\` resolved the entries it changed (the others stay pinned) and \`capiform render\` wrote the tree.\n`;
  // The variables win over any git config, the runner's included.
  const author = { GIT_AUTHOR_NAME: s.gitUser.name, GIT_AUTHOR_EMAIL: s.gitUser.email, GIT_COMMITTER_NAME: s.gitUser.name, GIT_COMMITTER_EMAIL: s.gitUser.email };
  const commit = await runGit(['commit', '--quiet', '--no-verify', '-m', message], s.cwd, { ...env, ...author });
  if (commit.exitCode !== 0) failed('git commit', commit, runner);
  const push = await runGit(['push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`], s.cwd, env);
  if (push.exitCode !== 0) {
    throw new ConfigError(`git push to ${branch} failed: ${runner.text(push.stderr).trim().split('\n').slice(-3).join(' / ')}`, {
      hint: 'the job needs `permissions: contents: write` and actions/checkout with its credentials kept (persist-credentials, the default)',
    });
  }
  const sha = (await runGit(['rev-parse', 'HEAD'], s.cwd, env)).stdout.trim();
  runner.log(`committed ${sha.slice(0, 12)} to ${branch}: ${subject}`);
  runner.output('committed', 'true');
  runner.output('commit', sha);
  return 0;
}

/** `label old → new` for every entry whose locked version the commit changes (per target in a fleet). */
async function relockedEntries(cwd: string, env: NodeJS.ProcessEnv, hadLock: boolean): Promise<string[]> {
  const versions = (text: string, where: string): Map<string, string> => {
    const out = new Map<string, string>();
    const file = parseLockFile(text, where);
    const sections = isFleetLock(file) ? [...file.targets].map(([n, l]) => [`${n}: `, l] as const) : [['', file] as const];
    for (const [at, l] of sections) {
      for (const p of l.providers) out.set(`${at}${p.label}`, p.version);
      if (l.certManager) out.set(`${at}cert-manager`, l.certManager.version);
    }
    return out;
  };
  const now = await runGit(['show', ':capi.lock.yaml'], cwd, env);
  if (now.exitCode !== 0) return [];
  try {
    const after = versions(now.stdout, 'capi.lock.yaml');
    if (!hadLock) return [...after].map(([k, v]) => `${k} ${v}`).slice(0, 8);
    const before = versions((await runGit(['show', 'HEAD:capi.lock.yaml'], cwd, env)).stdout, 'HEAD:capi.lock.yaml');
    const moved = [...after].filter(([k, v]) => before.get(k) !== v).map(([k, v]) => `${k} ${before.get(k) ?? '(new)'} → ${v}`);
    return moved.length > 8 ? [...moved.slice(0, 8), `${moved.length - 8} more`] : moved;
  } catch {
    // The branch's old lock may be anything a bot or a person wrote; the message then just says "re-lock".
    return [];
  }
}

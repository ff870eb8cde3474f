/**
 * `mode: review` (the default): check, then review, then comment, in that order whatever the check said, so a red
 * check still gets its review and the fixing command; the step fails at the end when a check failed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isCapiformError } from '../errors.js';
import { commentBody, type CheckOutcome } from './body.js';
import { runCapiform } from './cli.js';
import { postComment } from './post.js';
import type { EventInfo } from './event.js';
import type { Runner } from './runner.js';

/** Room the check's section may take beside the review in one comment. */
const reviewMaxSize = 56_000;

export interface ReviewSettings {
  cwd: string;
  token: string;
  check: boolean;
  validate: boolean;
  review: boolean;
  comment: boolean;
  /** `--base` for the review; default `origin/<the PR's base branch>`. */
  base: string;
}

export function summaryUrl(env: NodeJS.ProcessEnv): string | undefined {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: run } = env;
  if (!server || !repo || !run || !/^\d+$/.test(run)) return undefined;
  const attempt = env.GITHUB_RUN_ATTEMPT && /^\d+$/.test(env.GITHUB_RUN_ATTEMPT) ? `/attempts/${env.GITHUB_RUN_ATTEMPT}` : '';
  return `${server.replace(/\/+$/, '')}/${repo}/actions/runs/${run}${attempt}`;
}

export async function reviewMode(runner: Runner, event: EventInfo, s: ReviewSettings): Promise<number> {
  const env = runner.io.env;
  const checks: CheckOutcome[] = [];
  const commands: [boolean, string[]][] = [
    [s.check, ['render', '--check', '--frozen']],
    [s.validate, ['validate']],
  ];
  for (const [on, args] of commands) {
    if (!on) continue;
    runner.group(`capiform ${args.join(' ')}`);
    const r = await runCapiform(args, s.cwd, env);
    const output = runner.text(`${r.stdout}${r.stderr}`);
    if (output) runner.log(output.replace(/\n$/, ''));
    runner.endGroup();
    checks.push({ command: args.join(' '), exitCode: r.exitCode, output });
    if (r.exitCode !== 0) runner.error(`capiform ${args.join(' ')} exited ${r.exitCode}: run \`npx capiform lock && npx capiform render\` and commit the result`, 'capiform check');
  }
  const failedCheck = checks.find((c) => c.exitCode !== 0);
  runner.output('check', failedCheck ? 'failed' : 'passed');

  const pr = event.pullRequest;
  let exitCode = failedCheck?.exitCode ?? 0;
  if (!s.review || !pr) {
    if (s.review && !pr) runner.log(`no review: the ${event.name || 'current'} event is not a pull request`);
    return exitCode;
  }

  const base = s.base || `origin/${pr.baseRef}`;
  runner.group(`capiform diff --base ${base} --format markdown`);
  const diff = await runCapiform(['diff', '--base', base, '--format', 'markdown', '--max-size', String(reviewMaxSize)], s.cwd, env);
  runner.log(runner.text(diff.stderr).replace(/\n$/, ''));
  runner.endGroup();
  let review: string;
  if (diff.exitCode === 0 || diff.exitCode === 1) review = runner.text(diff.stdout);
  else {
    review = ['#### capiform diff failed', '', `\`capiform diff --base ${base}\` exited ${diff.exitCode}:`, '', '```text', runner.text(diff.stderr).trim().slice(0, 4000), '```', ''].join('\n');
    runner.error(`capiform diff exited ${diff.exitCode}`, 'capiform review');
    exitCode ||= diff.exitCode;
  }

  const { body, cut } = commentBody(review, checks, summaryUrl(env));
  // The summary holds the whole review: the comment's cut note points here.
  const full = commentBody(review, checks, undefined, Number.MAX_SAFE_INTEGER).body;
  runner.summary(`${full}\n`);
  const dir = env.RUNNER_TEMP || s.cwd;
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'capiform-review.md');
  writeFileSync(file, body);
  // The PR number travels with the review: a workflow_run job for a fork's PR cannot learn it otherwise.
  writeFileSync(join(dir, 'capiform-review.json'), `${JSON.stringify({ pullRequest: pr.number, cut }, null, 2)}\n`);
  runner.output('review-file', file);
  runner.output('pull-request', String(pr.number));
  if (cut) runner.warning('the review is longer than a GitHub comment: the comment is cut, the job summary has all of it');

  if (s.comment) {
    try {
      // A read-only token comes back as 'forbidden' with a warning: the review is in the summary, and a fork's
      // author cannot fix the token, so the step's result stays the check's.
      await postComment(runner, event, pr.number, body, s.token);
    } catch (err) {
      if (!isCapiformError(err)) throw err;
      runner.error(`${err.message}${err.hint ? ` (${err.hint})` : ''}`, 'capiform comment');
      exitCode ||= err.exitCode;
    }
  }
  return exitCode;
}

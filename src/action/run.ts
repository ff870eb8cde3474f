/**
 * The Action (action.yml): reads its inputs and the event, masks the token, and runs one mode. Every CapiformError
 * becomes an `::error::` annotation and its exit code; the token is never printed.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { ConfigError, isCapiformError } from '../errors.js';
import { commentBody } from './body.js';
import { commentMarker } from './comments.js';
import { readEvent, type EventInfo } from './event.js';
import { checkPullRequestHead, postComment } from './post.js';
import { defaultRelockActors, defaultRelockBranches, relockMode } from './relock.js';
import { reviewMode } from './review.js';
import { Runner, type RunnerIO } from './runner.js';

export const actionModes = ['review', 'comment', 'relock'] as const;

function list(value: string, fallback: readonly string[]): string[] {
  const items = value.split(/[\n,]/).map((x) => x.trim()).filter((x) => x !== '');
  return items.length > 0 ? items : [...fallback];
}

export async function runAction(io: RunnerIO): Promise<number> {
  const runner = new Runner(io);
  try {
    const token = runner.input('github-token');
    runner.mask(token);
    const mode = runner.input('mode', 'review');
    if (!(actionModes as readonly string[]).includes(mode)) {
      throw new ConfigError(`mode "${mode}" is not one of ${actionModes.join(', ')}`, { where: 'with.mode', hint: 'leave mode unset for the review' });
    }
    const workspace = io.env.GITHUB_WORKSPACE || process.cwd();
    const wd = runner.input('working-directory', '.');
    const cwd = isAbsolute(wd) ? wd : resolve(workspace, wd);
    const event = readEvent(io.env);
    if (mode === 'relock') {
      return await relockMode(runner, event, {
        cwd,
        branches: list(runner.input('relock-branches'), defaultRelockBranches),
        actors: list(runner.input('relock-actors'), defaultRelockActors),
        gitUser: { name: runner.input('git-user-name', 'capiform[bot]'), email: runner.input('git-user-email', 'capiform[bot]@users.noreply.github.com') },
      });
    }
    if (mode === 'comment') return await commentMode(runner, event, cwd, token);
    return await reviewMode(runner, event, {
      cwd,
      token,
      check: runner.flag('check', true),
      validate: runner.flag('validate', true),
      review: runner.flag('review', true),
      comment: runner.flag('comment', true),
      base: runner.input('base'),
    });
  } catch (err) {
    if (!isCapiformError(err)) throw err;
    runner.error(`${err.message}${err.where ? ` (at ${err.where})` : ''}${err.hint ? `. Fix: ${err.hint}` : ''}`, 'capiform');
    return err.exitCode;
  }
}

/** Largest review file `mode: comment` reads: what `mode: review` writes is bounded far below it. */
const maxReviewFileBytes = 1024 * 1024;

function readBounded(file: string, what: string): string {
  try {
    if (statSync(file).size > maxReviewFileBytes) throw new ConfigError(`${file} is larger than ${maxReviewFileBytes} bytes: not ${what} capiform wrote`, { where: 'with.review-file' });
    return readFileSync(file, 'utf8');
  } catch (err) {
    if (isCapiformError(err)) throw err;
    throw new ConfigError(`cannot read ${what} ${file}: ${(err as Error).message}`, { where: 'with.review-file', hint: "download the review job's artifact first (actions/download-artifact)" });
  }
}

/**
 * `mode: comment`, for the workflow_run job of the fork pattern: posts the review file another job wrote. The file
 * and the PR number beside it come from a fork's run, so both are untrusted: the number must be a number, and the
 * pull request must be the one whose head the reviewed run built (the workflow_run event's `head_sha`, which GitHub
 * sets); the body is bounded and must be a capiform review.
 */
async function commentMode(runner: Runner, event: EventInfo, cwd: string, token: string): Promise<number> {
  const file = resolve(cwd, runner.input('review-file', 'capiform-review.md'));
  let number = runner.input('pull-request');
  if (number === '') {
    const sidecar = join(dirname(file), 'capiform-review.json');
    let parsed: unknown;
    try {
      parsed = JSON.parse(readBounded(sidecar, 'the review\'s pull request number'));
    } catch (err) {
      if (isCapiformError(err)) throw err;
      throw new ConfigError(`${sidecar} is not JSON`, { where: 'with.pull-request' });
    }
    const n = (parsed as { pullRequest?: unknown } | null)?.pullRequest;
    number = typeof n === 'number' ? String(n) : JSON.stringify(n ?? null);
  }
  if (!/^[1-9][0-9]{0,9}$/.test(number)) {
    throw new ConfigError(`pull-request is "${number.slice(0, 40)}", not a pull request number`, { where: 'with.pull-request', hint: 'pass the number the review job saved beside the review (capiform-review.json)' });
  }
  const text = readBounded(file, 'the review');
  if (!text.startsWith(commentMarker)) {
    throw new ConfigError(`${file} does not start with ${commentMarker}: not a review capiform wrote`, { where: 'with.review-file' });
  }
  if (event.workflowRun) await checkPullRequestHead(runner, event, Number(number), event.workflowRun.headSha, token);
  const { body } = commentBody(text, [], undefined);
  await postComment(runner, { ...event, pullRequest: undefined }, Number(number), body, token);
  return 0;
}

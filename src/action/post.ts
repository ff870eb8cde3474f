/**
 * Posting the review: the sticky comment through the API, and what a read-only token (a fork's, Dependabot's) gets
 * instead of a failure: a warning that names the workflow_run pattern.
 */
import { ConfigError } from '../errors.js';
import { loadRemote } from '../resolve/index.js';
import { CommentForbidden, commentClient, pullRequestHead, upsertStickyComment } from './comments.js';
import { isFork, type EventInfo } from './event.js';
import type { Runner } from './runner.js';

export const workflowRunHint =
  'a pull request from a fork (or from Dependabot) gets a read-only token: review it in the pull_request workflow, upload the review as an artifact, and post it from a workflow_run workflow with `pull-requests: write` (mode: comment); see docs/github-action.md, "Pull requests from forks"';

async function client(runner: Runner, token: string): Promise<ReturnType<typeof commentClient>> {
  if (token === '') {
    throw new ConfigError('no token to comment with', { where: 'with.github-token', hint: 'pass github-token: ${{ github.token }} (the default), or set comment: false' });
  }
  const { checkApiBaseUrl, proxyFetch } = await loadRemote();
  const baseUrl = runner.io.env.GITHUB_API_URL || 'https://api.github.com';
  checkApiBaseUrl('GITHUB_API_URL', baseUrl);
  return commentClient({ baseUrl, token, fetch: proxyFetch(runner.io.env) });
}

/** Refuses to post on a pull request whose head is not the commit the reviewed run built (a forged number). */
export async function checkPullRequestHead(runner: Runner, event: EventInfo, number: number, headSha: string, token: string): Promise<void> {
  const octokit = await client(runner, token);
  let head: string;
  try {
    head = await pullRequestHead(octokit, { ...event.repository, issueNumber: number });
  } catch (err) {
    if (!(err instanceof CommentForbidden)) throw err;
    throw new ConfigError(err.message, { where: 'with.pull-request', hint: 'the number must be a pull request of this repository, and the job needs `permissions: pull-requests: write`' });
  }
  if (head !== headSha) {
    throw new ConfigError(`pull request #${number} is at ${head.slice(0, 12)}, not at ${headSha.slice(0, 12)}, the commit the reviewed run built: the review is not posted`, {
      where: 'with.pull-request',
      hint: 'the artifact names another pull request than the one its run reviewed (or the PR moved on; its newer run posts its own review)',
    });
  }
}

export async function postComment(runner: Runner, event: EventInfo, issueNumber: number, body: string, token: string): Promise<'posted' | 'forbidden'> {
  const octokit = await client(runner, token);
  const target = { ...event.repository, issueNumber };
  try {
    const posted = await upsertStickyComment(octokit, target, body);
    runner.log(`${posted.action} the review comment ${posted.url}`);
    runner.output('comment-id', String(posted.id));
    runner.output('comment-url', posted.url);
    return 'posted';
  } catch (err) {
    if (!(err instanceof CommentForbidden)) throw err;
    const pr = event.pullRequest;
    const readOnly = (pr !== undefined && isFork(pr)) || event.actor === 'dependabot[bot]';
    if (readOnly) {
      runner.warning(`${err.message}: the review was not posted as a comment (it is in the job summary). ${workflowRunHint}`, 'capiform comment');
      runner.output('comment-id', '');
      return 'forbidden';
    }
    throw new ConfigError(`${err.message}: the job's token may not comment on this pull request`, {
      where: 'permissions',
      hint: `give the job \`permissions: pull-requests: write\`; ${workflowRunHint}`,
    });
  }
}

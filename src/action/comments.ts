/**
 * The pull request's sticky comment, through GitHub's issue-comment API (octokit): the one comment whose body starts
 * with the review's marker is found (every page of the list, following `Link` headers) and edited in place; without
 * one, a comment is created. The token goes only to the API base, over https (plain http only to a loopback host,
 * and then without the token, as every capiform client does).
 */
import { Octokit } from '@octokit/rest';
import { NetworkError } from '../errors.js';

/** The first line of every review comment capiform posts (src/plan/diff/templates/comment.hbs). */
export const commentMarker = '<!-- capiform-diff -->';

/** Pages of 100 comments read at most while looking for the sticky one: a PR with more is not a normal PR. */
export const maxCommentPages = 50;

export interface CommentTarget {
  owner: string;
  repo: string;
  issueNumber: number;
}

export interface PostedComment {
  id: number;
  url: string;
  action: 'created' | 'updated';
}

/** A 401/403/404 from the API: the token may not write comments (a fork's or Dependabot's read-only token). */
export class CommentForbidden extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function commentClient(opts: { baseUrl: string; token: string; fetch?: typeof fetch | undefined }): Octokit {
  const base = opts.fetch ?? globalThis.fetch.bind(globalThis);
  // Never send the token in plain text (the base URL was checked: http means a loopback host).
  const send: typeof fetch = (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith('http:')) return base(input, init);
    const headers = new Headers(init?.headers);
    headers.delete('authorization');
    return base(input, { ...init, headers });
  };
  return new Octokit({
    auth: opts.token,
    baseUrl: opts.baseUrl.replace(/\/+$/, ''),
    userAgent: 'capiform-action',
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    request: { fetch: send },
  });
}

function failure(err: unknown, what: string): Error {
  const e = err as { status?: unknown; message?: unknown };
  const status = typeof e.status === 'number' ? e.status : undefined;
  // octokit appends ` - <documentation_url>` to GitHub's message: the message alone says it.
  const detail = typeof e.message === 'string' ? (e.message.split('\n')[0] ?? '').replace(/ - https:\/\/\S+$/, '') : String(err);
  if (status === 401 || status === 403 || status === 404) return new CommentForbidden(status, `${what}: ${status} ${detail}`);
  return new NetworkError(`${what}: ${status !== undefined ? `${status} ` : ''}${detail}`, {
    hint: 'check GITHUB_API_URL and the runner\'s network; the review is in the job summary either way',
  });
}

/** The sticky comment's id, or undefined. */
export async function findStickyComment(octokit: Octokit, t: CommentTarget): Promise<number | undefined> {
  let pages = 0;
  try {
    for await (const page of octokit.paginate.iterator(octokit.rest.issues.listComments, { owner: t.owner, repo: t.repo, issue_number: t.issueNumber, per_page: 100 })) {
      for (const c of page.data) if (typeof c.body === 'string' && c.body.startsWith(commentMarker)) return c.id;
      if (++pages >= maxCommentPages) return undefined;
    }
  } catch (err) {
    throw failure(err, `cannot list the comments of #${t.issueNumber} in ${t.owner}/${t.repo}`);
  }
  return undefined;
}

/** Creates the sticky comment, or edits it in place when one exists. */
export async function upsertStickyComment(octokit: Octokit, t: CommentTarget, body: string): Promise<PostedComment> {
  const id = await findStickyComment(octokit, t);
  try {
    if (id !== undefined) {
      const r = await octokit.rest.issues.updateComment({ owner: t.owner, repo: t.repo, comment_id: id, body });
      return { id: r.data.id, url: r.data.html_url, action: 'updated' };
    }
    const r = await octokit.rest.issues.createComment({ owner: t.owner, repo: t.repo, issue_number: t.issueNumber, body });
    return { id: r.data.id, url: r.data.html_url, action: 'created' };
  } catch (err) {
    throw failure(err, `cannot ${id !== undefined ? `update comment ${id}` : 'comment'} on #${t.issueNumber} in ${t.owner}/${t.repo}`);
  }
}

/** The head commit of pull request `t.issueNumber`. */
export async function pullRequestHead(octokit: Octokit, t: CommentTarget): Promise<string> {
  try {
    const r = await octokit.rest.pulls.get({ owner: t.owner, repo: t.repo, pull_number: t.issueNumber });
    return r.data.head.sha;
  } catch (err) {
    throw failure(err, `cannot read pull request #${t.issueNumber} of ${t.owner}/${t.repo}`);
  }
}

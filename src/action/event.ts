/**
 * The event that started the job, read from `GITHUB_EVENT_PATH` (bounded: a payload is a few kB; GitHub caps it
 * far below the limit here), and what the action needs of it.
 */
import { readFileSync, statSync } from 'node:fs';
import { InputError } from '../errors.js';

const maxEventBytes = 4 * 1024 * 1024;

export interface PullRequestInfo {
  number: number;
  baseRef: string;
  headRef: string;
  /** `owner/repo` of the branch the PR comes from, and of the one it goes to: a fork when they differ. */
  headRepo: string | undefined;
  baseRepo: string | undefined;
}

export interface EventInfo {
  name: string;
  actor: string;
  repository: { owner: string; repo: string };
  pullRequest: PullRequestInfo | undefined;
  /** A workflow_run event: the run whose artifact is posted, as GitHub describes it (trusted, unlike the artifact). */
  workflowRun: { headSha: string } | undefined;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function readEvent(env: NodeJS.ProcessEnv): EventInfo {
  const full = env.GITHUB_REPOSITORY ?? '';
  const m = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/.exec(full);
  if (!m) {
    throw new InputError(`GITHUB_REPOSITORY is "${full}", not owner/repo`, { where: 'GITHUB_REPOSITORY', hint: 'run the action in a GitHub Actions job, which sets it' });
  }
  let payload: Record<string, unknown> = {};
  const path = env.GITHUB_EVENT_PATH;
  if (path) {
    let text: string;
    try {
      if (statSync(path).size > maxEventBytes) throw new InputError(`the event payload ${path} is larger than ${maxEventBytes} bytes`, { where: path });
      text = readFileSync(path, 'utf8');
    } catch (err) {
      if (err instanceof InputError) throw err;
      throw new InputError(`cannot read the event payload ${path}: ${(err as Error).message}`, { where: 'GITHUB_EVENT_PATH' });
    }
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed !== null && typeof parsed === 'object') payload = parsed as Record<string, unknown>;
    } catch {
      throw new InputError(`the event payload ${path} is not JSON`, { where: 'GITHUB_EVENT_PATH' });
    }
  }
  const pr = payload.pull_request as Record<string, unknown> | undefined;
  let pullRequest: PullRequestInfo | undefined;
  if (pr && typeof pr === 'object' && typeof pr.number === 'number') {
    const base = (pr.base ?? {}) as Record<string, unknown>;
    const head = (pr.head ?? {}) as Record<string, unknown>;
    const repoName = (side: Record<string, unknown>) => str(((side.repo ?? {}) as Record<string, unknown>).full_name);
    pullRequest = { number: pr.number, baseRef: str(base.ref) ?? '', headRef: str(head.ref) ?? '', headRepo: repoName(head), baseRepo: repoName(base) };
  }
  const run = payload.workflow_run as Record<string, unknown> | undefined;
  const headSha = run && typeof run === 'object' ? str(run.head_sha) : undefined;
  return {
    name: env.GITHUB_EVENT_NAME ?? '',
    workflowRun: headSha !== undefined ? { headSha } : undefined,
    actor: env.GITHUB_ACTOR ?? '',
    repository: { owner: m[1]!, repo: m[2]! },
    pullRequest,
  };
}

/** A pull request from another repository: GitHub gives its `pull_request` jobs a read-only token. */
export function isFork(pr: PullRequestInfo): boolean {
  return pr.headRepo !== undefined && pr.baseRepo !== undefined && pr.headRepo !== pr.baseRepo;
}

/**
 * The GitHub Actions workflow in docs/diff.md: it parses, it has what posting a comment needs, and its `capiform diff`
 * command line runs (with the base ref GitHub would fill in).
 */
import { expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseYamlValue as parse } from '../src/yaml/index.js';
import { runCli } from './helpers/cli.js';
import { clusterFiles, git, gitRepo, repoRoot } from './helpers/diff-fixtures.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a workflow is free-form YAML
type Workflow = Record<string, any>;

function readmeWorkflow(): { text: string; wf: Workflow } {
  const page = readFileSync(join(repoRoot, 'docs/diff.md'), 'utf8');
  const section = page.slice(page.indexOf('## Reviewing changes: capiform diff'));
  const m = /```yaml\n(name: capiform diff\n[\s\S]*?)```/.exec(section);
  if (!m?.[1]) throw new Error('no workflow in docs/diff.md');
  return { text: m[1], wf: parse(m[1]) as Workflow };
}

it('the workflow of docs/diff.md parses and posts the markdown diff on pull requests', async () => {
  const { wf } = readmeWorkflow();
  expect(Object.keys(wf.on)).toEqual(['pull_request']);
  expect(wf.permissions).toEqual({ contents: 'read', 'pull-requests': 'write' });
  const steps = wf.jobs.diff.steps as Workflow[];
  expect(steps[0]).toMatchObject({ uses: 'actions/checkout@v4', with: { 'fetch-depth': 0 } });
  const diffStep = steps.find((s) => typeof s.run === 'string' && s.run.includes('capiform diff'));
  expect(diffStep?.run).toBe('npx capiform diff --base origin/${{ github.base_ref }} --format markdown --json-out diff.json > diff.md');
  const comment = steps.find((s) => typeof s.run === 'string' && s.run.includes('gh pr comment'));
  expect(comment?.run).toContain('--body-file diff.md --edit-last ||');
  expect(comment?.env.GH_TOKEN).toBe('${{ github.token }}');

  // The same command line, as GitHub would run it after fetching the base branch.
  const repo = gitRepo(clusterFiles({ namespace: 'team-b', name: 'prod-1' }));
  git(repo, 'update-ref', 'refs/remotes/origin/main', 'HEAD');
  const argv = (diffStep?.run as string)
    .replace('${{ github.base_ref }}', 'main')
    .replace(/ > diff\.md$/, '')
    .split(' ')
    .slice(2);
  const r = await runCli(argv, { cwd: repo });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('<!-- capiform-diff -->');
  expect(r.stdout).toContain('**no changes**');
  expect(readFileSync(join(repo, 'diff.json'), 'utf8')).toContain('"schemaVersion": 1');
});

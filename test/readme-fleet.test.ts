/**
 * docs/fleets.md ("Fleets: several management clusters") and docs/ci.md ("Sharded renders in CI") read as a user's manual: the fleet example
 * renders as written, the commands it lists work on it, the CI matrix runs the management clusters it declares, the
 * stale-lock error reads as shown, and the one-ApplicationSet variant renders too.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseYamlValue as parse } from '../src/yaml/index.js';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { testdir } from './helpers/pipeline-fixtures.js';

const repoRoot = join(import.meta.dirname, '..');
/** The text of section `heading` of docs/`page` (up to the next heading of the same or a higher level outside code blocks). */
function section(page: string, heading: string): string {
  const lines = readFileSync(join(repoRoot, 'docs', page), 'utf8').split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`no section ${heading} in docs/${page}`);
  const level = /^#+/.exec(heading)![0].length;
  let fenced = false;
  let end = start + 1;
  for (; end < lines.length; end++) {
    if (lines[end]!.startsWith('```')) fenced = !fenced;
    const m = /^(#+) /.exec(lines[end]!);
    if (!fenced && m && m[1]!.length <= level) break;
  }
  return lines.slice(start + 1, end).join('\n');
}

function block(text: string, lang: string, n = 0): string {
  const blocks = [...text.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]!);
  if (blocks[n] === undefined) throw new Error(`no ${lang} block #${n}`);
  return blocks[n];
}

const fleets = section('fleets.md', '## Fleets: several management clusters');
/** The example as written, without its `capiform` import (it resolves in a user's project, not in a temp folder). */
const example = block(fleets, 'ts')
  .replace("import { defineConfig } from 'capiform';\n", '')
  .replace('export default defineConfig(', 'export default (');

/** A project holding the example config and the example provider repository it names. */
function exampleProject(config = example): string {
  const dir = testdir({ 'capi.config.ts': config });
  cpSync(join(repoRoot, 'examples/repository'), join(dir, 'examples/repository'), { recursive: true });
  return dir;
}

function git(dir: string, ...args: string[]): void {
  const r = spawnSync('git', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' } });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

describe('docs/fleets.md: Fleets: several management clusters', { timeout: 240_000 }, () => {
  it('the example renders as written, and the commands of "The example, end to end" work on it', async () => {
    const dir = exampleProject();
    const commands = block(fleets, 'sh', 1)
      .split('\n')
      .filter((l) => l.startsWith('npx capiform '))
      .map((l) => l.replace(/\s+#.*$/, '').replace('npx capiform ', '').split(/\s+/));
    expect(commands.map((c) => c[0])).toEqual(['lock', 'render', 'render', 'render', 'diff']);
    for (const args of commands) {
      if (args[0] === 'diff') {
        git(dir, 'init', '-q');
        git(dir, 'add', '-A');
        git(dir, 'commit', '-qm', 'render');
      }
      const r = await runCli(args, { cwd: dir });
      expect(r.stderr, args.join(' ')).toBe('');
      expect(r.code, args.join(' ')).toBe(0);
      if (args[0] === 'lock') expect(r.stdout).toContain('us-east: infrastructure-docker v1.13.1');
    }
    expect(existsSync(join(dir, 'targets/eu-west/clusters/team-a/dev-1/cluster.yaml'))).toBe(true);
    expect(existsSync(join(dir, 'targets/us-east/argocd/root.yaml'))).toBe(true);
  });

  it('the one-ApplicationSet variant renders one argocd/ for the fleet', async () => {
    const setting = block(section('fleets.md', '### One ApplicationSet for the fleet'), 'ts').trim();
    const config = example
      .replace(/ {2}argocd: \{ repoURL: [^\n]*\n/, `  ${setting}\n`)
      .replace(/ {6}argocd: \{ destination: [^\n]*\n/, '');
    expect(config).toContain("generator: 'clusters'");
    const dir = exampleProject(config);
    const r = await runCli(['render'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // One ApplicationSet per management cluster (docs/argocd-rollout.md: RollingSync's steps are global to one).
    expect(readFileSync(join(dir, 'argocd/apps/applicationset.yaml'), 'utf8')).toContain('  name: capi-fleet-eu-west\n');
    expect(existsSync(join(dir, 'targets/us-east/argocd'))).toBe(false);
  });
});

describe('docs/ci.md: Sharded renders in CI', { timeout: 240_000 }, () => {
  const sharded = section('ci.md', '### Sharded renders in CI');

  it('the workflow runs every management cluster of the fleet example × 4 shards', () => {
    const wf = parse(block(sharded, 'yaml')) as { jobs: { check: { strategy: { matrix: { target: string[]; shard: number[] } }; steps: { run?: string }[] } } };
    const { matrix } = wf.jobs.check.strategy;
    const names = [...example.matchAll(/^ {4}'([a-z0-9-]+)': \{$/gm)].map((m) => m[1]);
    expect(matrix.target).toEqual(names);
    expect(matrix.shard).toEqual([1, 2, 3, 4]);
    expect(wf.jobs.check.steps.at(-1)?.run).toBe('npx capiform render --check --frozen --target ${{ matrix.target }} --shard ${{ matrix.shard }}/4');
  });

  it('a shard other than 1 with a lock that would change fails as shown', async () => {
    const dir = exampleProject();
    expect((await runCli(['render'], { cwd: dir })).code).toBe(0);
    // Another management cluster: the fleet's lock needs a section it does not have.
    testdir({ 'capi.config.ts': example.replace("  managementClusters: {\n", "  managementClusters: {\n    'ap-south': { clusters: [] },\n") }, dir);
    const r = await runCli(['render', '--shard', '2/4'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(block(sharded, 'text'));
  });
});

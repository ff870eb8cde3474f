/**
 * Switching `templates.hashNames` on or off renames every machine template (`prod-1-md-0` ↔ `prod-1-md-0-<hash>`) and
 * moves the references with it: the diff reports each as a rename, not as a deletion plus an addition.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { clusterFiles, gitRepo, type Files } from './helpers/diff-fixtures.js';
import type { DiffReport } from '../src/plan/diff/index.js';

const cluster = (hashNames: boolean): Files => clusterFiles({ namespace: 'team-b', name: 'prod-1', hashNames });

async function diff(repo: string, format: 'json' | 'text'): Promise<string> {
  const r = await runCli(['diff', '--format', format], { cwd: repo, env: { PATH: process.env.PATH, HOME: repo } });
  expect(r.stderr).toBe('');
  return r.stdout;
}

describe('diff: template hash naming switched on or off is a rename', () => {
  it('on: every machine template is renamed to <name>-<hash>, with the same spec', async () => {
    const repo = gitRepo(cluster(false), cluster(true));
    const report = JSON.parse(await diff(repo, 'json')) as DiffReport;
    expect(report.counts).toMatchObject({ added: 0, removed: 0 });
    const renames = report.changes.filter((c) => c.action === 'rotated');
    expect(renames.map((c) => c.kind).sort()).toEqual(['DockerMachineTemplate', 'DockerMachineTemplate', 'KubeadmConfigTemplate']);
    for (const c of renames) {
      expect(c.renamedBy).toBe('hash-names-on');
      expect(c.name).toMatch(new RegExp(`^${c.previousName}-[0-9a-f]{10}$`));
      expect(c.fields).toEqual([]);
      expect(c.impacts[0]?.reason).toBe(`${c.kind} renamed ${c.previousName} → ${c.name} (template hash naming switched on; same spec)`);
    }
    const text = await diff(repo, 'text');
    expect(text).toMatch(/↻ DockerMachineTemplate team-b\/prod-1-md-0 → prod-1-md-0-[0-9a-f]{10}/);
    expect(text).toContain('0 added, 0 removed, 3 rotated');
  });

  it('off: the hashed names go back to the plain ones', async () => {
    const repo = gitRepo(cluster(true), cluster(false));
    const report = JSON.parse(await diff(repo, 'json')) as DiffReport;
    expect(report.counts).toMatchObject({ added: 0, removed: 0, rotated: 3 });
    for (const c of report.changes.filter((x) => x.action === 'rotated')) {
      expect(c.renamedBy).toBe('hash-names-off');
      expect(c.previousName).toMatch(new RegExp(`^${c.name}-[0-9a-f]{10}$`));
    }
  });
});

/**
 * Renovate itself reads the preset: `renovate-config-validator --strict` accepts it, and
 * `renovate --platform=local --dry-run=extract` finds in every config shape of test/helpers/renovate-shapes.ts the
 * dependencies docs/renovate.md promises (name, repository, current value, datasource, type). Extraction reads files
 * only; every proxy variable points at a closed port, so an attempted lookup fails at once instead of hanging.
 *
 * Renovate is not a dependency (about 500 MB, and it needs Node 24): scripts/install-renovate.sh installs it, and this
 * test runs it from `CAPIFORM_RENOVATE_DIR` or the script's default folder. Without it the test is skipped, naming the
 * script; under CAPIFORM_REQUIRE_SHARED=1 (CI) a missing install fails.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, shapes, type ExpectedDep } from './helpers/renovate-shapes.js';
import { testdir } from './helpers/testdir.js';

const script = readFileSync(join(repoRoot, 'scripts/install-renovate.sh'), 'utf8');
const pinned = (name: string): string => new RegExp(`^${name}=(\\S+)$`, 'm').exec(script)![1]!;
const defaultDir = join(userInfo().homedir, '.cache/capiform-test-tools', `renovate-${pinned('RENOVATE_VERSION')}-node-${pinned('NODE_VERSION')}`);
const toolDir = process.env.CAPIFORM_RENOVATE_DIR || defaultDir;
const installed = existsSync(join(toolDir, '.complete'));
if (!installed && process.env.CAPIFORM_REQUIRE_SHARED === '1') {
  throw new Error(`Renovate is not installed at ${toolDir}, and CAPIFORM_REQUIRE_SHARED=1 forbids skipping: run scripts/install-renovate.sh and set CAPIFORM_RENOVATE_DIR to the folder it prints`);
}
const skipped = installed ? '' : ` (skipped: no Renovate at ${toolDir}; run scripts/install-renovate.sh)`;

const node = join(toolDir, 'node_modules/.bin/node');
const renovateDist = join(toolDir, 'node_modules/renovate/dist');

/** A minimal environment: no token, no user config, every proxy at a closed port, Renovate's files in `dir`. */
function renovateEnv(dir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const closed = 'http://127.0.0.1:9';
  mkdirSync(join(dir, 'home'), { recursive: true });
  mkdirSync(join(dir, 'tmp'), { recursive: true });
  return {
    PATH: [dirname(node), dirname(process.execPath), '/usr/bin', '/bin'].join(':'),
    HOME: join(dir, 'home'),
    TMPDIR: join(dir, 'tmp'),
    RENOVATE_BASE_DIR: join(dir, 'renovate'),
    HTTP_PROXY: closed,
    HTTPS_PROXY: closed,
    http_proxy: closed,
    https_proxy: closed,
    NO_PROXY: '',
    LOG_LEVEL: 'error',
    ...extra,
  };
}

function git(cwd: string, ...args: string[]): void {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' } });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

interface ReportDep {
  depName: string;
  packageName: string;
  currentValue: string;
  datasource: string;
  depType: string;
}

describe.skipIf(!installed)(`Renovate ${pinned('RENOVATE_VERSION')} on the preset${skipped}`, { timeout: 300_000 }, () => {
  it('renovate-config-validator --strict accepts the preset as a repository config', () => {
    const dir = testdir({});
    const r = spawnSync(node, [join(renovateDist, 'config-validator.js'), '--strict', '--no-global', join(repoRoot, 'renovate/capiform.json')], {
      cwd: dir,
      encoding: 'utf8',
      env: renovateEnv(dir, { LOG_LEVEL: 'info' }),
      timeout: 240_000,
    });
    expect(r.stdout + r.stderr).toContain('Config validated successfully');
    expect(r.status).toBe(0);
  });

  it('renovate --platform=local --dry-run=extract finds every version of every config shape, offline', () => {
    const dir = testdir({});
    const repo = join(dir, 'repo');
    for (const s of shapes()) {
      mkdirSync(dirname(join(repo, s.path)), { recursive: true });
      writeFileSync(join(repo, s.path), s.content);
    }
    git(repo, 'init', '-q');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'config shapes');
    const { $schema: _s, description: _d, ...preset } = JSON.parse(readFileSync(join(repoRoot, 'renovate/capiform.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ ...preset, onboarding: false, requireConfig: 'optional' }));
    const report = join(dir, 'report.json');
    const r = spawnSync(node, [join(renovateDist, 'renovate.js'), '--platform=local', '--dry-run=extract'], {
      cwd: repo,
      encoding: 'utf8',
      env: renovateEnv(dir, { RENOVATE_CONFIG_FILE: join(dir, 'config.json'), RENOVATE_REPORT_TYPE: 'file', RENOVATE_REPORT_PATH: report }),
      timeout: 240_000,
    });
    expect(r.error).toBeUndefined();
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(readFileSync(report, 'utf8')) as { repositories: { local: { packageFiles: { regex?: { packageFile: string; deps: ReportDep[] }[] } } } };
    const byFile = new Map<string, ExpectedDep[]>();
    for (const pf of out.repositories.local.packageFiles.regex ?? []) {
      for (const d of pf.deps) {
        expect(d.datasource).toBe('github-releases');
        byFile.set(pf.packageFile, [...(byFile.get(pf.packageFile) ?? []), [d.depName, d.packageName, d.currentValue, d.depType]]);
      }
    }
    const sorted = (deps: ExpectedDep[] = []): string[] => deps.map((d) => d.join(' ')).sort();
    for (const s of shapes()) expect(sorted(byFile.get(s.path)), s.path).toEqual(sorted(s.deps));
  });
});

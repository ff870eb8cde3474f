/**
 * A PR's templates and patches are metered by what they cost, not by how many steps they take: each input below is
 * small, finishes within the steps a template may take, and without its bound hangs the runner or exhausts its
 * memory. Each stops with the bound's error (exit 3 where a command runs it), naming the bound's environment variable.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { setWorkBounds } from '../../src/go/index.js';
import { hermeticTxtFuncMap } from '../../src/go/sprig/index.js';
import { parseTemplate, withTemplateMeter } from '../../src/go/template/index.js';
import { validateCelRules, type JSONSchemaProps } from '../../src/apiextensions/index.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { repoRoot } from '../helpers/diff-fixtures.js';
import { snapshotDir } from '../helpers/dir-snapshot.js';
import { fixtureProject } from '../helpers/pipeline-fixtures.js';
import { tempDir, testdir } from '../helpers/testdir.js';

/** The template's output, or the error it stops with. */
function run(template: string): { out: string } | { err: Error } {
  try {
    return { out: parseTemplate('t', template, { funcs: hermeticTxtFuncMap() }).execute(new Map()) };
  } catch (err) {
    return { err: err as Error };
  }
}

function stopped(template: string): Error & { code?: string; exitCode?: number; envName?: string } {
  const r = run(template);
  if (!('err' in r)) throw new Error(`the template ran to the end (${r.out.length} bytes)`);
  return r.err;
}

afterEach(() => setWorkBounds());

describe('T5: no more than the documented CPU time and memory — template functions', { timeout: 60_000 }, () => {
  it('semverCompare with a constraint of 15 short items answers at once (linear matching, as Go)', () => {
    const constraint = `${Array(15).fill('1').join('   ')} !`;
    expect(run(`{{ semverCompare ${JSON.stringify(constraint)} "1.0.0" }}`)).toEqual({
      err: expect.objectContaining({ message: expect.stringContaining(`error calling semverCompare: improper constraint: ${constraint}`) }),
    });
    expect(run('{{ semverCompare ">= 1.2, < 1.4 || 2.x" "1.3.9" }} {{ semverCompare "1.2 - 1.4" "1.5.0" }}')).toEqual({ out: 'true false' });
  });

  it('3,000 derivePassword calls stop at the scrypt bound', () => {
    const err = stopped('{{ range 3000 }}{{ derivePassword 1 "long" "pw" "user" "example.com" }}{{ end }}');
    expect(err.message).toMatch(/^template: t:1:19: executing "t" at <derivePassword .*>: the template calls derivePassword \(scrypt\) more than 4 times, the bound of CAPIFORM_TEMPLATE_MAX_SCRYPT$/);
    expect(err).toMatchObject({ code: 'E_BOUND', exitCode: 3, envName: 'CAPIFORM_TEMPLATE_MAX_SCRYPT' });
  });

  it('3,000 sha256sum of a 9 MB string stop at the work bound', () => {
    const err = stopped('{{ $s := repeat 9000000 "a" }}{{ range 3000 }}{{ sha256sum $s }}{{ end }}');
    expect(err.message).toContain('at <sha256sum $s>: the template\'s functions handled more than 100000000 units of work');
    expect(err).toMatchObject({ code: 'E_BOUND', exitCode: 3, envName: 'CAPIFORM_TEMPLATE_MAX_WORK' });
  });

  it('200,000 appends to a growing list stop at the work bound (each copies the list)', () => {
    const err = stopped('{{ $l := list }}{{ range 200000 }}{{ $l = append $l 1 }}{{ end }}{{ len $l }}');
    expect(err.message).toContain('at <append $l 1>: the template\'s functions handled more than 100000000 units of work');
  });

  it('templates inside one meter share it: many cheap executions add up to the same bound', () => {
    setWorkBounds({ templateWork: 1000 });
    const tpl = parseTemplate('t', '{{ repeat 100 "a" }}', { funcs: hermeticTxtFuncMap() });
    expect(() => withTemplateMeter(() => Array.from({ length: 10 }, () => tpl.execute(new Map())))).toThrow(/more than 1000 units of work/);
    // Alone, each execution has a meter of its own.
    for (let i = 0; i < 10; i++) expect(tpl.execute(new Map())).toHaveLength(100);
  });
});

describe('T5: no more than the documented CPU time and memory — ClusterClass patches in plan topology', { timeout: 120_000 }, () => {
  it("a class's value template that hashes 9 MB 3,000 times stops at the work bound: exit 3 naming the Cluster and the patch", async () => {
    const dir = tempDir();
    for (const d of ['clusterclasses', 'clusters']) cpSync(join(repoRoot, d), join(dir, d), { recursive: true });
    const file = join(dir, 'clusterclasses/team-a/quick-start/clusterclass.yaml');
    const hostile = '{{ $s := repeat 9000000 "a" }}{{ range 3000 }}{{ sha256sum $s }}{{ end }}';
    writeFileSync(file, readFileSync(file, 'utf8').replace('kindest/node:{{ .builtin.controlPlane.version | replace "+" "_" }}', hostile));
    const before = snapshotDir(dir);
    const r = await runCli(['plan', 'topology'], { cwd: dir });
    expect(r.stderr).toMatch(/^Error: Cluster team-a\/dev-1: ClusterClass team-a\/quick-start: patch "customImage": template: .* at <sha256sum \$s>: the template's functions handled more than 100000000 units of work/);
    expect(r.stderr).toContain('raise the bound with CAPIFORM_TEMPLATE_MAX_WORK');
    expect(r.code).toBe(3);
    expect(snapshotDir(dir)).toEqual(before);
  });
});

describe('T5: no more than the documented CPU time and memory — patterns in CEL rules', { timeout: 60_000 }, () => {
  it("a class's rule with a backtracking-prone pattern answers at once (find and findAll match on Go's engine)", () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: { s: { type: 'string', maxLength: 100 } },
      'x-kubernetes-validations': [{ rule: "self.s.find('(a+)+$') == '' && self.s.findAll('(a|aa)+$', 2) == []" }],
    };
    expect(validateCelRules(schema, { s: `${'a'.repeat(40)}!` }, undefined, 'root', {})).toEqual([]);
    expect(validateCelRules(schema, { s: 'xaaa' }, undefined, 'root', {}).map((e) => e.message)).toHaveLength(1);
  });
});

const cluster = (patches: string): string =>
  `{ name: 'dev-1', namespace: 'team-a', infrastructure: 'docker', kubernetesVersion: 'v1.33.1', variables: { DOCKER_REGION: 'eu' }, patches: [${patches}] }`;

/** `capiform render` refused with `code`, no stack, and the project exactly as it was. */
async function renderRefused(dir: string, code: number, extraEnv: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const cache = tempDir('capiform-cache-');
  const before = snapshotDir(dir);
  const r = await runCli(['render'], { cwd: dir, env: { PATH: process.env.PATH, HOME: cache, CAPIFORM_CACHE_DIR: cache, ...extraEnv } });
  expect(r.stderr).toMatch(/^Error: /);
  expect(r.stderr).not.toMatch(/\n\s+at .*\(/);
  expect(r.code).toBe(code);
  expect(snapshotDir(dir)).toEqual(before);
  return r;
}

describe('T5: no more than the documented CPU time and memory — config patches', { timeout: 120_000 }, () => {
  it('a copy that doubles the Cluster 40 times stops at the size bound, naming the cluster and the patch (exit 3)', async () => {
    const copies = Array.from({ length: 40 }, (_, i) => `{ op: 'copy', from: '/spec', path: '/spec/x${i}' }`).join(', ');
    const dir = fixtureProject({ clusters: cluster(`{ target: { kind: 'Cluster' }, patch: [${copies}] }`) }, 'plain');
    const r = await renderRefused(dir, 3);
    expect(r.stderr).toContain('Error: cluster team-a/dev-1: clusters[0].patches[0] makes Cluster team-a/dev-1 larger than 8388608 bytes (the bound of CAPIFORM_PATCH_MAX_SIZE)');
    expect(r.stderr).toContain('raise the bound with CAPIFORM_PATCH_MAX_SIZE');
  });

  it('200,000 operations stop at the operations bound before one is applied', async () => {
    const dir = fixtureProject(
      { clusters: cluster(`{ target: { kind: 'Cluster' }, patch: Array.from({ length: 200000 }, (_, i) => ({ op: 'add', path: '/metadata/labels', value: { n: String(i) } })) }`) },
      'plain',
    );
    const r = await renderRefused(dir, 3);
    expect(r.stderr).toContain('Error: cluster team-a/dev-1: clusters[0].patches[0] brings the patch operations to apply to 200000, more than 10000 (the bound of CAPIFORM_PATCH_MAX_OPERATIONS)');
  });

  it('the bounds are configurable; a value that is not a number is a usage error naming the variable', async () => {
    const copies = Array.from({ length: 6 }, (_, i) => `{ op: 'copy', from: '/spec', path: '/spec/x${i}' }`).join(', ');
    const dir = fixtureProject({ clusters: cluster(`{ target: { kind: 'Cluster' }, patch: [${copies}] }`) }, 'plain');
    const small = await renderRefused(dir, 3, { CAPIFORM_PATCH_MAX_SIZE: '1KiB' });
    expect(small.stderr).toContain('larger than 1024 bytes (the bound of CAPIFORM_PATCH_MAX_SIZE)');
    const bad = await renderRefused(testdir({}), 2, { CAPIFORM_TEMPLATE_MAX_WORK: 'lots' });
    expect(bad.stderr).toBe('Error: CAPIFORM_TEMPLATE_MAX_WORK=lots is not a positive whole number\n  at: CAPIFORM_TEMPLATE_MAX_WORK\n  fix: set CAPIFORM_TEMPLATE_MAX_WORK to a number, e.g. CAPIFORM_TEMPLATE_MAX_WORK=200000000\n');
  });
});

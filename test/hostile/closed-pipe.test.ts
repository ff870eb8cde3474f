/**
 * `capiform … | head` and `capiform --help | true`: when the reader of stdout closes early, capiform stops writing
 * and exits with its own status, with nothing on stderr (no EPIPE stack). Each case runs the real CLI in bash with a
 * real pipe whose reader exits before capiform has written everything.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { compiledCli } from '../helpers/compiled-cli.js';
import { providerFiles, repoRoot, writeTree } from '../helpers/diff-fixtures.js';
import { testdir } from '../helpers/testdir.js';

let cli: string;
beforeAll(async () => {
  cli = await compiledCli();
});

/** Runs `node cli <args> | <reader>` and returns capiform's own exit status and stderr. */
function piped(args: string, reader: string, cwd = repoRoot): { code: number; stderr: string } {
  const dir = testdir();
  const errFile = join(dir, 'stderr.txt');
  const script = `node ${JSON.stringify(cli)} ${args} 2>${JSON.stringify(errFile)} | ${reader}; exit "\${PIPESTATUS[0]}"`;
  const r = spawnSync('bash', ['-c', script], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: dir } });
  return { code: r.status ?? -1, stderr: readFileSync(errFile, 'utf8') };
}

/** Components of `n` ConfigMaps: far more output than a pipe buffers (64 KiB). */
function configMaps(n: number): string {
  return Array.from(
    { length: n },
    (_, i) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings-${i}\n  namespace: capi-system\ndata:\n  key: value-${i}\n`,
  ).join('---\n');
}

describe('writing into a closed pipe', () => {
  it('--help | true', () => {
    expect(piped('--help', 'true')).toEqual({ code: 0, stderr: '' });
  });

  it('generate provider … | head -1 (components far larger than the pipe buffer)', () => {
    const dir = testdir({
      'repo/cluster-api/v1.0.0/core-components.yaml': configMaps(3000),
      'repo/cluster-api/v1.0.0/metadata.yaml':
        'apiVersion: clusterctl.cluster.x-k8s.io/v1alpha3\nkind: Metadata\nreleaseSeries:\n- major: 1\n  minor: 0\n  contract: v1beta2\n',
    });
    const config = `providers:\n- name: cluster-api\n  type: CoreProvider\n  url: ${dir}/repo/cluster-api/latest/core-components.yaml\n`;
    writeFileSync(join(dir, 'clusterctl.yaml'), config);
    expect(piped('generate provider --core cluster-api:v1.0.0 -n capi-system --config clusterctl.yaml', 'head -1 >/dev/null', dir)).toEqual({
      code: 0,
      stderr: '',
    });
  });

  it('generate yaml --from a large file | head -c 10', () => {
    const doc = Array.from({ length: 20000 }, (_, i) => `k${i}: value-${i}`).join('\n');
    const dir = testdir({ 'big.yaml': `${doc}\n` });
    expect(piped('generate yaml --from big.yaml', 'head -c 10 >/dev/null', dir)).toEqual({ code: 0, stderr: '' });
  });

  it('diff BASE HEAD | head -1', () => {
    const base = writeTree(providerFiles('cluster-api', 'v1.12.4'));
    const files = providerFiles('cluster-api', 'v1.13.1');
    const components = 'providers/cluster-api/components.yaml';
    const head = writeTree({ ...files, [components]: `${files[components] ?? ''}---\n${configMaps(3000)}` });
    expect(piped(`diff ${base} ${head}`, 'head -1 >/dev/null')).toEqual({ code: 0, stderr: '' });
  });
});

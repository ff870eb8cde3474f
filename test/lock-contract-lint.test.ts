/**
 * `capiform lock` lints every provider it resolves against the provider contract, with the rules of
 * `validate --contract`, on real releases of the corpus: Cluster API's own providers follow it, CAPA v2.10.3 does not
 * (its CRDs carry contract labels for versions they no longer serve). By default the findings are printed and the lock
 * is written; `contractLint: "strict"` refuses MUST violations and leaves the lock as it was; "off" skips the lint.
 * A `render` that writes the lock lints the same way.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, type CliResult } from './helpers/cli.js';
import { sharedDir } from './helpers/shared.js';
import { tempDir } from './helpers/testdir.js';

const corpus = sharedDir('corpus');
const repo = join(corpus.path, 'repository');

/** Cluster API v1.12.11's core and kubeadm providers: contract-clean in the corpus. */
const clean = `core: { name: 'cluster-api', version: 'v1.12.11', url: ${JSON.stringify(repo)} },
    bootstrap: [{ name: 'kubeadm', version: 'v1.12.11', url: ${JSON.stringify(repo)} }],
    controlPlane: [{ name: 'kubeadm', version: 'v1.12.11', url: ${JSON.stringify(repo)} }],`;
const aws = `infrastructure: [{ name: 'aws', version: 'v2.10.3', url: ${JSON.stringify(repo)} }],`;

function project(o: { aws?: boolean; mode?: string } = {}): string {
  const dir = tempDir('capiform-lock-lint-');
  writeConfig(dir, o);
  return dir;
}

function writeConfig(dir: string, o: { aws?: boolean; mode?: string }): void {
  writeFileSync(
    join(dir, 'capi.config.mjs'),
    `export default {
  ${o.mode === undefined ? '' : `contractLint: '${o.mode}',`}
  providers: {
    ${clean}
    ${o.aws ? aws : ''}
  },
  // What rendering CAPA's components needs: its credentials variable, left out of the tree (only with CAPA: unread,
  // it would be warned about).
  ${o.aws ? "variables: { AWS_B64ENCODED_CREDENTIALS: { env: 'AWS_B64ENCODED_CREDENTIALS' } }," : ''}
  secrets: { policy: 'omit' },
};
`,
  );
}

const cli = (dir: string, argv: string[]): Promise<CliResult> =>
  runCli(argv, { cwd: dir, env: { PATH: process.env.PATH, HOME: dir, CAPIFORM_CACHE_DIR: join(dir, '.cache'), AWS_B64ENCODED_CREDENTIALS: 'Zm9v' } });
const lockText = (dir: string): string => readFileSync(join(dir, 'capi.lock.yaml'), 'utf8');

/** The first finding CAPA v2.10.3's components give, as `lock` prints it. */
const awsFinding =
  'infrastructure-aws/v2.10.3/infrastructure-components.yaml:8: error [crd.contract-label]: CustomResourceDefinition awsclustercontrolleridentities.infrastructure.cluster.x-k8s.io: label cluster.x-k8s.io/v1alpha3 names version "v1alpha3", which CRD awsclustercontrolleridentities.infrastructure.cluster.x-k8s.io does not serve\n';

describe.skipIf(!corpus.present)(`capiform lock lints the providers it resolves${corpus.skipped}`, { timeout: 120_000 }, () => {
  it('providers that follow the contract lock without a word on stderr', async () => {
    const dir = project({ mode: 'strict' });
    const r = await cli(dir, ['lock']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('wrote capi.lock.yaml');
  });

  it('by default a violating provider is locked, with one summary line per provider (its counts and rules)', async () => {
    const dir = project({ aws: true });
    const r = await cli(dir, ['lock']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('infrastructure-aws v2.10.3 (v1beta1)\n');
    // The clean providers have nothing to say; each finding is `validate --contract`'s to list.
    expect(r.stderr).toBe(
      'provider contract: infrastructure-aws v2.10.3: 63 errors, 7 warnings (crd.contract-label ×63, components.variables-prefixed ×6, crd.template-pair ×1); locked anyway (contractLint: "strict" refuses MUST violations, "off" skips the lint); `capiform validate --contract` lists each finding\n',
    );
    expect(r.stderr).not.toContain(awsFinding);

    // The findings do not change the lock: the same lock with the lint off, byte for byte.
    const warned = lockText(dir);
    writeConfig(dir, { aws: true, mode: 'off' });
    const off = await cli(dir, ['lock', '--upgrade']);
    expect(off.stderr).toBe('');
    expect(off.stdout).toContain('capi.lock.yaml is up to date');
    expect(lockText(dir)).toBe(warned);
  });

  it('--quiet keeps the MUST violations; --json carries every finding in the document', async () => {
    const dir = project({ aws: true });
    const quiet = await cli(dir, ['lock', '--quiet']);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('provider contract: infrastructure-aws v2.10.3: 63 errors (crd.contract-label ×63); locked anyway (contractLint: "strict" refuses MUST violations, "off" skips the lint); `capiform validate --contract` lists each finding\n');

    const json = await cli(dir, ['lock', '--json']);
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.stdout) as { contract: string; contractLint: { errors: number; warnings: number; findings: Array<{ rule: string; severity: string; file: string; kind: string; name: string }> } };
    expect(doc.contract).toBe('v1beta2');
    expect(doc.contractLint.errors).toBe(63);
    expect(doc.contractLint.warnings).toBe(7);
    expect(doc.contractLint.findings[0]).toMatchObject({
      severity: 'warning',
      rule: 'components.variables-prefixed',
      file: 'infrastructure-aws/v2.10.3/infrastructure-components.yaml',
    });
    expect(json.stderr).toBe('');
  });

  it('contractLint "strict" fails on a MUST violation (exit 2) and leaves the lock untouched', async () => {
    const fresh = project({ aws: true, mode: 'strict' });
    const r = await cli(fresh, ['lock']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('infrastructure-aws v2.10.3 violates the provider contract (63 errors); capi.lock.yaml was not changed:\n');
    expect(r.stderr).toContain(`  ${awsFinding}`);
    expect(r.stderr).toContain('  … and 43 more\n');
    expect(r.stderr).toContain('contractLint: "warn"');
    expect(existsSync(join(fresh, 'capi.lock.yaml'))).toBe(false);

    // A project locked without CAPA: adding it under "strict" changes nothing on disk.
    const dir = project({ mode: 'strict' });
    expect((await cli(dir, ['lock'])).code).toBe(0);
    const before = lockText(dir);
    writeConfig(dir, { aws: true, mode: 'strict' });
    for (const argv of [['lock'], ['lock', '--upgrade']]) {
      const again = await cli(dir, argv);
      expect(again.code, argv.join(' ')).toBe(2);
      expect(lockText(dir)).toBe(before);
    }
  });
});

describe.skipIf(!corpus.present)(`a render that writes the lock lints like lock${corpus.skipped}`, { timeout: 120_000 }, () => {
  it('"strict": the first render of a violating provider writes nothing', async () => {
    const dir = project({ aws: true, mode: 'strict' });
    const r = await cli(dir, ['render']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('infrastructure-aws v2.10.3 violates the provider contract (63 errors); capi.lock.yaml was not changed:\n');
    expect(existsSync(join(dir, 'capi.lock.yaml'))).toBe(false);
    expect(existsSync(join(dir, 'providers'))).toBe(false);
  });

  it('"warn": the render that locks reports the findings; renders from the lock as it is do not lint again', async () => {
    const dir = project({ aws: true });
    const first = await cli(dir, ['render']);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('provider contract: infrastructure-aws v2.10.3: 63 errors, 7 warnings (crd.contract-label ×63,');
    expect(first.stdout).toContain('wrote capi.lock.yaml');
    for (const argv of [['render'], ['render', '--frozen'], ['render', '--check', '--frozen']]) {
      const again = await cli(dir, argv);
      expect(again.code, argv.join(' ')).toBe(0);
      expect(again.stderr, argv.join(' ')).not.toContain('provider contract:');
    }
  });
});

describe.skipIf(!corpus.present)(`capiform lock of a fleet lints each management cluster's providers${corpus.skipped}`, { timeout: 120_000 }, () => {
  function fleet(mode?: string): string {
    const dir = tempDir('capiform-lock-lint-fleet-');
    writeFileSync(
      join(dir, 'capi.config.mjs'),
      `export default {
  ${mode === undefined ? '' : `contractLint: '${mode}',`}
  providers: {
    ${clean}
  },
  managementClusters: {
    'eu-west': {},
    'us-east': { providers: { ${aws} } },
  },
};
`,
    );
    return dir;
  }

  it('findings name the management cluster; "strict" names it in the failure', async () => {
    const dir = fleet();
    const r = await cli(dir, ['lock']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('us-east: infrastructure-aws v2.10.3 (v1beta1)\n');
    expect(r.stderr).toContain('provider contract: us-east: infrastructure-aws v2.10.3: 63 errors, 7 warnings (');
    expect(r.stderr).not.toContain('eu-west:');

    const strict = fleet('strict');
    const s = await cli(strict, ['lock']);
    expect(s.code).toBe(2);
    expect(s.stderr).toContain('us-east: infrastructure-aws v2.10.3 violates the provider contract (63 errors); capi.lock.yaml was not changed:\n');
    expect(s.stderr).toContain(`  us-east: ${awsFinding}`);
    expect(existsSync(join(strict, 'capi.lock.yaml'))).toBe(false);
  });
});

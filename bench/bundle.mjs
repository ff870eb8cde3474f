#!/usr/bin/env node
// `capiform bundle` of the whole corpus stack (the newest release of every provider in ../shared/corpus plus
// cert-manager, every release file pinned in capi.lock.yaml, the components as the rendered tree), then
// `capiform bundle verify` of the result. Whole-process wall times. Target: bundle ≤ 5 s.
// Prints one JSON line: {"name":"bundle",...}. Run `npm run build` first.
//   node bench/bundle.mjs            env: CAPIFORM_CORPUS_DIR (default ../shared/corpus)
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusDir } from './corpus.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const corpus = join(corpusDir, 'repository');
const bin = join(root, 'bin', 'capiform.js');
if (!existsSync(corpus)) {
  console.error(`bench/bundle: corpus not found at ${corpus} (set CAPIFORM_CORPUS_DIR); skipped`);
  process.exit(0);
}
if (!existsSync(join(root, 'dist', 'cli', 'main.js'))) {
  console.error('bench/bundle: dist/ is not built; run `npm run build` first');
  process.exit(2);
}

const types = {
  'cluster-api': ['cluster-api', 'CoreProvider', 'core'],
  'bootstrap-kubeadm': ['kubeadm', 'BootstrapProvider', 'bootstrap'],
  'control-plane-kubeadm': ['kubeadm', 'ControlPlaneProvider', 'controlPlane'],
  'infrastructure-docker': ['docker', 'InfrastructureProvider', 'infrastructure'],
  'infrastructure-aws': ['aws', 'InfrastructureProvider', 'infrastructure'],
  'infrastructure-azure': ['azure', 'InfrastructureProvider', 'infrastructure'],
  'infrastructure-vsphere': ['vsphere', 'InfrastructureProvider', 'infrastructure'],
  'infrastructure-metal3': ['metal3', 'InfrastructureProvider', 'infrastructure'],
  'ipam-metal3': ['metal3', 'IPAMProvider', 'ipam'],
};
const configProviders = {};
const semverKey = (v) => v.replace(/^v/, '').split('.').map((n) => n.padStart(6, '0')).join('.');
const newest = (label) => readdirSync(join(corpus, label)).sort((a, b) => (semverKey(a) < semverKey(b) ? 1 : -1))[0];
const sha = (b) => createHash('sha256').update(b).digest('hex');

const work = mkdtempSync(join(tmpdir(), 'capiform-bench-bundle-'));
const lock = ['lockfileVersion: 1', `configDigest: sha256:${'0'.repeat(64)}`, 'contract: v1beta2', 'providers:'];
const fileLines = (label, version) =>
  readdirSync(join(corpus, label, version))
    .sort()
    .flatMap((f) => {
      const p = join(corpus, label, version, f);
      const b = readFileSync(p);
      return [`  - name: ${f}`, `    path: ${relative(work, p)}`, `    sha256: ${sha(b)}`, `    size: ${b.length}`];
    });
let sourceBytes = 0;
for (const [label, [name, type, kind]] of Object.entries(types)) {
  if (!existsSync(join(corpus, label))) continue;
  const version = newest(label);
  (configProviders[kind] ??= []).push({ name, version, url: relative(work, corpus) });
  lock.push(`- name: ${name}`, `  type: ${type}`, `  label: ${label}`, '  constraint: latest', `  version: ${version}`, '  contract: v1beta2', '  source:', '    kind: local', `    url: ${relative(work, join(corpus, label))}`, '  files:', ...fileLines(label, version));
  const dir = join(corpus, label, version);
  const comp = readdirSync(dir).find((f) => /components(-development)?\.yaml$/.test(f));
  mkdirSync(join(work, 'providers', label), { recursive: true });
  writeFileSync(join(work, 'providers', label, 'components.yaml'), readFileSync(join(dir, comp)));
  for (const f of readdirSync(dir)) sourceBytes += statSync(join(dir, f)).size;
}
const cmVersion = newest('cert-manager');
lock.push('certManager:', `  version: ${cmVersion}`, '  source:', '    kind: local', `    url: ${relative(work, join(corpus, 'cert-manager'))}`, '  files:', ...fileLines('cert-manager', cmVersion));
mkdirSync(join(work, 'providers', 'cert-manager'), { recursive: true });
writeFileSync(join(work, 'providers', 'cert-manager', 'cert-manager.yaml'), readFileSync(join(corpus, 'cert-manager', cmVersion, 'cert-manager.yaml')));
writeFileSync(join(work, 'capi.lock.yaml'), `${lock.join('\n')}\n`);
// The config the lock was resolved from (the bundle stores it, and reads its \`images\` for clusterctl.yaml).
const providers = Object.fromEntries(Object.entries(configProviders).map(([k, list]) => [k, k === 'core' ? list[0] : list]));
writeFileSync(
  join(work, 'capi.config.ts'),
  `export default ${JSON.stringify({ providers, certManager: { version: cmVersion, url: relative(work, corpus) } }, null, 2)};\n`,
);

function timed(args) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: work, encoding: 'utf8', env: { ...process.env, SOURCE_DATE_EPOCH: '0' } });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) {
    console.error(`bench/bundle: capiform ${args.join(' ')} failed (${r.status}):\n${r.stderr}`);
    process.exit(1);
  }
  return { seconds, stdout: r.stdout };
}

const b = timed(['bundle', '--json', '--out', 'dist/stack.tar.gz', '--hauler', '--zarf', '--operator']);
const first = readFileSync(join(work, 'dist', 'stack.tar.gz'));
const again = timed(['bundle', '--json', '--out', 'dist/stack.tar.gz', '--hauler', '--zarf', '--operator']);
const reproducible = Buffer.compare(first, readFileSync(join(work, 'dist', 'stack.tar.gz'))) === 0;
const v = timed(['bundle', 'verify', 'dist/stack.tar.gz']);
const res = JSON.parse(b.stdout);
console.log(
  JSON.stringify({
    name: 'bundle',
    seconds: +Math.min(b.seconds, again.seconds).toFixed(3),
    verifySeconds: +v.seconds.toFixed(3),
    targetSeconds: 5,
    withinTarget: Math.min(b.seconds, again.seconds) <= 5,
    reproducible,
    sourceMB: +(sourceBytes / 1e6).toFixed(1),
    bundleMB: +(res.bytes / 1e6).toFixed(2),
    files: res.files,
    images: res.images,
  }),
);
if (!process.env.KEEP) rmSync(work, { recursive: true, force: true });

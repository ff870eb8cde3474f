#!/usr/bin/env node
/**
 * Pipeline benchmark: the whole corpus stack (every provider in ../shared/corpus, one version each: the newest) plus
 * 100, 1,000 and 10,000 generated clusters (ClusterClass flavor of the docker provider, 20 namespaces).
 * For each size, in fresh processes: a cold render (no lock, no tree), a warm render (lock present, tree deleted)
 * and a no-op re-render. Reports wall time, time inside capiform, peak RSS and files written.
 *
 *   node bench/pipeline.mjs [--sizes 100,1000,10000] [--json]
 *
 * Uses dist/ (run `npm run build` first); falls back to the TypeScript sources through jiti (slower start).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { corpusDir } from './corpus.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');

async function child(dir, argv) {
  const dist = join(root, 'dist/cli/main.js');
  let main;
  if (existsSync(dist)) ({ main } = await import(pathToFileURL(dist).href));
  else {
    const { createJiti } = await import('jiti');
    ({ main } = await createJiti(import.meta.url).import(join(root, 'src/cli/main.ts')));
  }
  let out = '';
  let err = '';
  const io = {
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
    readStdin: async () => new Uint8Array(),
    env: { PATH: process.env.PATH },
    cwd: dir,
    isTTY: false,
  };
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const code = await main(argv, io);
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write(JSON.stringify({ code, ms, cpuMs: (cpu.user + cpu.system) / 1000, maxRssMB: process.resourceUsage().maxRSS / 1024, out, err }));
}

function configText(corpus, clusters) {
  const repo = JSON.stringify(join(corpus, 'repository'));
  return `const repo = ${repo};
export default {
  providers: {
    core: { name: 'cluster-api', version: 'latest', url: repo },
    bootstrap: [{ name: 'kubeadm', version: 'latest', url: repo }],
    controlPlane: [{ name: 'kubeadm', version: 'latest', url: repo }],
    infrastructure: [
      { name: 'docker', version: 'latest', url: repo + '/infrastructure-docker/latest/infrastructure-components-development.yaml' },
      { name: 'aws', version: 'latest', url: repo },
      { name: 'azure', version: 'latest', url: repo },
      { name: 'vsphere', version: 'latest', url: repo },
      { name: 'metal3', version: 'latest', url: repo },
    ],
    ipam: [{ name: 'metal3', version: 'latest', url: repo }],
  },
  certManager: { version: 'v1.19.4', url: repo },
  variables: { CLUSTER_TOPOLOGY: 'true', AZURE_SUBSCRIPTION_ID_B64: 'c3Vic2NyaXB0aW9u', VSPHERE_USERNAME: 'bench', VM_OPERATOR_API_VERSION: 'v1alpha2' },
  secrets: { policy: 'omit' },
  clusters: Array.from({ length: ${clusters} }, (_, i) => ({
    name: 'c-' + i,
    namespace: 'team-' + (i % 20),
    infrastructure: 'docker',
    flavor: 'development',
    kubernetesVersion: 'v1.33.1',
    workerMachineCount: i % 5,
  })),
};
`;
}

function run(dir, argv) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', dir, ...argv], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const wallMs = performance.now() - t0;
  if (r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
  const res = JSON.parse(r.stdout);
  if (res.code !== 0) throw new Error(`capiform ${argv.join(' ')} exited ${res.code}: ${res.err}`);
  const j = JSON.parse(res.out);
  return { wallMs, ms: res.ms, cpuMs: res.cpuMs, maxRssMB: res.maxRssMB, written: j.added.length + j.changed.length + j.removed.length, lockWritten: j.lock.written };
}

async function parent() {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const si = args.indexOf('--sizes');
  const sizes = si >= 0 ? args[si + 1].split(',').map(Number) : [100, 1000, 10000];
  const corpus = corpusDir;
  if (!existsSync(join(corpus, 'repository'))) {
    console.log(`bench/pipeline: corpus not found at ${corpus}; skipping`);
    return;
  }
  const rows = [];
  for (const n of sizes) {
    const dir = mkdtempSync(join(tmpdir(), `capiform-bench-${n}-`));
    writeFileSync(join(dir, 'capi.config.mjs'), configText(corpus, n));
    const cold = run(dir, ['render', '--json']);
    for (const d of ['providers', 'clusters', 'clusterclasses', '.capiform']) rmSync(join(dir, d), { recursive: true, force: true });
    const warm = run(dir, ['render', '--json']);
    const noop = run(dir, ['render', '--json']);
    rows.push({ clusters: n, cold, warm, noop });
    rmSync(dir, { recursive: true, force: true });
    if (!json) {
      const f = (x) =>
        `${(x.wallMs / 1000).toFixed(2)} s wall, ${(x.ms / 1000).toFixed(2)} s in capiform (${(x.cpuMs / 1000).toFixed(2)} s CPU), ${x.maxRssMB.toFixed(0)} MB peak RSS, ${x.written} files written`;
      console.log(`${n} clusters\n  cold:  ${f(cold)}\n  warm:  ${f(warm)}\n  no-op: ${f(noop)}`);
    }
  }
  if (json) console.log(JSON.stringify(rows, null, 2));
}

if (process.argv[2] === '--child') await child(process.argv[3], process.argv.slice(4));
else await parent();

// A fresh CI runner: `render --check --frozen` with an empty cache against the same check with a warm one, on the
// mixed four-provider corpus project (core, kubeadm, CAPD, CAPA, CAPZ, CAPV, cert-manager: what `capiform init
// --infrastructure docker,aws,azure,vsphere` writes, with its required variables set). Whole process, in turn round
// after round; the ratio is the median of the rounds' ratios. Goal (issue 27): cold <= 2x warm. Prints a table and
// one JSON line, writes bench/out/cold-check.json. Run `npm run build` first; needs ../shared/corpus.
//   node bench/cold-check.mjs   (BENCH_RUNS rounds, default 7)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusDir, repoRoot } from './corpus.mjs';

const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 7));
const goal = 2;
const bin = join(repoRoot, 'bin', 'capiform.js');
const repository = join(corpusDir, 'repository');
if (!existsSync(join(repoRoot, 'dist', 'cli', 'main.js'))) {
  console.error('bench/cold-check: dist/ is not built; run `npm run build` first');
  process.exit(2);
}
if (!existsSync(repository)) {
  console.error(`bench/cold-check: no corpus at ${repository}`);
  process.exit(2);
}

// What `init` asks to set before rendering, with values the providers' webhooks and schemas accept.
const required = {
  AWS_CONTROL_PLANE_MACHINE_TYPE: 't3.large', AWS_NODE_MACHINE_TYPE: 't3.large', AWS_REGION: 'eu-west-1', AWS_SSH_KEY_NAME: 'default',
  AZURE_CLIENT_ID_USER_ASSIGNED_IDENTITY: '00000000-0000-0000-0000-000000000001', AZURE_CONTROL_PLANE_MACHINE_TYPE: 'Standard_D2s_v3',
  AZURE_LOCATION: 'westeurope', AZURE_NODE_MACHINE_TYPE: 'Standard_D2s_v3', AZURE_SUBSCRIPTION_ID: '00000000-0000-0000-0000-000000000002',
  AZURE_TENANT_ID: '00000000-0000-0000-0000-000000000003', CLUSTER_IDENTITY_NAME: 'cluster-identity',
  CONTROL_PLANE_ENDPOINT_IP: '10.0.0.10', CPI_IMAGE_K8S_VERSION: 'v1.33.0', VSPHERE_DATACENTER: 'dc0', VSPHERE_DATASTORE: 'ds0',
  VSPHERE_FOLDER: 'vm/capi', VSPHERE_NETWORK: 'VM Network', VSPHERE_RESOURCE_POOL: '*/Resources', VSPHERE_SERVER: 'vcenter.example.com',
  VSPHERE_SSH_AUTHORIZED_KEY: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl user@example',
  VSPHERE_STORAGE_POLICY: 'vsan-default', VSPHERE_TEMPLATE: 'ubuntu-2204-kube-v1.33.1', VSPHERE_TLS_THUMBPRINT: 'AA:BB:CC', VSPHERE_USERNAME: 'admin@vsphere.local',
};

const work = mkdtempSync(join(tmpdir(), 'capiform-cold-check-'));
const dir = join(work, 'project');
const warmCache = join(work, 'cache');
const env = {
  PATH: process.env.PATH, HOME: work, NO_COLOR: '1', AWS_B64ENCODED_CREDENTIALS: 'Zm9v', VSPHERE_PASSWORD: 'x',
  ...(process.env.NODE_EXTRA_CA_CERTS ? { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS } : {}),
};

let fresh = 0;
function run(args, cache, cwd = dir) {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, env: { ...env, CAPIFORM_CACHE_DIR: cache }, encoding: 'utf8', maxBuffer: 1 << 26 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`bench/cold-check: capiform ${args.join(' ')} failed (${r.status}): ${(r.stderr || String(r.error)).slice(0, 2000)}`);
  return ms;
}
const cold = (args) => {
  const cache = join(work, `cold-${fresh++}`);
  const ms = run(args, cache);
  rmSync(cache, { recursive: true, force: true });
  return ms;
};

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

let result;
try {
  run(['init', '--repository', repository, '--infrastructure', 'docker,aws,azure,vsphere', dir], warmCache, work);
  let config = readFileSync(join(dir, 'capi.config.ts'), 'utf8');
  for (const [name, value] of Object.entries(required)) {
    config = config.replaceAll(`// ${name}: '', // required: set it before \`capiform render\``, `${name}: ${JSON.stringify(value)},`);
  }
  writeFileSync(join(dir, 'capi.config.ts'), config);
  run(['lock'], warmCache);
  run(['render'], warmCache);
  const check = ['render', '--check', '--frozen'];
  run(check, warmCache);
  cold(check);
  const samples = { cold: [], warm: [] };
  for (let i = 0; i < runs; i++) {
    samples.cold.push(cold(check));
    samples.warm.push(run(check, warmCache));
  }
  const ratio = median(samples.cold.map((c, i) => c / samples.warm[i]));
  result = { name: 'cold-check', runs, goal, coldMs: Math.round(median(samples.cold)), warmMs: Math.round(median(samples.warm)), ratio: Math.round(ratio * 100) / 100 };
} finally {
  rmSync(work, { recursive: true, force: true });
}

let md = '| `render --check --frozen`, four-provider corpus project | median wall |\n| --- | ---: |\n';
md += `| cold (empty cache, a fresh runner) | ${result.coldMs} ms |\n| warm (the cache a previous run or \`actions/cache\` left) | ${result.warmMs} ms |\n`;
md += `\n**cold / warm = ${result.ratio.toFixed(2)}×** (median of ${runs} rounds' ratios; goal ≤ ${goal}×${result.ratio <= goal ? ', meets' : ', misses'}).\n`;
console.log(md);
console.log(JSON.stringify(result));
mkdirSync(join(repoRoot, 'bench', 'out'), { recursive: true });
writeFileSync(join(repoRoot, 'bench', 'out', 'cold-check.json'), `${JSON.stringify(result, null, 2)}\n`);

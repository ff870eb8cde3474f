// The sharded CI recipe (docs/ci.md, "Sharded renders in CI") on a large fleet, whole process: `render --check
// --frozen` of the whole tree against each of `--shard I/N`, in turn round after round, on a tree rendered once, each
// run with an empty cache as on a fresh runner (SHARD_CACHE=warm: with the cache a restored `actions/cache` gives). A
// shard's time is W/N of the work plus a fixed cost F every job pays (Node's start, the config, the lock, the
// providers, and for shard 1 expanding every cluster's template for the shared ClusterClasses and Argo CD glue):
// F = (sum of the shards' times - the whole check's time) / (N - 1). Prints a table and one JSON line, writes
// bench/out/shards.json. Run `npm run build` first.
//   node bench/shards.mjs   (SHARD_CLUSTERS, default 10,000; SHARDS, default 4; SHARD_RUNS rounds, default 1: a cold
//                            10,000-cluster round takes minutes)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './corpus.mjs';
import { fleetConfig } from './fleet-config.mjs';

const clusters = Number(process.env.SHARD_CLUSTERS ?? 10_000);
const shards = Number(process.env.SHARDS ?? 4);
const runs = Math.max(1, Number(process.env.SHARD_RUNS ?? 1));
const warm = process.env.SHARD_CACHE === 'warm';
if (!Number.isInteger(clusters) || clusters < 1 || clusters > 50_000 || !Number.isInteger(shards) || shards < 2 || shards > 64) {
  console.error('bench/shards: SHARD_CLUSTERS must be 1 to 50,000 and SHARDS 2 to 64');
  process.exit(2);
}
const bin = join(repoRoot, 'bin', 'capiform.js');
if (!existsSync(join(repoRoot, 'dist', 'cli', 'main.js'))) {
  console.error('bench/shards: dist/ is not built; run `npm run build` first');
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'capiform-shards-'));
const dir = join(work, 'fleet');
const cache = join(work, 'cache');
const env = { PATH: process.env.PATH, HOME: work, NO_COLOR: '1', CAPIFORM_CACHE_DIR: cache, ...(process.env.NODE_EXTRA_CA_CERTS ? { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS } : {}) };

let fresh = 0;
function run(args, cold = false) {
  const cacheDir = cold ? join(work, `cold-${fresh++}`) : cache;
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: dir, env: { ...env, CAPIFORM_CACHE_DIR: cacheDir }, encoding: 'utf8', maxBuffer: 1 << 28 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (cold) rmSync(cacheDir, { recursive: true, force: true });
  if (r.status !== 0) throw new Error(`bench/shards: capiform ${args.join(' ')} failed (${r.status}): ${(r.stderr || String(r.error)).slice(0, 2000)}`);
  return ms;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const round = (n) => Math.round(n);

let result;
try {
  mkdirSync(dir);
  writeFileSync(join(dir, 'capi.config.json'), `${JSON.stringify(fleetConfig(clusters), null, 2)}\n`);
  run(['lock']);
  run(['render']);
  const check = ['render', '--check', '--frozen'];
  const contestants = [{ label: 'whole tree', args: check }, ...Array.from({ length: shards }, (_, i) => ({ label: `--shard ${i + 1}/${shards}`, args: [...check, '--shard', `${i + 1}/${shards}`] }))];
  for (const c of contestants) run(c.args); // warm-up: the render cache and the file system's
  const samples = contestants.map(() => []);
  for (let i = 0; i < runs; i++) contestants.forEach((c, j) => samples[j].push(run(c.args, !warm)));
  const whole = median(samples[0]);
  const shardMs = samples.slice(1).map(median);
  const fixedMs = (shardMs.reduce((a, b) => a + b, 0) - whole) / (shards - 1);
  result = { name: 'shards', clusters, shards, runs, cache: warm ? 'warm' : 'cold', wholeMs: round(whole), shardMs: shardMs.map(round), perShardIdealMs: round(whole / shards), fixedMs: round(fixedMs) };
} finally {
  rmSync(work, { recursive: true, force: true });
}

let md = `| \`render --check --frozen\`, ${clusters.toLocaleString('en-US')} topology clusters, ${result.cache} cache | wall (median of ${runs}) | whole / ${shards} |\n| --- | ---: | ---: |\n`;
md += `| whole tree | ${result.wholeMs} ms | |\n`;
result.shardMs.forEach((ms, i) => (md += `| \`--shard ${i + 1}/${shards}\` | ${ms} ms | ${result.perShardIdealMs} ms |\n`));
md += `\nEach shard ≈ whole / ${shards} + a fixed cost; fixed cost F = (Σ shards − whole) / (${shards} − 1) = **${result.fixedMs} ms**.\n`;
console.log(md);
console.log(JSON.stringify(result));
mkdirSync(join(repoRoot, 'bench', 'out'), { recursive: true });
writeFileSync(join(repoRoot, 'bench', 'out', 'shards.json'), `${JSON.stringify(result, null, 2)}\n`);

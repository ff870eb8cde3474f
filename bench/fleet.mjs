// A fleet of ClusterClass-managed clusters, whole process: `capiform render` of a config with 1,000 topology clusters
// of one class (the docker provider's `development` flavor, ClusterClass quick-start, all in one namespace) against the
// same config with 100, and `capiform plan topology` and `capiform validate` over each rendered tree. Each command
// runs as its own Node process, 1,000 and 100 in turn round after round, and the ratio is the median of the rounds'
// ratios (wall time and CPU time of the child); a fixed cost (Node's start, loading the providers) makes it lower than linear's 10×. The
// goals (issue 27): at most 8× the time for 10× the clusters, and a peak RSS of at most 256 MB whatever the size, up
// to 50,000 clusters (FLEET_SIZES=1000,10000 or 10000,50000). `render` is timed cold: no tree, an empty cache.
//
// The projects are generated in a temporary folder (deterministic: names, namespaces, machine counts) from the
// embedded example's local repository, and removed afterwards. Prints a table and one JSON line, writes
// bench/out/fleet.json; exits 1 when a ratio reaches 10 (superlinear) or a child's peak RSS exceeds 256 MB.
// Run `npm run build` first.
//   node bench/fleet.mjs            (BENCH_RUNS rounds, default 5; FLEET_SIZES=100,1000 to change the sizes,
//                                    at most 50,000 clusters; FLEET_COMMANDS=render to time only some commands)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './corpus.mjs';
import { fleetConfig } from './fleet-config.mjs';

const ratioLimit = 10;
const rssLimitMb = 256;
const ratioGoal = 8;
const maxClusters = 50_000;
const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 5));
const [small, big] = (process.env.FLEET_SIZES ?? '100,1000').split(',').map(Number);
if (![small, big].every((n) => Number.isInteger(n) && n >= 1 && n <= maxClusters) || small >= big) {
  console.error(`bench/fleet: FLEET_SIZES must be two cluster counts, small then big, each 1 to ${maxClusters.toLocaleString('en-US')} (got ${process.env.FLEET_SIZES})`);
  process.exit(2);
}
const only = process.env.FLEET_COMMANDS ? new Set(process.env.FLEET_COMMANDS.split(',')) : undefined;
const bin = join(repoRoot, 'bin', 'capiform.js');
const repository = join(repoRoot, 'examples', 'repository');
if (!existsSync(join(repoRoot, 'dist', 'cli', 'main.js'))) {
  console.error('bench/fleet: dist/ is not built; run `npm run build` first');
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'capiform-fleet-'));
// Every child reports its own peak RSS and CPU time when it exits (whatever exit path it takes).
const probe = join(work, 'probe.mjs');
writeFileSync(
  probe,
  `import { writeFileSync } from 'node:fs';
process.on('exit', () => {
  const u = process.resourceUsage();
  writeFileSync(process.env.FLEET_PROBE_FILE, JSON.stringify({ maxRssKb: u.maxRSS, cpuUs: u.userCPUTime + u.systemCPUTime }));
});
`,
);
const probeFile = join(work, 'probe.json');

const config = (n) => fleetConfig(n, repository);

/** One capiform process: wall ms, and the child's own CPU ms and peak RSS (MB). */
function run(args, cwd, cacheDir) {
  rmSync(probeFile, { force: true });
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--import', pathToFileURL(probe).href, bin, ...args], {
    cwd,
    env: { PATH: process.env.PATH, HOME: work, NO_COLOR: '1', CAPIFORM_CACHE_DIR: cacheDir, FLEET_PROBE_FILE: probeFile },
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`bench/fleet: capiform ${args.join(' ')} failed (${r.status}): ${(r.stderr || String(r.error)).slice(0, 2000)}`);
  const { maxRssKb, cpuUs } = JSON.parse(readFileSync(probeFile, 'utf8'));
  return { ms, cpuMs: cpuUs / 1000, rssMb: maxRssKb / 1024, bytes: Buffer.byteLength(r.stdout) };
}

const projects = new Map();
for (const n of [small, big]) {
  const dir = join(work, `fleet-${n}`);
  mkdirSync(dir);
  writeFileSync(join(dir, 'capi.config.json'), `${JSON.stringify(config(n), null, 2)}\n`);
  const cache = join(work, `cache-${n}`);
  run(['lock'], dir, cache);
  projects.set(n, { dir, cache, rounds: 0 });
}

const commands = {
  render: (p) => {
    // Cold: the previous round's tree and cache are removed first (not timed).
    for (const d of ['clusters', 'clusterclasses', 'providers', '.capiform']) rmSync(join(p.dir, d), { recursive: true, force: true });
    const cache = join(work, `render-cache-${p.rounds++}`);
    const r = run(['render'], p.dir, cache);
    rmSync(cache, { recursive: true, force: true });
    return r;
  },
  'plan topology': (p) => run(['plan', 'topology'], p.dir, p.cache),
  // The whole rendered tree against the providers' CRDs, with each topology Cluster's expanded objects (issue 27).
  validate: (p) => run(['validate'], p.dir, p.cache),
};
for (const name of Object.keys(commands)) if (only && !only.has(name)) delete commands[name];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const round = (n) => Math.round(n * 10) / 10;

const results = [];
try {
  for (const [name, cmd] of Object.entries(commands)) {
    // One warm-up round (it also leaves the rendered trees `plan topology` reads).
    cmd(projects.get(small));
    cmd(projects.get(big));
    const samples = { small: [], big: [] };
    for (let i = 0; i < runs; i++) {
      samples.big.push(cmd(projects.get(big)));
      samples.small.push(cmd(projects.get(small)));
    }
    const summary = (xs) => ({
      wallMs: round(median(xs.map((x) => x.ms))),
      cpuMs: round(median(xs.map((x) => x.cpuMs))),
      peakRssMb: round(Math.max(...xs.map((x) => x.rssMb))),
      outputBytes: xs[xs.length - 1].bytes,
    });
    results.push({
      command: name,
      small: { clusters: small, ...summary(samples.small) },
      big: { clusters: big, ...summary(samples.big) },
      ratio: Math.round(median(samples.big.map((b, i) => b.ms / samples.small[i].ms)) * 100) / 100,
      cpuRatio: Math.round(median(samples.big.map((b, i) => b.cpuMs / samples.small[i].cpuMs)) * 100) / 100,
    });
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

let md = `| command | ${small} clusters (wall / CPU, peak RSS) | ${big.toLocaleString('en-US')} clusters (wall / CPU, peak RSS) | ratio wall / CPU |\n| --- | ---: | ---: | ---: |\n`;
for (const r of results) {
  const cell = (s) => `${s.wallMs} ms / ${s.cpuMs} ms, ${s.peakRssMb} MB`;
  md += `| \`${r.command}\` | ${cell(r.small)} | ${cell(r.big)} | **${r.ratio.toFixed(2)}× / ${r.cpuRatio.toFixed(2)}×** |\n`;
}
md += `\n${big.toLocaleString('en-US')} / ${small.toLocaleString('en-US')} topology clusters of one class, whole process, median of ${runs} rounds (goal ≤ ${ratioGoal}× for 10× the clusters, peak RSS ≤ ${rssLimitMb} MB; linear without fixed cost: ${big / small}×).\n`;
console.log(md);
const result = { name: 'fleet', runs, ratioLimit, ratioGoal, rssLimitMb, commands: results };
console.log(JSON.stringify(result));
mkdirSync(join(repoRoot, 'bench', 'out'), { recursive: true });
writeFileSync(join(repoRoot, 'bench', 'out', 'fleet.json'), `${JSON.stringify(result, null, 2)}\n`);
if (results.some((r) => r.ratio >= ratioLimit || r.big.peakRssMb > rssLimitMb || r.small.peakRssMb > rssLimitMb)) process.exitCode = 1;

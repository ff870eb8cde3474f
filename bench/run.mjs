#!/usr/bin/env node
// `npm run bench`: whole-process timings of capiform next to its peer, each pair run in turn (capiform, peer,
// capiform, peer, ...) so that a machine whose speed drifts moves both alike; the ratio is the median of the pairs'
// ratios, in wall time and (on Linux) in CPU time of the finished children.
//   1. `generate provider` of the corpus's cluster-api core components with a target namespace, next to
//      `kubectl kustomize` applying the same namespace and the two clusterctl labels to the same file (goal <= 0.3x);
//   2. `render --check --frozen` on a copy of the embedded example's up-to-date tree, next to `kubectl kustomize`
//      building each of the tree's kustomizations (goal <= 0.2x);
// Both run in the environment of this process: when it sets NODE_EXTRA_CA_CERTS (corporate runners do), Node parses
// that CA bundle at every start, and a row without it shows what that costs.
//   3. bench/topology.mjs (1,000 vs 100 topology clusters, in process) and bench/fleet.mjs (`render` and
//      `plan topology` of 1,000 vs 100 topology clusters, whole process), bench/cold-check.mjs (a fresh runner's
//      `render --check --frozen`, empty cache vs warm, on the four-provider corpus project; goal <= 2x) and
//      bench/shards.mjs (the sharded CI recipe on 10,000 clusters), when present, with the other bench/*.mjs scripts.
// With BENCH_PREVIOUS=<folder of an earlier capiform checkout, built> the same commands of that capiform run in the
// same alternation, for regressions. Also: startup time, and a check that `generate` loads none of the heavy
// dependencies. Prints a markdown table and writes bench/out/results.json.
//
// Env: CAPIFORM_CORPUS_DIR (default ../shared/corpus), BENCH_RUNS (default 9), BENCH_EXTRAS=0 (skip the other
// scripts), BENCH_PREVIOUS (an earlier capiform's folder holding bin/capiform.js).
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { corpusDir } from './corpus.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const corpus = corpusDir;
const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 9));
const version = 'v1.13.5';
const namespace = 'capi-bench';
const components = join(corpus, 'repository', 'cluster-api', version, 'core-components.yaml');
const bin = join(root, 'bin', 'capiform.js');
const previousDir = process.env.BENCH_PREVIOUS ? resolve(process.env.BENCH_PREVIOUS) : undefined;
const previousBin = previousDir ? join(previousDir, 'bin', 'capiform.js') : undefined;

if (!existsSync(components)) {
  console.log(`bench: corpus not found at ${corpus} (set CAPIFORM_CORPUS_DIR); nothing to measure`);
  process.exit(0);
}
if (!existsSync(join(root, 'dist', 'cli', 'main.js'))) {
  console.error('bench: dist/ is not built; run `npm run build` first');
  process.exit(2);
}
if (previousBin && !existsSync(previousBin)) {
  console.error(`bench: BENCH_PREVIOUS has no bin/capiform.js (${previousBin})`);
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'capiform-bench-'));
const clusterctlYaml = join(work, 'clusterctl.yaml');
writeFileSync(clusterctlYaml, `providers:\n- name: cluster-api\n  type: CoreProvider\n  url: ${components}\n`);
const kdir = join(work, 'kustomize');
mkdirSync(kdir);
copyFileSync(components, join(kdir, 'core-components.yaml'));
writeFileSync(
  join(kdir, 'kustomization.yaml'),
  [
    'apiVersion: kustomize.config.k8s.io/v1beta1',
    'kind: Kustomization',
    `namespace: ${namespace}`,
    'resources:',
    '- core-components.yaml',
    'labels:',
    '- includeSelectors: false',
    '  pairs:',
    '    clusterctl.cluster.x-k8s.io: ""',
    '    cluster.x-k8s.io/provider: cluster-api',
    '',
  ].join('\n'),
);

// The embedded example (config, lock, local repository and committed tree), as the tree-cache tests copy it.
const example = join(work, 'example');
for (const p of ['capi.config.ts', 'capi.lock.yaml', 'examples/repository', 'providers', 'clusters', 'clusterclasses', 'argocd', '.capiform/owned.json']) {
  cpSync(join(root, p), join(example, p), { recursive: true });
}
const kustomizations = [];
(function find(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory() && e.name !== 'examples' && !e.name.startsWith('.')) find(join(dir, e.name));
    else if (e.name === 'kustomization.yaml') kustomizations.push(relative(example, dir));
  }
})(example);
kustomizations.sort();

// NODE_EXTRA_CA_CERTS stays: the goals hold in the environment users and CI have.
const extraCa = process.env.NODE_EXTRA_CA_CERTS;
const env = { PATH: process.env.PATH, HOME: work, NO_COLOR: '1', ...(extraCa ? { NODE_EXTRA_CA_CERTS: extraCa } : {}) };
const withoutExtraCa = (opts) => ({ ...opts, unset: ['NODE_EXTRA_CA_CERTS'] });

/** CPU seconds of this process's finished children (Linux: /proc/self/stat cutime + cstime), or null elsewhere. */
const ticks = 100;
function childCpu() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[13]) + Number(f[14])) / ticks;
  } catch {
    return null;
  }
}

/** One whole-process run of every command in `steps` (in order); wall ms and children's CPU ms. */
function timeSteps(steps) {
  const cpu0 = childCpu();
  const start = process.hrtime.bigint();
  let stdout = '';
  for (const [cmd, args, opts = {}] of steps) {
    const childEnv = { ...env, ...opts.env };
    for (const name of opts.unset ?? []) delete childEnv[name];
    const r = spawnSync(cmd, args, { env: childEnv, cwd: opts.cwd ?? work, maxBuffer: 1 << 28, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr || r.error}`);
    stdout += r.stdout;
  }
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const cpu1 = childCpu();
  return { ms, cpuMs: cpu0 === null || cpu1 === null ? null : (cpu1 - cpu0) * 1000, bytes: Buffer.byteLength(stdout) };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function summary(label, samples) {
  const ms = samples.map((s) => s.ms);
  const cpu = samples.every((s) => s.cpuMs !== null) ? samples.map((s) => s.cpuMs) : null;
  return { label, median: median(ms), min: Math.min(...ms), max: Math.max(...ms), cpuMedian: cpu ? median(cpu) : null, runs: samples.length, outputBytes: samples[samples.length - 1].bytes };
}

/**
 * Runs the named contestants in turn, `runs` rounds after one warm-up round, and returns each one's summary with its
 * ratios to the last contestant (the peer): the median of the per-round ratios, wall and CPU.
 */
function contest(contestants) {
  for (const c of contestants) timeSteps(c.steps(true));
  const samples = contestants.map(() => []);
  for (let i = 0; i < runs; i++) contestants.forEach((c, j) => samples[j].push(timeSteps(c.steps(false))));
  const peer = samples[samples.length - 1];
  return contestants.map((c, j) => {
    const s = summary(c.label, samples[j]);
    const wallRatios = samples[j].map((x, i) => x.ms / peer[i].ms);
    const cpuRatios = samples[j].every((x, i) => x.cpuMs !== null && peer[i].cpuMs) ? samples[j].map((x, i) => x.cpuMs / peer[i].cpuMs) : null;
    return { ...s, ratio: median(wallRatios), cpuRatio: cpuRatios ? median(cpuRatios) : null };
  });
}

const round = (n) => Math.round(n * 10) / 10;
const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;
if (!kubectl) console.error('bench: kubectl unavailable; reporting capiform only');

const generateArgs = (b) => [b, 'generate', 'provider', '--core', `cluster-api:${version}`, '--target-namespace', namespace, '--config', clusterctlYaml];
const capiformCache = join(work, 'cache');
const withCache = { env: { CAPIFORM_CACHE_DIR: capiformCache } };
const cold = () => ({ env: { CAPIFORM_CACHE_DIR: mkdtempSync(join(work, 'cold-')) } });
const previousCache = join(work, 'cache-previous');

const generateRows = contest([
  { label: 'capiform generate provider (render cache warm, the default)', steps: () => [[process.execPath, generateArgs(bin), withCache]] },
  { label: 'capiform generate provider (cold, empty cache)', steps: () => [[process.execPath, generateArgs(bin), cold()]] },
  ...(extraCa ? [{ label: 'capiform generate provider (warm, NODE_EXTRA_CA_CERTS unset)', steps: () => [[process.execPath, generateArgs(bin), withoutExtraCa(withCache)]] }] : []),
  ...(previousBin ? [{ label: 'previous capiform generate provider (warm)', steps: () => [[process.execPath, generateArgs(previousBin), { env: { CAPIFORM_CACHE_DIR: previousCache } }]] }] : []),
  ...(kubectl ? [{ label: 'kubectl kustomize (namespace + labels)', steps: () => [['kubectl', ['kustomize', kdir]]] }] : [{ label: 'node -e 0 (bare Node.js)', steps: () => [[process.execPath, ['-e', '0']]] }]),
]);

const checkOpts = (cache) => ({ cwd: example, env: { CAPIFORM_CACHE_DIR: cache } });
const checkRows = contest([
  { label: 'capiform render --check --frozen (cache warm)', steps: () => [[process.execPath, [bin, 'render', '--check', '--frozen'], checkOpts(capiformCache)]] },
  ...(extraCa ? [{ label: 'capiform render --check --frozen (warm, NODE_EXTRA_CA_CERTS unset)', steps: () => [[process.execPath, [bin, 'render', '--check', '--frozen'], withoutExtraCa(checkOpts(capiformCache))]] }] : []),
  ...(previousBin ? [{ label: 'previous capiform render --check --frozen (warm)', steps: () => [[process.execPath, [previousBin, 'render', '--check', '--frozen'], checkOpts(previousCache)]] }] : []),
  ...(kubectl
    ? [{ label: `kubectl kustomize, each of the tree's ${kustomizations.length} kustomizations`, steps: () => kustomizations.map((k) => ['kubectl', ['kustomize', k], { cwd: example }]) }]
    : [{ label: 'node -e 0 (bare Node.js)', steps: () => [[process.execPath, ['-e', '0']]] }]),
]);
const [startup, nodeBare] = contest([
  { label: 'capiform --version (startup)', steps: () => [[process.execPath, [bin, '--version']]] },
  { label: 'node -e 0 (bare Node.js)', steps: () => [[process.execPath, ['-e', '0']]] },
]);
// What Node's start costs with the CA bundle, next to a bare start without it: nothing capiform loads is in either.
const [nodeExtraCa] = extraCa
  ? contest([
      { label: 'node -e 0 with NODE_EXTRA_CA_CERTS', steps: () => [[process.execPath, ['-e', '0']]] },
      { label: 'node -e 0 without NODE_EXTRA_CA_CERTS', steps: () => [[process.execPath, ['-e', '0'], { unset: ['NODE_EXTRA_CA_CERTS'] }]] },
    ])
  : [null];
const capiform = generateRows[0];
const capiformCold = generateRows[1];
const kustomize = kubectl ? generateRows[generateRows.length - 1] : null;
const check = checkRows[0];
const kustomizeTree = kubectl ? checkRows[checkRows.length - 1] : null;
const previousGenerate = previousBin ? generateRows.find((r) => r.label.startsWith('previous')) : null;
const previousCheck = previousBin ? checkRows.find((r) => r.label.startsWith('previous')) : null;

// Which heavy dependencies does `generate` load? An ESM load hook records every module URL into a file.
const loadedFile = join(work, 'loaded.txt');
const hooks = `
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(${JSON.stringify(loadedFile)}, url + '\\n');
  return next(url, context);
}`;
const register = join(work, 'register.mjs');
writeFileSync(
  register,
  `import { register } from 'node:module';\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)}, ${JSON.stringify(pathToFileURL(work).href + '/')});\n`,
);
writeFileSync(loadedFile, '');
spawnSync(process.execPath, ['--import', pathToFileURL(register).href, ...generateArgs(bin)], { env, cwd: work, maxBuffer: 1 << 28 });
const loaded = readFileSync(loadedFile, 'utf8').split('\n').filter(Boolean);
// Packages only (the bundled CLI's chunks do not name their sources): test/startup-modules.test.ts checks capiform's
// own heavy parts (validate, topology) through the chunks' source maps.
const heavy = ['octokit', 'zod', 'handlebars', 'jiti', 'bufbuild'];
const heavyLoaded = heavy.filter((h) => loaded.some((u) => u.includes(`/node_modules/${h}/`) || u.includes(`/node_modules/@${h}/`)));
const packagesLoaded = [...new Set(loaded.map((u) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u)?.[1]).filter(Boolean))].sort();

// Other helpers' micro-benchmarks, when present.
const extra = {};
// BENCH_EXTRAS=0 skips them (the pipeline bench alone renders 10,000 clusters).
const extras = process.env.BENCH_EXTRAS === '0' ? [] : ['substitute', 'linearity', 'components', 'pipeline', 'diff', 'bundle', 'topology', 'fleet', 'cold-check', 'shards'];
for (const name of extras) {
  const script = join(root, 'bench', `${name}.mjs`);
  if (!existsSync(script)) continue;
  const r = spawnSync(process.execPath, [script], { cwd: root, env: { ...process.env }, encoding: 'utf8', maxBuffer: 1 << 26 });
  const failure = r.status === 0 ? '' : `(exit ${r.status}: ${(r.stderr || '').trim().split('\n').slice(-8).join(' ').slice(0, 400)})`;
  extra[name] = { exitCode: r.status, output: [(r.stdout || '').trim(), failure].filter(Boolean).join('\n') };
  const json = join(root, 'bench', 'out', `${name}.json`);
  if (existsSync(json)) {
    try {
      extra[name].results = JSON.parse(readFileSync(json, 'utf8'));
    } catch {
      // Not JSON: the printed output above is what we report.
    }
  }
}

const ratio = kustomize ? capiform.ratio : null;
const ratioCold = kustomize ? capiformCold.ratio : null;
const checkRatio = kustomizeTree ? check.ratio : null;
const fmt = (r) => (r === null || r === undefined ? '–' : `${r.toFixed(2)}×`);
const topology = (() => {
  try {
    return JSON.parse(readFileSync(join(root, 'bench', 'out', 'topology.json'), 'utf8'));
  } catch {
    return null;
  }
})();
let md = `## Benchmarks (whole process, ${runs} rounds after one warm-up, each round alternating the commands; Node ${process.version})\n\n`;
md += `Ratios are the median of the per-round ratios to the last row of each table (the peer), in wall time and in CPU time (user + system of the finished process).\n\n`;
const table = (title, rows) => {
  let t = `### ${title}\n\n| command | median wall (ms) | min | max | median CPU (ms) | ratio wall | ratio CPU |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n`;
  for (const r of rows) t += `| ${r.label} | ${round(r.median)} | ${round(r.min)} | ${round(r.max)} | ${r.cpuMedian === null ? '–' : round(r.cpuMedian)} | ${fmt(r.ratio)} | ${fmt(r.cpuRatio)} |\n`;
  return `${t}\n`;
};
md += table(`1. generate provider (cluster-api ${version} core components, ${round(Buffer.byteLength(readFileSync(components)) / 1048576)} MB, target namespace + labels)`, generateRows);
md += table(`2. render --check --frozen on the embedded example's up-to-date tree (${kustomizations.length} kustomizations)`, checkRows);
md += table('startup', [startup, nodeBare]);
const goal = (r, g) => (r === null || r === undefined ? '' : r <= g ? ' — **meets**' : ' — **misses**');
md += `**generate provider / kustomize = ${fmt(ratio)}** wall, ${fmt(capiform.cpuRatio)} CPU (goal ≤ 0.3×${goal(ratio, 0.3)}; cold cache ${fmt(ratioCold)}).\n\n`;
md += `**render --check / kustomize = ${fmt(checkRatio)}** wall, ${fmt(check.cpuRatio)} CPU (goal ≤ 0.2×${goal(checkRatio, 0.2)}).\n\n`;
if (nodeExtraCa) md += `**NODE_EXTRA_CA_CERTS (${extraCa}): Node's own start takes ${fmt(nodeExtraCa.ratio)}** the time of a start without it (${round(nodeExtraCa.median)} ms), before any of capiform's code runs.\n\n`;
md += topology ? `**topology expansion in process, 1,000 / 100 clusters = ${topology.ratio}×** (bench/topology.mjs; peak RSS ${topology.peakRssMb} MB).\n` : 'Topology: bench/topology.mjs did not run.\n';
const coldCheck = extra['cold-check']?.results;
if (coldCheck) md += `\n**render --check --frozen, cold / warm cache (four-provider corpus project) = ${coldCheck.ratio.toFixed(2)}×** wall (${coldCheck.coldMs} ms / ${coldCheck.warmMs} ms; goal ≤ ${coldCheck.goal}×${goal(coldCheck.ratio, coldCheck.goal)}).\n`;
const shardRun = extra.shards?.results;
if (shardRun) md += `\n**render --check --frozen on ${shardRun.clusters.toLocaleString('en-US')} topology clusters (${shardRun.cache} cache), ${shardRun.shards} shards:** whole ${shardRun.wholeMs} ms, shards ${shardRun.shardMs.join(' / ')} ms (whole / ${shardRun.shards} = ${shardRun.perShardIdealMs} ms; fixed cost per job ${shardRun.fixedMs} ms).\n`;
const fleet = extra.fleet?.results;
for (const r of fleet?.commands ?? []) {
  md += `\n**${r.command}, ${r.big.clusters.toLocaleString('en-US')} / ${r.small.clusters} topology clusters = ${r.ratio.toFixed(2)}×** wall, ${r.cpuRatio.toFixed(2)}× CPU (whole process, goal ≤ ${fleet.ratioGoal ?? 8}× for 10× the clusters; peak RSS ${r.big.peakRssMb} MB, goal ≤ ${fleet.rssLimitMb} MB${r.big.peakRssMb <= fleet.rssLimitMb ? ', meets' : ', misses'}).\n`;
}
if (previousBin) {
  md += `\nAgainst the previous capiform (${previousDir}): generate ${fmt(capiform.median / previousGenerate.median)}, render --check ${fmt(check.median / previousCheck.median)} of its wall time (below 1× is faster).\n`;
}
md += `\nPackages loaded by \`generate provider\`: ${packagesLoaded.join(', ') || '(none)'}; heavy ones (${heavy.join(', ')}): ${heavyLoaded.length ? heavyLoaded.join(', ') : 'none'}.\n`;
for (const [name, r] of Object.entries(extra)) {
  md += `\n### bench/${name}.mjs\n\n${r.output || '(no output)'}\n`;
}
console.log(md);

mkdirSync(join(root, 'bench', 'out'), { recursive: true });
writeFileSync(
  join(root, 'bench', 'out', 'results.json'),
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      node: process.version,
      runs,
      input: { file: components, bytes: Buffer.byteLength(readFileSync(components)), namespace },
      capiform,
      capiformCold,
      kustomize,
      ratio,
      ratioCold,
      check,
      kustomizeTree,
      checkRatio,
      topology,
      previous: previousBin ? { dir: previousDir, generate: previousGenerate, check: previousCheck } : null,
      startup,
      node_bare: nodeBare,
      nodeExtraCa,
      packagesLoaded,
      heavyLoaded,
      extra,
    },
    null,
    2,
  )}\n`,
);
rmSync(work, { recursive: true, force: true });
if (heavyLoaded.length > 0) process.exitCode = 1;

#!/usr/bin/env node
// `npm run bench`: whole-process timings of `capiform generate provider` on the corpus's cluster-api core components
// next to `kubectl kustomize` applying the same namespace and the two clusterctl labels to the same file, plus
// startup time, a check that `generate` loads none of the heavy dependencies, and the figures of the other
// bench/*.mjs scripts when present. Prints a markdown table and writes bench/out/results.json.
//
// Env: CAPIFORM_CORPUS_DIR (default ../shared/corpus), BENCH_RUNS (default 9), BENCH_EXTRAS=0 (skip the other scripts).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { corpusDir } from './corpus.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const corpus = corpusDir;
const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 9));
const version = 'v1.13.5';
const namespace = 'capi-bench';
const components = join(corpus, 'repository', 'cluster-api', version, 'core-components.yaml');
const bin = join(root, 'bin', 'capiform.js');

if (!existsSync(components)) {
  console.log(`bench: corpus not found at ${corpus} (set CAPIFORM_CORPUS_DIR); nothing to measure`);
  process.exit(0);
}
if (!existsSync(join(root, 'dist', 'cli', 'main.js'))) {
  console.error('bench: dist/ is not built; run `npm run build` first');
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

const env = { PATH: process.env.PATH, HOME: work, NO_COLOR: '1' };

function time(cmd, args, opts = {}) {
  const start = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { env: { ...env, ...opts.env }, cwd: work, maxBuffer: 1 << 28, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr || r.error}`);
  return { ms, stdout: r.stdout };
}

function series(label, cmd, args, opts = {}) {
  // opts.freshCache: every run gets an empty CAPIFORM_CACHE_DIR (no memoised render).
  const runOpts = () => (opts.freshCache ? { env: { CAPIFORM_CACHE_DIR: mkdtempSync(join(work, 'cold-')) } } : opts);
  time(cmd, args, runOpts()); // warm the page cache (and, without freshCache, capiform's render cache)
  const samples = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const r = time(cmd, args, runOpts());
    samples.push(r.ms);
    bytes = Buffer.byteLength(r.stdout);
  }
  samples.sort((a, b) => a - b);
  const median = samples.length % 2 ? samples[(samples.length - 1) / 2] : (samples[samples.length / 2 - 1] + samples[samples.length / 2]) / 2;
  return { label, median, min: samples[0], max: samples[samples.length - 1], runs, outputBytes: bytes };
}

const round = (n) => Math.round(n * 10) / 10;

const generateArgs = [bin, 'generate', 'provider', '--core', `cluster-api:${version}`, '--target-namespace', namespace, '--config', clusterctlYaml];
const capiform = series('capiform generate provider (warm render cache)', process.execPath, generateArgs);
const capiformCold = series('capiform generate provider (cold, empty cache)', process.execPath, generateArgs, { freshCache: true });
let kustomize = null;
try {
  kustomize = series('kubectl kustomize', 'kubectl', ['kustomize', kdir]);
} catch (err) {
  console.error(`bench: kubectl kustomize unavailable (${err.message.split('\n')[0]}); reporting capiform only`);
}
const startup = series('capiform --version (startup)', process.execPath, [bin, '--version']);
const nodeBare = series('node -e 0 (bare Node.js)', process.execPath, ['-e', '0']);

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
spawnSync(process.execPath, ['--import', pathToFileURL(register).href, ...generateArgs], { env, cwd: work, maxBuffer: 1 << 28 });
const loaded = readFileSync(loadedFile, 'utf8').split('\n').filter(Boolean);
const heavy = ['octokit', 'zod', 'handlebars', 'jiti'];
const heavyLoaded = heavy.filter((h) => loaded.some((u) => u.includes(`/node_modules/${h}/`) || u.includes(`/node_modules/@${h}/`)));
const packagesLoaded = [...new Set(loaded.map((u) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u)?.[1]).filter(Boolean))].sort();

// Other helpers' micro-benchmarks, when present.
const extra = {};
// BENCH_EXTRAS=0 skips them (the pipeline bench alone renders 10,000 clusters).
const extras = process.env.BENCH_EXTRAS === '0' ? [] : ['substitute', 'linearity', 'components', 'pipeline', 'diff', 'bundle', 'topology'];
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

const ratio = kustomize ? capiform.median / kustomize.median : null;
const rows = [capiform, capiformCold, kustomize, startup, nodeBare].filter(Boolean);
const ratioCold = kustomize ? capiformCold.median / kustomize.median : null;
let md = `## Benchmark: generate provider (cluster-api ${version} core components, ${round(Buffer.byteLength(readFileSync(components)) / 1048576)} MB, target namespace)\n\n`;
md += `Whole process, ${runs} runs after one warm-up, Node ${process.version}.\n\n`;
md += '| command | median (ms) | min (ms) | max (ms) | output (bytes) |\n| --- | ---: | ---: | ---: | ---: |\n';
for (const r of rows) md += `| ${r.label} | ${round(r.median)} | ${round(r.min)} | ${round(r.max)} | ${r.outputBytes} |\n`;
md += '\n';
md +=
  ratio === null
    ? 'kubectl kustomize: not available.\n'
    : `**capiform / kustomize = ${ratio.toFixed(2)}×** with the render cache (the default), ${ratioCold.toFixed(2)}× cold (target ≤ 0.5×)\n`;
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
      startup,
      node_bare: nodeBare,
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

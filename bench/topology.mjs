// ClusterClass topology expansion scales linearly: expanding 1,000 Clusters of the CAPD quick-start class takes
// about 10× expanding 100 (the class and its templates are prepared once, not per Cluster). Each size is timed in
// the same run, best of three, so the ratio does not depend on the machine. Prints a table and one JSON line, writes
// bench/out/topology.json; exits 1 when the ratio reaches 20 (quadratic would be 100). Run `npm run build` first.
//   node bench/topology.mjs
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expandTopology, parseManifests, substitute } from '../dist/index.js';
import { corpusDir, repoRoot } from './corpus.mjs';

const limit = 20;
const release = join(corpusDir, 'repository', 'infrastructure-docker', 'v1.13.5');
if (!existsSync(release)) {
  console.log(`bench/topology: corpus not found at ${corpusDir} (set CAPIFORM_CORPUS_DIR); nothing to measure`);
  process.exit(0);
}
const classObjects = parseManifests(readFileSync(join(release, 'clusterclass-quick-start.yaml'), 'utf8'));
const clusterTemplate = readFileSync(join(release, 'cluster-template-development.yaml'), 'utf8');

function fleet(n) {
  const objects = [...classObjects];
  for (let i = 0; i < n; i++) {
    const vars = { CLUSTER_NAME: `cluster-${i}`, NAMESPACE: 'default', KUBERNETES_VERSION: 'v1.33.0', CONTROL_PLANE_MACHINE_COUNT: '3', WORKER_MACHINE_COUNT: String(i % 7) };
    objects.push(...parseManifests(substitute(clusterTemplate, vars)));
  }
  return objects;
}

function timeOf(objects) {
  const start = process.hrtime.bigint();
  const { clusters } = expandTopology(objects);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const errors = clusters.reduce((n, c) => n + c.errors.length, 0);
  if (errors > 0) throw new Error(`bench/topology: ${errors} expansion errors, e.g. ${JSON.stringify(clusters.find((c) => c.errors.length)?.errors[0])}`);
  return { ms, objects: clusters.reduce((n, c) => n + c.objects.length, 0) };
}

const small = fleet(100);
const big = fleet(1000);
timeOf(small); // warm-up
const best = (objects) => [timeOf(objects), timeOf(objects), timeOf(objects)].reduce((a, b) => (b.ms < a.ms ? b : a));
const s = best(small);
const b = best(big);
const ratio = b.ms / Math.max(s.ms, 0.001);
const rssMb = process.resourceUsage().maxRSS / 1024;
const round = (n) => Math.round(n * 10) / 10;
let md = '| clusters | objects out | time (ms) |\n| ---: | ---: | ---: |\n';
md += `| 100 | ${s.objects} | ${round(s.ms)} |\n| 1,000 | ${b.objects} | ${round(b.ms)} |\n\n`;
md += `1,000 / 100 = **${ratio.toFixed(1)}×** (linear 10×, quadratic 100×); peak RSS ${round(rssMb)} MB.\n`;
console.log(md);
const result = { name: 'topology', limit, smallMs: round(s.ms), bigMs: round(b.ms), ratio: round(ratio), peakRssMb: round(rssMb) };
console.log(JSON.stringify(result));
mkdirSync(join(repoRoot, 'bench', 'out'), { recursive: true });
writeFileSync(join(repoRoot, 'bench', 'out', 'topology.json'), `${JSON.stringify(result, null, 2)}\n`);
if (ratio >= limit) process.exitCode = 1;

// Timing of the components pipeline (src/yaml + src/render/components) on the corpus's cluster-api core components.
//   node bench/components.mjs [file] [--runs N]        (imports from dist/: run `npm run build` first)
// Reports, per step, in-process times (parse, transform, emit, go-yaml emit, full-parse reference path), then the
// whole-process time of a fresh `node` rendering the file with a target namespace: uncached, and memoised (the disk memo).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { corpusDir } from './corpus.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const dist = resolve(here, '../dist');
const args = process.argv.slice(2);
const runsIdx = args.indexOf('--runs');
const runs = runsIdx >= 0 ? Number(args[runsIdx + 1]) : 5;
const file =
  args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--runs') ??
  join(corpusDir, 'repository/cluster-api/v1.13.5/core-components.yaml');

// A child process that does what `capiform generate provider -n ns` does after fetching: substitute, render, print.
const child = `
const t0 = performance.now();
const { readFileSync, writeSync } = await import('node:fs');
const { renderComponents } = await import(${JSON.stringify(pathToFileURL(join(dist, 'render/components/index.js')).href)});
const { diskComponentsMemo } = await import(${JSON.stringify(pathToFileURL(join(dist, 'pipeline/generate/components-memo.js')).href)});
const { listVariables, process: subst } = await import(${JSON.stringify(pathToFileURL(join(dist, 'envsubst/index.js')).href)});
const raw = readFileSync(process.argv[1], 'utf8');
const required = new Set(listVariables(raw).filter((v) => v.default === null).map((v) => v.name));
const text = subst(raw, (n) => (required.has(n) ? 'x' : undefined));
const c = renderComponents({ text, providerName: 'cluster-api', providerType: 'CoreProvider', manifestLabel: 'cluster-api',
  version: 'v1.13.5', targetNamespace: 'capi-bench', memo: process.argv[2] ? diskComponentsMemo(process.argv[2]) : undefined });
const out = c.yaml();
writeSync(2, JSON.stringify({ inProcess: performance.now() - t0, bytes: out.length }) + '\\n');
`;

function wholeProcess(cacheDir) {
  const t = performance.now();
  const r = execFileSync(process.execPath, ['--input-type=module', '-e', child, file, cacheDir ?? ''], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  void r;
  return performance.now() - t;
}

const { renderComponents } = await import(pathToFileURL(join(dist, 'render/components/index.js')).href);
const { parseDocuments } = await import(pathToFileURL(join(dist, 'yaml/index.js')).href);
const { listVariables, process: subst } = await import(pathToFileURL(join(dist, 'envsubst/index.js')).href);
const raw = readFileSync(file, 'utf8');
const required = new Set(listVariables(raw).filter((v) => v.default === null).map((v) => v.name));
const text = subst(raw, (n) => (required.has(n) ? 'x' : undefined));
const input = {
  text,
  providerName: 'cluster-api',
  providerType: 'CoreProvider',
  manifestLabel: 'cluster-api',
  version: 'v1.13.5',
  targetNamespace: 'capi-bench',
};
const time = (fn) => {
  const t = performance.now();
  const r = fn();
  return [performance.now() - t, r];
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const steps = { parse: [], 'parse+transform': [], emit: [], emitClusterctl: [], fullParsePath: [] };
for (let i = 0; i < runs; i++) {
  const [parse] = time(() => parseDocuments(text));
  const [render, c] = time(() => renderComponents(input));
  steps.parse.push(parse);
  steps['parse+transform'].push(render);
  steps.emit.push(time(() => c.yaml())[0]);
  steps.emitClusterctl.push(time(() => c.yaml('clusterctl'))[0]);
  steps.fullParsePath.push(time(() => renderComponents({ ...input, fast: false }).yaml())[0]);
}
const cold = [];
const cached = [];
const cacheDir = mkdtempSync(join(tmpdir(), 'capiform-bench-'));
try {
  for (let i = 0; i < runs; i++) cold.push(wholeProcess());
  wholeProcess(cacheDir); // fill
  for (let i = 0; i < runs; i++) cached.push(wholeProcess(cacheDir));
} finally {
  rmSync(cacheDir, { recursive: true, force: true });
}
const f = (n) => `${n.toFixed(1)} ms`;
console.log(
  `components bench: ${file} (${(text.length / 1048576).toFixed(2)} MB), ${runs} runs, medians; load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
for (const [k, v] of Object.entries(steps)) console.log(`  in-process ${k.padEnd(15)} ${f(median(v))}  (first run ${f(v[0])})`);
console.log(`  whole process (node start + import + substitute + render + emit), uncached: ${f(median(cold))}`);
console.log(`  whole process, memoised on disk:                                       ${f(median(cached))}`);

// Timing of the components pipeline (src/yaml + src/render/components) on the corpus's cluster-api core components.
// Usage: node bench/components.mjs [file] [--runs N]   (imports from dist/: run `npm run build` first)
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const t0 = performance.now();
const here = dirname(fileURLToPath(import.meta.url));
const { renderComponents } = await import(resolve(here, '../dist/render/components/index.js'));
const { parseDocuments } = await import(resolve(here, '../dist/yaml/index.js'));
const tImport = performance.now() - t0;

const args = process.argv.slice(2);
const runsIdx = args.indexOf('--runs');
const runs = runsIdx >= 0 ? Number(args[runsIdx + 1]) : 5;
const file =
  args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--runs') ??
  resolve(process.env.CAPIFORM_SHARED_DIR ?? resolve(here, '../../shared'), 'corpus/repository/cluster-api/v1.13.5/core-components.yaml');
// Stand-in for variable substitution: ${VAR:=default} -> default, ${VAR} -> "x".
const raw = readFileSync(file, 'utf8');
const text = raw.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?[=-]([^}]*))?\}/g, (_m, _n, d) => d ?? 'x');
const input = {
  text,
  providerName: 'cluster-api',
  providerType: 'CoreProvider',
  manifestLabel: 'cluster-api',
  version: 'v1.13.5',
  targetNamespace: 'capi-bench',
};

function time(fn) {
  const t = performance.now();
  const r = fn();
  return [performance.now() - t, r];
}

const rows = [];
for (let i = 0; i < runs; i++) {
  const [parse] = time(() => parseDocuments(text));
  const [render, c] = time(() => renderComponents(input));
  const [emit, out] = time(() => c.yaml());
  const [emitGo] = time(() => c.yaml('clusterctl'));
  const [slow] = time(() => renderComponents({ ...input, fast: false }).yaml());
  rows.push({ run: i + 1, parse, transform: render - parse, render, emit, emitClusterctl: emitGo, slowPath: slow, bytes: out.length });
}
const fmt = (n) => (typeof n === 'number' && !Number.isInteger(n) ? n.toFixed(1) : n);
console.log(`file: ${file} (${(text.length / 1048576).toFixed(2)} MB), module import ${tImport.toFixed(1)} ms`);
console.log('ms per step (first run includes JIT warm-up):');
for (const r of rows) console.log(Object.entries(r).map(([k, v]) => `${k}=${fmt(v)}`).join(' '));
console.log(`whole script so far: ${(performance.now() + 0).toFixed(0)} ms since process start`);

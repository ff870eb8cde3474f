// Substitution is one linear pass: on adversarial templates (dense `${`, `$$`, deep nested defaults, unterminated
// defaults, replace escapes) 5× the input takes about 5× the time; a quadratic pass would take 25×. Each case times
// the small and the big input in the same run, best of several, so the ratio is independent of the machine's speed.
// Prints a table and one JSON line; exits 1 when a ratio reaches 15. Run `npm run build` first.
//   node bench/linearity.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { substitute } from '../dist/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const limit = 15;

function timeOf(text, vars) {
  const start = process.hrtime.bigint();
  try {
    substitute(text, vars);
  } catch {
    // error paths must be linear too
  }
  return Number(process.hrtime.bigint() - start) / 1e6;
}

// [name, template of about n bytes, small size]
const adversarial = [
  ['many ${, $$ and legacy ${ A }', (n) => '${A}$$${A} $${ ${ A } $ '.repeat(n / 24), 1_000_000],
  ['deeply nested defaults', (n) => '${A:='.repeat(n / 5) + 'x' + '}'.repeat(n / 5), 400_000],
  ['nested defaults with text', (n) => '${U:=ab${V:=cd}ef}'.repeat(n / 18), 400_000],
  ['unterminated default after legacy-looking runs', (n) => '${ $$$$$$$$ '.repeat(n / 24) + '${A:=' + 'x'.repeat(n / 2), 1_000_000],
  ['replace escapes', (n) => '${A/\\/\\\\/$$x}'.repeat(n / 14), 400_000],
];

const vars = { A: 'abc' };
const results = [];
for (const [name, make, size] of adversarial) {
  const small = make(size);
  const big = make(5 * size);
  timeOf(small, vars); // warm-up
  const bigMs = Math.min(timeOf(big, vars), timeOf(big, vars), timeOf(big, vars));
  const smallMs = Math.min(timeOf(small, vars), timeOf(small, vars), timeOf(small, vars));
  results.push({ name, smallBytes: small.length, bigBytes: big.length, smallMs, bigMs, ratio: bigMs / Math.max(smallMs, 0.001) });
}

const round = (n) => Math.round(n * 10) / 10;
let md = '| template | small (ms) | 5× (ms) | ratio (linear 5×, quadratic 25×) |\n| --- | ---: | ---: | ---: |\n';
for (const r of results) md += `| ${r.name} | ${round(r.smallMs)} | ${round(r.bigMs)} | ${r.ratio.toFixed(1)}×${r.ratio >= limit ? ' (not linear)' : ''} |\n`;
console.log(md);
console.log(JSON.stringify({ name: 'linearity', limit, results: results.map((r) => ({ ...r, smallMs: round(r.smallMs), bigMs: round(r.bigMs), ratio: round(r.ratio) })) }));
mkdirSync(join(root, 'bench', 'out'), { recursive: true });
writeFileSync(join(root, 'bench', 'out', 'linearity.json'), `${JSON.stringify({ limit, results }, null, 2)}\n`);
if (results.some((r) => r.ratio >= limit)) process.exitCode = 1;

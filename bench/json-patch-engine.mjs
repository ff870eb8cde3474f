// Alternated comparison of the JSON patch engine (dist/go/json-patch, evanphx behaviour, copy on write) against
// fast-json-patch's applyPatch on a copy (what a caller that keeps its input must do) and in place.
//   npm run build && node bench/json-patch-engine.mjs
import jsonpatch from 'fast-json-patch';
import { applyJsonPatch } from '../dist/go/json-patch/index.js';

const template = { apiVersion: 'v1', kind: 'T', metadata: { name: 'x', labels: {} }, spec: { template: { spec: {} } } };
for (let i = 0; i < 200; i++) template.spec.template.spec[`f${i}`] = { a: i, list: Array.from({ length: 10 }, (_, j) => ({ n: j, s: `v${j}` })) };
const ops = [
  { op: 'add', path: '/metadata/labels/team', value: 'gold' },
  { op: 'replace', path: '/spec/template/spec/f10/a', value: 7 },
  { op: 'remove', path: '/spec/template/spec/f20/list/3' },
  { op: 'add', path: '/spec/template/spec/f30/list/-', value: { n: 99 } },
];
// A fresh document for the in-place runs: undo what the patch did (cheaper than a copy, the same for both).
const f10 = template.spec.template.spec.f10;
const f20 = template.spec.template.spec.f20.list;
const f30 = template.spec.template.spec.f30.list;
const fresh = () => {
  delete template.metadata.labels.team;
  f10.a = 10;
  if (f20.length === 9) f20.splice(3, 0, { n: 3, s: 'v3' });
  if (f30.length === 11) f30.pop();
  return template;
};
const runs = {
  'ours, copy on write (ClusterClass)': () => applyJsonPatch(fresh(), ops),
  'fast-json-patch on a deep copy': () => jsonpatch.applyPatch(structuredClone(fresh()), structuredClone(ops), true, true).newDocument,
  'ours, in place (a config patch)': () => applyJsonPatch(fresh(), ops, { inPlace: true }),
  'fast-json-patch, in place': () => jsonpatch.applyPatch(fresh(), ops, true, true).newDocument,
};
const n = 2000;
const times = Object.fromEntries(Object.keys(runs).map((k) => [k, []]));
for (let round = 0; round < 6; round++) {
  for (const [name, fn] of Object.entries(runs)) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < n; i++) fn();
    times[name].push(Number(process.hrtime.bigint() - t) / 1e6 / n);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const base = median(times['ours, copy on write (ClusterClass)']);
for (const [name, xs] of Object.entries(times)) console.log(`${name.padEnd(38)} ${(median(xs) * 1000).toFixed(1)} µs/patch  (${(median(xs) / base).toFixed(2)}x copy on write)`);

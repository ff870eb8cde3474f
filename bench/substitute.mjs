// Throughput of `substitute` (clusterctl-exact variable substitution) over every file of the shared corpus,
// concatenated. Prints one JSON line: {"name":"substitute","mbPerSec":…}. Run `npm run build` first.
//   node bench/substitute.mjs [repositoryDir]   (default: the corpus's repository/, see bench/corpus.mjs)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { listVariables, substitute } from '../dist/index.js';
import { corpusDir } from './corpus.mjs';

const corpus = process.argv[2] ? resolve(process.argv[2]) : join(corpusDir, 'repository');

function files(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = join(dir, name);
      return statSync(p).isDirectory() ? files(p) : [p];
    });
}

let text;
try {
  text = files(corpus)
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
} catch {
  console.error(`bench/substitute: corpus not found at ${corpus}; skipped`);
  process.exit(0);
}
const bytes = Buffer.byteLength(text);
// Every variable the corpus uses gets a value, so the whole text is substituted (no missing-variable error).
const variables = Object.fromEntries(listVariables(text).map((v) => [v.name, `value-of-${v.name}`]));

for (let i = 0; i < 3; i++) substitute(text, variables); // warm-up
const runs = 10;
const start = process.hrtime.bigint();
let out = 0;
for (let i = 0; i < runs; i++) out += substitute(text, variables).length;
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
const mbPerSec = (bytes * runs) / seconds / 1e6;
console.log(
  JSON.stringify({
    name: 'substitute',
    mbPerSec: Math.round(mbPerSec * 10) / 10,
    inputBytes: bytes,
    variables: Object.keys(variables).length,
    runs,
    outputChars: out / runs,
  }),
);

#!/usr/bin/env node
// Differential fuzzer: random cases from a seed, answered by the Go oracle (./main.go, the real libraries) and by
// capiform's own functions (from the built dist/), compared, and every disagreement minimised and saved.
//
//   node scripts/oracle/fuzz.mjs --seed 1 --cases 2000 [--family template|patch|schema] [--out dir] [--messages]
//
// Run `npm run build` and `sh scripts/oracle/build.sh` first. See ./README.md.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');

function usage(message) {
  process.stderr.write(`fuzz: ${message}\nusage: node scripts/oracle/fuzz.mjs --seed N --cases M [--family template|patch|schema] [--out DIR] [--messages]\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { seed: 1, cases: 1000, families: ['template', 'patch', 'schema'], out: join(here, '.build', 'findings'), messages: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      const v = argv[++i];
      if (v === undefined) usage(`${a} needs a value`);
      return v;
    };
    if (a === '--seed') opts.seed = Number(next());
    else if (a === '--cases') opts.cases = Number(next());
    else if (a === '--family') opts.families = next().split(',');
    else if (a === '--out') opts.out = resolve(next());
    else if (a === '--messages') opts.messages = true;
    else usage(`unknown argument ${a}`);
  }
  if (!Number.isSafeInteger(opts.seed) || opts.seed < 0) usage('--seed must be a non-negative integer');
  if (!Number.isSafeInteger(opts.cases) || opts.cases < 1 || opts.cases > 1_000_000) usage('--cases must be 1..1000000');
  for (const f of opts.families) if (!['template', 'patch', 'schema'].includes(f)) usage(`unknown family ${f}`);
  return opts;
}

// ---------------------------------------------------------------------------------------------------------------
// Seeded randomness (mulberry32): the same seed gives the same cases on every machine.

function rng(seed) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const r = {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: (p) => next() < p,
    pick: (list) => list[Math.floor(next() * list.length)],
  };
  return r;
}

// ---------------------------------------------------------------------------------------------------------------
// Values: YAML-ish scalars are the strings YAML 1.1 and JSON read differently.

const yamlishStrings = [
  '', 'a', 'abc', 'x y', ' a', 'a ', 'true', 'True', 'yes', 'no', 'on', 'off', 'y', 'n', 'null', 'Null', '~', '1', '01',
  '1.0', '1e3', '0x1F', '0o17', '017', '-1', '+1', '.5', '1_000', '.inf', '-.Inf', '.nan', 'a: b', 'a:b', '- x', '-', ':',
  '#c', 'a #c', "'q'", '"d"', '[1]', '{a: 1}', '{}', '[]', 'é', '日本', 'a\nb', 'a\tb', '\\', '%', '&a', '*a', '!x', '|',
  '>', '@', '`', '2001-12-14', '12:30', '1:20', '0b101', '=', '<<', 'v1.2.3', '1.2.3', '10.0.0.1', 'a,b', 'a.b.c',
];

function jsonValue(r, depth = 0) {
  const k = r.int(0, depth > 1 ? 4 : 6);
  if (k <= 1) return r.pick(yamlishStrings);
  if (k === 2) return r.pick([0, 1, -1, 2, 3, 10, 255, 1.5, -0.25, 1e21, 123456789, 0.1, 1e-7]);
  if (k === 3) return r.pick([true, false]);
  if (k === 4) return r.chance(0.5) ? null : r.pick(yamlishStrings);
  if (k === 5) return Array.from({ length: r.int(0, 3) }, () => jsonValue(r, depth + 1));
  const o = {};
  for (let i = r.int(0, 3); i > 0; i--) o[r.pick(['a', 'b', 'k', 'name', 'x-y', '1'])] = jsonValue(r, depth + 1);
  return o;
}

// ---------------------------------------------------------------------------------------------------------------
// Templates: text/template + sprig, built from a grammar of pipelines, literals, control actions and broken syntax.

const stringFns = ['upper', 'lower', 'title', 'untitle', 'trim', 'trimAll', 'trimPrefix', 'trimSuffix', 'quote', 'squote', 'toString', 'b64enc', 'b64dec', 'camelcase', 'snakecase', 'kebabcase', 'swapcase', 'nospace', 'initials', 'wrap', 'plural', 'repeat', 'trunc', 'abbrev', 'substr', 'indent', 'nindent', 'replace', 'contains', 'hasPrefix', 'hasSuffix', 'cat', 'split', 'splitList', 'splitn', 'join', 'sha256sum', 'adler32sum', 'toJson', 'toPrettyJson', 'toRawJson', 'fromJson', 'mustFromJson', 'toStrings', 'regexMatch', 'regexFind', 'regexFindAll', 'regexReplaceAll', 'regexReplaceAllLiteral', 'regexSplit', 'regexQuoteMeta', 'urlquery', 'html', 'js', 'print', 'println', 'printf', 'len', 'index', 'slice', 'not', 'and', 'or', 'eq', 'ne', 'lt', 'le', 'gt', 'ge'];
const otherFns = ['default', 'empty', 'coalesce', 'ternary', 'list', 'dict', 'get', 'set', 'unset', 'hasKey', 'keys', 'values', 'pluck', 'pick', 'omit', 'merge', 'first', 'last', 'rest', 'initial', 'append', 'prepend', 'concat', 'reverse', 'uniq', 'without', 'has', 'compact', 'sortAlpha', 'until', 'untilStep', 'seq', 'add', 'add1', 'sub', 'mul', 'div', 'mod', 'max', 'min', 'floor', 'ceil', 'round', 'int', 'int64', 'float64', 'atoi', 'typeOf', 'kindOf', 'typeIs', 'kindIs', 'deepEqual', 'deepCopy', 'semver', 'semverCompare', 'dig', 'toDecimal', 'addf', 'maxf', 'minf', 'biggest', 'chunk', 'mustFirst', 'mustLast', 'mustToJson', 'fail', 'required', 'nospace', 'shuffle', 'sha1sum', 'base', 'dir', 'ext', 'clean', 'isAbs', 'osBase', 'env', 'expandenv', 'now', 'date', 'randAlpha', 'uuidv4', 'bogusFn'];

function goStringLiteral(r, s) {
  if (r.chance(0.15)) return '`' + s.replace(/`/g, '') + '`';
  return JSON.stringify(s).replace(/\\u00([0-9a-f]{2})/g, '\\x$1');
}

function operand(r, vars, depth) {
  const k = r.int(0, depth > 1 ? 6 : 8);
  const names = Object.keys(vars);
  if (k <= 2 && names.length > 0) {
    const name = r.pick(names);
    const v = vars[name];
    if (v && typeof v === 'object' && !Array.isArray(v) && r.chance(0.5)) {
      const keys = Object.keys(v);
      return `.${name}.${keys.length > 0 && r.chance(0.8) ? keys[0].replace(/[^A-Za-z0-9_]/g, '') || 'k' : 'missing'}`;
    }
    return `.${name}`;
  }
  if (k === 3) return goStringLiteral(r, r.pick(yamlishStrings));
  if (k === 4) return r.pick(['0', '1', '-1', '2', '3', '1.5', '0x10', "'a'", '1e2', '-0', '007', 'true', 'false', 'nil']);
  if (k === 5) return r.pick(['.', '$', '.missing', '$.a']);
  if (k === 6 || depth > 1 || k <= 2) return goStringLiteral(r, r.pick(['^a', 'b+', '[0-9]+', '(.)', 'z', '', '\\d', '.*', ',', ' ', 'x', '-']));
  return `(${pipeline(r, vars, depth + 1)})`;
}

function call(r, vars, depth) {
  const fn = r.chance(0.55) ? r.pick(stringFns) : r.pick(otherFns);
  const args = Array.from({ length: r.int(0, 3) }, () => operand(r, vars, depth));
  return [fn, ...args].join(' ');
}

function pipeline(r, vars, depth = 0) {
  let p = r.chance(0.4) ? operand(r, vars, depth) : call(r, vars, depth);
  for (let i = r.chance(0.5) ? r.int(1, 2) : 0; i > 0; i--) p += ` | ${call(r, vars, depth + 1)}`;
  return p;
}

function action(r, vars) {
  const open = r.chance(0.15) ? '{{- ' : '{{ ';
  const close = r.chance(0.15) ? ' -}}' : ' }}';
  const k = r.int(0, 12);
  if (k === 0) return `${open}if ${pipeline(r, vars)}${close}${textPiece(r)}${r.chance(0.5) ? `{{ else }}${textPiece(r)}` : ''}{{ end }}`;
  if (k === 1) return `${open}range ${r.chance(0.5) ? '$i, $v := ' : ''}${pipeline(r, vars)}${close}{{ ${r.pick(['.', '$v', '$i', 'quote .'])} }}${r.pick(['', ',', '\n', ' '])}{{ end }}`;
  if (k === 2) return `${open}with ${pipeline(r, vars)}${close}{{ . }}{{ end }}`;
  if (k === 3) return `{{ $x := ${pipeline(r, vars)} }}{{ $x${r.chance(0.3) ? ' | quote' : ''} }}`;
  if (k === 4) {
    // Syntax Go's parser rejects (or accepts in surprising ways).
    return r.pick(['{{ .a', '{{ }}', '{{ end }}', '{{ if }}', '{{ .a | }}', '{{ | .a }}', '{{ "a }}', '{{ .a.b.c. }}', '{{ 1 2 }}', '{{ (1) }}', '{{ $y }}', '{{ .a) }}', '{{ else }}', '{{/* c */}}', '{{- /* c */ -}}', '{{ break }}', '{{ continue }}', '{{ define "x" }}a{{ end }}', '{{ template "x" }}', '{{ block "b" . }}z{{ end }}', '{{ .A }}', '{{ ."a" }}', '{{ $ := 1 }}', '{{ 08 }}', '{{ 1.e }}', '{{ "\\q" }}', "{{ '' }}", "{{ 'ab' }}", '{{ -.5 }}', '{{ 0b11 }}', '{{ 1_0 }}', '{{ 0x_1 }}', '{{ nil }}', '{{ .a.b }}', '{{ printf }}', '{{ index }}']);
  }
  return `${open}${pipeline(r, vars)}${close}`;
}

function textPiece(r) {
  return r.pick(['', '"', "'", ' ', '\n', '\n  ', '- ', ': ', 'a: ', '[', ']', '{', '}', ',', '#', 'x', 'true', '1', '"a" ', ' ""', 'null', '~', '\t', '---\n', '...', '? ', '!!str ', '!!int ', '&a ', '*a', '|\n  ', '>\n  ', 'k: v\n', '- a\n- b', '%YAML 1.1\n---\n', '\\', 'é', '0x', '1.', 'é ']);
}

function templateCase(r) {
  const vars = {};
  for (let i = r.int(0, 3); i > 0; i--) vars[r.pick(['a', 'b', 's', 'n', 'l', 'o'])] = jsonValue(r);
  if (r.chance(0.3)) vars.builtin = { cluster: { name: r.pick(['c1', 'my-cluster', '1']), namespace: 'ns' } };
  const pieces = [];
  const n = r.int(1, 4);
  for (let i = 0; i < n; i++) pieces.push(r.chance(0.55) ? action(r, vars) : textPiece(r));
  return { family: 'template', template: pieces.join(''), variables: vars };
}

// ---------------------------------------------------------------------------------------------------------------
// JSON patches: all six operations, ~0/~1 escaping, the `-` index, negative and malformed indices, missing paths.

const escapeKey = (k) => k.replace(/~/g, '~0').replace(/\//g, '~1');

function patchDoc(r, depth = 0) {
  const o = {};
  for (let i = r.int(depth === 0 ? 1 : 0, 3); i > 0; i--) {
    const key = r.pick(['a', 'b', 'spec', 'a/b', 'a~b', '~0', '~1', '-', '0', '01', '', 'x y', 'é']);
    const k = r.int(0, depth > 1 ? 1 : 3);
    if (k <= 1) o[key] = jsonValue(r, 2);
    else if (k === 2) o[key] = Array.from({ length: r.int(0, 3) }, () => (r.chance(0.3) ? patchDoc(r, depth + 1) : jsonValue(r, 2)));
    else o[key] = patchDoc(r, depth + 1);
  }
  return o;
}

function pathsOf(v, prefix = '', out = []) {
  out.push(prefix);
  if (Array.isArray(v)) v.forEach((x, i) => pathsOf(x, `${prefix}/${i}`, out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) pathsOf(x, `${prefix}/${escapeKey(k)}`, out);
  return out;
}

function mutatePath(r, path) {
  const k = r.int(0, 14);
  if (k <= 5) return path;
  if (k === 6) return `${path}/-`;
  if (k === 7) return `${path}/${r.pick(['missing', '0', '1', '5', '-1', '-2', '-5', '01', '+1', ' 1', '1e0', '0x1', '99999999999999999999', '', '~', '~2', '~01', '~10'])}`;
  if (k === 8) return path.replace(/\/[^/]*$/, `/${r.pick(['missing', '9', '-1', '-'])}`);
  if (k === 9) return `${path}/missing/deeper`;
  if (k === 10) return path.replace(/^\//, '');
  if (k === 11) return `${path}/`;
  if (k === 12) return path.replace(/~1/g, '/').replace(/~0/g, '~');
  if (k === 13) return '';
  return `/${r.pick(['a', 'b', 'spec'])}`;
}

function patchCase(r) {
  const doc = patchDoc(r);
  const paths = pathsOf(doc);
  const ops = [];
  for (let i = r.int(1, 4); i > 0; i--) {
    const op = r.pick(['add', 'add', 'remove', 'replace', 'replace', 'move', 'copy', 'test', r.chance(0.2) ? 'bogus' : 'add']);
    const o = { op, path: mutatePath(r, r.pick(paths)) };
    if (op === 'move' || op === 'copy') o.from = mutatePath(r, r.pick(paths));
    if (op !== 'remove' && op !== 'move' && op !== 'copy' ? !r.chance(0.05) : r.chance(0.1)) o.value = r.chance(0.3) ? patchDoc(r, 2) : jsonValue(r, 1);
    if (op === 'test' && r.chance(0.5)) {
      // A test that can pass: the value at a path that exists.
      const p = r.pick(paths);
      o.path = p;
      o.value = p.split('/').slice(1).reduce((v, seg) => (v == null ? v : v[seg.replace(/~1/g, '/').replace(/~0/g, '~')]), doc) ?? null;
    }
    if (r.chance(0.03)) delete o.path;
    ops.push(o);
  }
  return { family: 'patch', doc, patch: ops };
}

// ---------------------------------------------------------------------------------------------------------------
// OpenAPI schemas: types, formats, enums, patterns, bounds, composition; values near the schema, then mutated.

const formats = ['uri', 'email', 'hostname', 'ipv4', 'ipv6', 'cidr', 'mac', 'uuid', 'uuid3', 'uuid4', 'uuid5', 'byte', 'password', 'date', 'duration', 'datetime', 'date-time', 'bsonobjectid', 'hexcolor', 'rgbcolor', 'isbn', 'creditcard', 'ssn', 'int32', 'unknown-format'];
const formatValues = ['', 'a', 'http://x', '/p', 'a@b.c', 'host.example', '-bad-', '10.0.0.1', '256.1.1.1', '::1', '10.0.0.0/8', '01:23:45:67:89:ab', '123e4567-e89b-12d3-a456-426614174000', 'aGVsbG8=', 'aGVsbG8', '2024-02-30', '2024-01-01', '1h30m', '5s', '2024-01-01T00:00:00Z', '2024-01-01T00:00:00', '507f1f77bcf86cd799439011', '#fff', 'rgb(1,2,3)', '978-3-16-148410-0', '4111111111111111', '123-45-6789', 'x y'];

function schemaOf(r, depth = 0) {
  const s = {};
  const type = r.pick(depth > 2 ? ['string', 'integer', 'number', 'boolean'] : ['string', 'string', 'integer', 'number', 'boolean', 'array', 'object', 'object', undefined]);
  if (type !== undefined) s.type = type;
  if (r.chance(0.1)) s.nullable = true;
  if (type === 'string') {
    if (r.chance(0.3)) s.maxLength = r.int(0, 5);
    if (r.chance(0.2)) s.minLength = r.int(0, 3);
    if (r.chance(0.2)) s.pattern = r.pick(['^a', 'b$', '^[a-z]+$', '[0-9]', '^$', '.', '^a{2}$', '\\d+', '(?i)^A']);
    if (r.chance(0.3)) s.format = r.pick(formats);
    if (r.chance(0.2)) s.enum = Array.from({ length: r.int(1, 3) }, () => r.pick(['a', 'b', '', '1', 'true']));
  } else if (type === 'integer' || type === 'number') {
    if (r.chance(0.3)) s.minimum = r.pick([0, 1, -1, 2.5]);
    if (r.chance(0.3)) s.maximum = r.pick([0, 3, 10, 2.5]);
    if (r.chance(0.15)) s.exclusiveMinimum = true;
    if (r.chance(0.15)) s.exclusiveMaximum = true;
    if (r.chance(0.2)) s.multipleOf = r.pick([2, 0.5, 3, 0.1]);
    if (r.chance(0.1)) s.enum = [1, 2, r.pick([3, 1.5, '1'])];
    if (r.chance(0.1)) s.format = r.pick(['int32', 'int64', 'float', 'double']);
  } else if (type === 'array') {
    s.items = schemaOf(r, depth + 1);
    if (r.chance(0.3)) s.maxItems = r.int(0, 3);
    if (r.chance(0.2)) s.minItems = r.int(0, 2);
    if (r.chance(0.2)) s.uniqueItems = true;
  } else if (type === 'object') {
    const props = {};
    for (let i = r.int(0, 3); i > 0; i--) props[r.pick(['a', 'b', 'c', 'x-y', 'a.b'])] = schemaOf(r, depth + 1);
    if (Object.keys(props).length > 0 || r.chance(0.5)) s.properties = props;
    if (r.chance(0.4)) s.required = [...new Set(Array.from({ length: r.int(1, 2) }, () => r.pick([...Object.keys(props), 'z'])))];
    // kube-openapi's SchemaOrBool reads a JSON text shorter than 4 bytes (`{}`) as `false`; apiextensions converts
    // structs and never does, so the schema always carries a description.
    if (r.chance(0.2)) s.additionalProperties = r.chance(0.5) ? false : { description: 'more', ...schemaOf(r, depth + 1) };
    if (r.chance(0.1)) s.maxProperties = r.int(0, 2);
    if (r.chance(0.1)) s.minProperties = r.int(0, 2);
  }
  if (depth < 2 && r.chance(0.08)) s[r.pick(['allOf', 'anyOf', 'oneOf'])] = [schemaOf(r, depth + 2), schemaOf(r, depth + 2)];
  if (depth < 2 && r.chance(0.04)) s.not = schemaOf(r, depth + 2);
  return s;
}

function valueFor(r, s, depth = 0) {
  if (r.chance(0.12) || depth > 4) return jsonValue(r, 2);
  switch (s.type) {
    case 'string':
      if (s.enum && r.chance(0.5)) return r.pick(s.enum);
      if (s.format && r.chance(0.7)) return r.pick(formatValues);
      return r.pick(['', 'a', 'ab', 'abc', 'abcdef', 'b', 'A', '12', 'aa', ' a', 'é', r.pick(formatValues)]);
    case 'integer':
      return r.pick([0, 1, 2, 3, -1, 10, 11, 4, 1.5, 2147483648, 9007199254740993]);
    case 'number':
      return r.pick([0, 1, 2.5, -1, 0.3, 10, 1e300, 0.1, 3, 1.5]);
    case 'boolean':
      return r.pick([true, false]);
    case 'array':
      return Array.from({ length: r.int(0, 4) }, () => valueFor(r, s.items ?? {}, depth + 1));
    case 'object': {
      const o = {};
      for (const [k, p] of Object.entries(s.properties ?? {})) if (r.chance(0.7)) o[k] = valueFor(r, p, depth + 1);
      if (r.chance(0.2)) o[r.pick(['extra', 'z'])] = jsonValue(r, 2);
      return o;
    }
    default:
      return jsonValue(r, 1);
  }
}

function schemaCase(r) {
  const schema = schemaOf(r);
  return { family: 'schema', schema, value: valueFor(r, schema) };
}

// ---------------------------------------------------------------------------------------------------------------
// The two sides.

function startOracle() {
  const bin = join(here, '.build', 'oracle');
  if (!existsSync(bin)) {
    process.stderr.write(`fuzz: ${bin} is missing: run sh scripts/oracle/build.sh first\n`);
    process.exit(2);
  }
  const child = spawn(bin, [], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = [];
  createInterface({ input: child.stdout }).on('line', (line) => waiting.shift()?.(JSON.parse(line)));
  child.on('exit', (code) => {
    for (const w of waiting.splice(0)) w({ ok: false, stage: 'oracle-exit', error: `oracle exited with ${code}` });
  });
  return {
    ask: (c) =>
      new Promise((res) => {
        waiting.push(res);
        child.stdin.write(`${JSON.stringify(c)}\n`);
      }),
    close: () => child.stdin.end(),
  };
}

async function loadCapiform() {
  const dist = join(root, 'dist');
  if (!existsSync(join(dist, 'topology', 'patches', 'index.js'))) {
    process.stderr.write('fuzz: dist/ is missing: run npm run build first\n');
    process.exit(2);
  }
  const load = (p) => import(pathToFileURL(join(dist, p)).href);
  const patches = await load('topology/patches/index.js');
  const openapi = await load('apiextensions/index.js');
  return { patches, openapi };
}

/** capiform's answer, in the oracle's shape: {ok, value|null|errors} or {ok:false, error}. */
function capiformAnswer(lib, c) {
  try {
    if (c.family === 'template') {
      const raw = Object.fromEntries(Object.entries(c.variables).map(([k, v]) => [k, JSON.stringify(v)]));
      const value = lib.patches.renderValueTemplate(c.template, lib.patches.variablesFromRawJSON(raw));
      return value === null ? { ok: true, null: true } : { ok: true, value };
    }
    if (c.family === 'patch') return { ok: true, value: lib.patches.applyJsonPatch(c.doc, c.patch) };
    const errors = lib.openapi.validateValue(c.schema, c.value, null, { compatibilityVersion: '1.32' });
    return { ok: errors.length === 0, errors };
  } catch (err) {
    const expected = ['ValueTemplateError', 'JsonPatchError'].includes(err?.constructor?.name);
    return { ok: false, error: String(err?.message ?? err), ...(expected ? {} : { crash: `${err?.constructor?.name}: ${err?.stack ?? err}` }) };
  }
}

const typeOfCode = { 601: 'FieldValueTypeInvalid', 602: 'FieldValueRequired', 603: 'FieldValueTooLong', 606: 'FieldValueNotSupported', 611: 'FieldValueTooMany', 615: 'FieldValueTooMany' };
/** kube-openapi errors as the field errors kubeOpenAPIResultToFieldErrors makes of them (type, field, detail). */
function oracleFieldErrors(errors) {
  return errors.map((e) => {
    if (e.code === undefined) return `FieldValueInvalid|<nil>|${e.message}`;
    const name = e.name && e.name !== '.' ? e.name.replace(/^\./, '') : '<nil>';
    const type = typeOfCode[e.code] ?? 'FieldValueInvalid';
    const detail = type === 'FieldValueInvalid' || type === 'FieldValueTypeInvalid' ? e.message : '';
    return `${type}|${name}|${detail}`;
  });
}
function capiformFieldErrors(errors) {
  return errors.map((e) => {
    const detail = e.type === 'FieldValueInvalid' || e.type === 'FieldValueTypeInvalid' ? e.detail : '';
    return `${e.type}|${e.field === '' ? '<nil>' : e.field}|${detail}`;
  });
}

const canonical = (v) => JSON.stringify(v, (_k, x) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x));

/**
 * A disagreement explained by Debian's older library versions (README.md, "Version differences"), or null. capiform
 * follows CAPI's pinned versions; these are reported apart, never "fixed".
 */
function versionDifference(c, go, ours) {
  if (c.family === 'template') {
    if (!go.ok && ours.ok && /range can't iterate over/.test(go.error ?? '')) return 'Go 1.22 text/template ranges over integers; Debian has Go 1.19';
    return null;
  }
  if (c.family === 'patch') {
    if (go.stage === 'panic' && !ours.ok) return 'json-patch 5.2 dereferences nil on a path through a missing container; capiform refuses the patch';
    const ops = c.patch.filter((o) => o && typeof o === 'object');
    if (ops.some((o) => (o.op === 'add' || o.op === 'replace') && !Object.hasOwn(o, 'value'))) return "json-patch 5.9 refuses add/replace without value (validateOperation); 5.2 adds null";
    if (ops.some((o) => o.path === '')) return 'json-patch 5.9 replaces the whole document on add/replace of ""; 5.2 fails';
    if (ops.some((o) => typeof o.path === 'string' && o.path.split('/').slice(1).includes(''))) return 'json-patch 5.9 reads an empty key as the container itself (partialDoc.get); 5.2 looks the key up';
    return null;
  }
  if (c.family === 'schema' && go.stage === 'panic' && /divide by zero/.test(go.panic)) return 'kube-openapi 2026 refuses multipleOf that truncates to 0 for integers (MultipleOfInt factor <= 0); 2021 divides by zero';
  const newer = /value must be of type \w+ (?:with format \w+|\(default format\)) in |MultipleOf declared for .* must be positive: 0/;
  if ((ours.errors ?? []).some((e) => newer.test(e.detail))) return 'kube-openapi 2026 checks values and bounds against the type and format (numberValidator Type/Format); 2021 does not';
  return null;
}

/** Why the two answers disagree, or null. */
function disagreement(c, go, ours, opts) {
  if (ours.crash) return `capiform crashed: ${ours.crash.split('\n')[0]}`;
  if (c.family === 'patch' && c.patch.some((o) => ['move', 'copy', 'test'].includes(o?.op))) {
    return ours.ok ? 'capiform applied move/copy/test, which inline patches may not use' : null;
  }
  if (go.stage === 'panic') return `the oracle panicked: ${go.panic}`;
  if (c.family === 'patch') {
    // CAPI reads the patched template back into an object: a patch that leaves no object is an error there.
    const goOk = go.ok && go.value !== null && typeof go.value === 'object' && !Array.isArray(go.value);
    if (goOk !== ours.ok) return goOk ? `Go applies the patch, capiform fails: ${ours.error}` : `Go fails (${go.error ?? 'not an object'}), capiform applies it`;
    if (goOk && canonical(go.value) !== canonical(ours.value)) return 'different patched documents';
    return null;
  }
  if (c.family === 'template') {
    if (go.ok !== ours.ok) return go.ok ? `Go renders, capiform fails: ${ours.error}` : `Go fails at ${go.stage} (${go.error}), capiform renders`;
    if (go.ok) {
      const g = go.null ? null : go.value;
      const o = ours.null ? null : ours.value;
      if (canonical(g) !== canonical(o)) return 'different values';
      return null;
    }
    if (opts.messages && !ours.error.includes(go.error)) return `different errors: Go ${JSON.stringify(go.error)}, capiform ${JSON.stringify(ours.error)}`;
    return null;
  }
  if (go.stage === 'input') return null;
  const g = oracleFieldErrors(go.errors ?? []).sort();
  const o = capiformFieldErrors(ours.errors ?? []).sort();
  if (go.ok !== ours.ok) return go.ok ? `Go accepts, capiform refuses: ${o.join('; ')}` : `Go refuses (${g.join('; ')}), capiform accepts`;
  if (opts.messages && g.join('\n') !== o.join('\n')) return `different errors:\n  Go       ${g.join('\n           ')}\n  capiform ${o.join('\n           ')}`;
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// Minimising: greedy removal of pieces while the two sides still disagree in the same way.

function* smaller(c) {
  if (c.family === 'template') {
    const t = c.template;
    const actions = t.match(/\{\{.*?\}\}|[^{]+|\{/gs) ?? [];
    for (let i = 0; i < actions.length; i++) yield { ...c, template: [...actions.slice(0, i), ...actions.slice(i + 1)].join('') };
    for (const name of Object.keys(c.variables)) {
      const { [name]: _, ...rest } = c.variables;
      yield { ...c, variables: rest };
    }
    for (let i = 0; i < t.length; i++) yield { ...c, template: t.slice(0, i) + t.slice(i + 1) };
    return;
  }
  if (c.family === 'patch') {
    for (let i = 0; i < c.patch.length; i++) yield { ...c, patch: [...c.patch.slice(0, i), ...c.patch.slice(i + 1)] };
    for (const k of Object.keys(c.doc)) {
      const { [k]: _, ...rest } = c.doc;
      yield { ...c, doc: rest };
    }
    return;
  }
  const keys = Object.keys(c.schema);
  for (const k of keys) {
    const { [k]: _, ...rest } = c.schema;
    yield { ...c, schema: rest };
  }
  if (c.schema.properties) {
    for (const k of Object.keys(c.schema.properties)) {
      const { [k]: _, ...rest } = c.schema.properties;
      yield { ...c, schema: { ...c.schema, properties: rest } };
    }
  }
  if (c.value && typeof c.value === 'object' && !Array.isArray(c.value)) {
    for (const k of Object.keys(c.value)) {
      const { [k]: _, ...rest } = c.value;
      yield { ...c, value: rest };
    }
  }
}

async function minimise(c, why, oracle, lib, opts) {
  const kind = why.split(':')[0];
  let best = c;
  for (let round = 0, changed = true; changed && round < 50; round++) {
    changed = false;
    for (const candidate of smaller(best)) {
      const go = await oracle.ask(candidate);
      const w = disagreement(candidate, go, capiformAnswer(lib, candidate), opts);
      if (w !== null && w.split(':')[0] === kind) {
        best = candidate;
        changed = true;
        break;
      }
    }
  }
  return best;
}

// ---------------------------------------------------------------------------------------------------------------

const generators = { template: templateCase, patch: patchCase, schema: schemaCase };

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const lib = await loadCapiform();
  const oracle = startOracle();
  const findings = [];
  const stats = {};
  const versions = new Map();
  for (const family of opts.families) {
    // Each family has its own stream, so `--family patch` reproduces the patch cases of a run of all three.
    const r = rng(opts.seed * 7919 + family.length * 104729 + family.charCodeAt(0));
    stats[family] = { cases: 0, agree: 0, disagree: 0, version: 0, goErrors: 0 };
    const pending = [];
    for (let i = 0; i < opts.cases; i++) {
      const c = generators[family](r);
      pending.push(oracle.ask(c).then((go) => ({ c, go, index: i })));
    }
    for (const { c, go, index } of await Promise.all(pending)) {
      stats[family].cases++;
      if (!go.ok) stats[family].goErrors++;
      const ours = capiformAnswer(lib, c);
      const why = disagreement(c, go, ours, opts);
      if (why === null) {
        stats[family].agree++;
        continue;
      }
      const version = versionDifference(c, go, ours);
      if (version !== null) {
        stats[family].version++;
        versions.set(version, (versions.get(version) ?? 0) + 1);
        continue;
      }
      stats[family].disagree++;
      const small = await minimise(c, why, oracle, lib, opts);
      const goSmall = await oracle.ask(small);
      const oursSmall = capiformAnswer(lib, small);
      findings.push({ family, seed: opts.seed, index, why: disagreement(small, goSmall, oursSmall, opts) ?? why, case: small, go: goSmall, capiform: oursSmall, original: c });
    }
  }
  oracle.close();
  // One finding per distinct minimised case and reason.
  const seen = new Set();
  const unique = findings.filter((f) => {
    const key = `${f.why.split(':')[0]}\u0000${canonical(f.case)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  for (const [family, s] of Object.entries(stats)) {
    process.stdout.write(`${family}: ${s.cases} cases, ${s.agree} agree, ${s.disagree} disagree, ${s.version} version differences (Go failed ${s.goErrors})\n`);
  }
  for (const [why, n] of [...versions].sort()) process.stdout.write(`version: ${why} (${n})\n`);
  for (const f of unique) {
    process.stdout.write(`\n[${f.family} seed ${f.seed} case ${f.index}] ${f.why}\n  case: ${JSON.stringify(f.case)}\n  Go:   ${JSON.stringify(f.go)}\n  ours: ${JSON.stringify({ ...f.capiform, crash: undefined })}\n`);
  }
  if (unique.length > 0) {
    mkdirSync(opts.out, { recursive: true });
    const file = join(opts.out, `findings-seed${opts.seed}-${opts.families.join('+')}.json`);
    writeFileSync(file, `${JSON.stringify(unique, null, 1)}\n`);
    process.stdout.write(`\n${unique.length} distinct finding(s) saved to ${file}\n`);
  }
  process.exitCode = unique.length > 0 ? 1 : 0;
}

await main();

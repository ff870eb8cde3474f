/**
 * Runtime implementations of the Kubernetes CEL libraries and the cel-go extensions @bufbuild/cel does not ship
 * (lists, regex find, urls, quantity, ip, cidr, sets, semver). Values of the libraries' own types (IP, Quantity…)
 * travel through the evaluator as maps tagged with a key no JSON object can produce, so equality compares them by
 * their canonical form.
 */
import { celFunc, celMethod, CelScalar, listType, mapType, objectType, isCelList, isCelMap, isCelUint, type CelFunc, type CelValue, type CelInput } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import { RE2JS } from '@bufbuild/re2';
import { GoRegexp } from '../../go/sprig/index.js';
import { DurationSchema } from '@bufbuild/protobuf/wkt';
import { OPAQUE } from './declarations.js';
import { parseQuantity, compareQuantity, addQuantity, QUANTITY_FORMAT_ERROR, type Quantity } from './quantity.js';
import * as ipLib from './ip.js';
import { namedFormats } from './formats.js';

const { STRING, INT, BOOL, DOUBLE, DYN } = CelScalar;
const LIST = listType(DYN);
const MAP = mapType(DYN, DYN);
const KIND = '\u0000kind';
const REPR = '\u0000repr';

const opaqueData = new WeakMap<object, unknown>();

function opaque(kind: string, repr: string, data: unknown): CelInput {
  const m = new Map<string, CelInput>([[KIND, kind], [REPR, repr]]);
  opaqueData.set(m, data);
  return m;
}

function unwrap<D>(value: CelValue, kind: string): D {
  if (isCelMap(value) && value.get(KIND) === kind) {
    const repr = value.get(REPR);
    const data = dataByRepr.get(`${kind}\u0000${String(repr)}`);
    if (data !== undefined) return data as D;
  }
  throw new Error('no such overload');
}

/** CelMaps wrap our Maps, so data is found again by kind and canonical text. */
const dataByRepr = new Map<string, unknown>();
function remember(kind: string, repr: string, data: unknown): CelInput {
  if (dataByRepr.size > 10000) dataByRepr.clear();
  dataByRepr.set(`${kind}\u0000${repr}`, data);
  return opaque(kind, repr, data);
}

function compare(a: CelValue, b: CelValue): number {
  if (typeof a === 'bigint' || typeof a === 'number') {
    const x = Number(a);
    const y = Number(b as number);
    if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean') return Number(a) - Number(b);
  if (isCelUint(a) && isCelUint(b)) return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b);
  const sa = seconds(a);
  const sb = seconds(b);
  if (sa !== undefined && sb !== undefined) return sa < sb ? -1 : sa > sb ? 1 : 0;
  throw new Error('no such overload');
}

/** Timestamps and durations as a single number of nanoseconds, for ordering. */
function seconds(v: CelValue): bigint | undefined {
  const m = v as unknown as { message?: { seconds?: bigint; nanos?: number } };
  const msg = m.message ?? (v as unknown as { seconds?: bigint; nanos?: number });
  if (msg && typeof msg.seconds === 'bigint') return msg.seconds * 1000000000n + BigInt(msg.nanos ?? 0);
  return undefined;
}

export function celEquals(a: CelValue, b: CelValue): boolean {
  if (typeof a === 'bigint' || typeof a === 'number') {
    if (typeof b === 'bigint' || typeof b === 'number') return Number(a) === Number(b) && (typeof a !== 'bigint' || typeof b !== 'bigint' || a === b);
    if (isCelUint(b)) return Number(a) === Number(b.value);
    return false;
  }
  if (isCelUint(a)) return isCelUint(b) ? a.value === b.value : typeof b === 'bigint' || typeof b === 'number' ? Number(a.value) === Number(b) : false;
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return a === b;
  if (a instanceof Uint8Array) return b instanceof Uint8Array && Buffer.compare(a, b) === 0;
  if (isCelList(a)) {
    if (!isCelList(b) || a.size !== b.size) return false;
    for (let i = 0; i < a.size; i++) if (!celEquals(a.get(i)!, b.get(i)!)) return false;
    return true;
  }
  if (isCelMap(a)) {
    if (!isCelMap(b) || a.size !== b.size) return false;
    for (const [k, v] of a) {
      const other = b.get(k);
      if (other === undefined || !celEquals(v, other)) return false;
    }
    return true;
  }
  const sa = seconds(a);
  const sb = seconds(b);
  return sa !== undefined && sa === sb;
}

function items(list: CelValue): CelValue[] {
  if (!isCelList(list)) throw new Error('no such overload');
  return [...list];
}

const lists: CelFunc[] = [
  celMethod('isSorted', LIST, [], BOOL, function () {
    const xs = items(this);
    for (let i = 1; i < xs.length; i++) if (compare(xs[i - 1]!, xs[i]!) > 0) return false;
    return true;
  }),
  celMethod('sum', LIST, [], DYN, function () {
    const xs = items(this);
    if (xs.length === 0) return 0n;
    if (typeof xs[0] === 'bigint') {
      let s = 0n;
      for (const x of xs) s += x as bigint;
      if (s > 9223372036854775807n || s < -9223372036854775808n) throw new Error('integer overflow');
      return s;
    }
    if (typeof xs[0] === 'number') return xs.reduce<number>((s, x) => s + (x as number), 0);
    throw new Error('no such overload');
  }),
  ...(['min', 'max'] as const).map((name) =>
    celMethod(name, LIST, [], DYN, function () {
      const xs = items(this);
      if (xs.length === 0) throw new Error(`${name} called on empty list`);
      return xs.reduce((best, x) => (name === 'min' ? (compare(x, best) < 0 ? x : best) : compare(x, best) > 0 ? x : best)) as CelInput;
    }),
  ),
  celMethod('indexOf', LIST, [DYN], INT, function (v) {
    return BigInt(items(this).findIndex((x) => celEquals(x, v)));
  }),
  celMethod('lastIndexOf', LIST, [DYN], INT, function (v) {
    const xs = items(this);
    for (let i = xs.length - 1; i >= 0; i--) if (celEquals(xs[i]!, v)) return BigInt(i);
    return -1n;
  }),
];

/**
 * The pattern on Go's regexp engine, as cel-go runs it: linear in the text. A class's rules come from a pull request,
 * and JavaScript's backtracking engine takes exponential time on patterns such as `(a+)+$`.
 */
function re2Regex(pattern: string): GoRegexp {
  // RE2JS raises the syntax errors the runtime reports; the match runs on the Go engine.
  RE2JS.compile(pattern);
  return GoRegexp.compile(pattern);
}

const regex: CelFunc[] = [
  celMethod('find', STRING, [STRING], STRING, function (pattern) {
    return re2Regex(pattern).findString(this);
  }),
  celMethod('findAll', STRING, [STRING], listType(STRING), function (pattern) {
    return re2Regex(pattern).findAllString(this, -1) ?? [];
  }),
  celMethod('findAll', STRING, [STRING, INT], listType(STRING), function (pattern, limit) {
    if (limit === 0n) return [];
    return re2Regex(pattern).findAllString(this, limit < 0n ? -1 : Number(limit)) ?? [];
  }),
];

const sets: CelFunc[] = [
  celFunc('sets.contains', [LIST, LIST], BOOL, (a, b) => items(b).every((y) => items(a).some((x) => celEquals(x, y)))),
  celFunc('sets.equivalent', [LIST, LIST], BOOL, (a, b) =>
    items(b).every((y) => items(a).some((x) => celEquals(x, y))) && items(a).every((x) => items(b).some((y) => celEquals(x, y)))),
  celFunc('sets.intersects', [LIST, LIST], BOOL, (a, b) => items(a).some((x) => items(b).some((y) => celEquals(x, y)))),
];

function quantityOf(text: string): CelInput {
  const q = parseQuantity(text);
  if (!q) throw new Error(QUANTITY_FORMAT_ERROR);
  return remember(OPAQUE.quantity, `${q.num}/${q.den}`, q);
}
const toQuantity = (q: Quantity): CelInput => remember(OPAQUE.quantity, `${q.num}/${q.den}`, q);
const q = (v: CelValue): Quantity => unwrap<Quantity>(v, OPAQUE.quantity);
const other = (v: CelValue): Quantity => (typeof v === 'bigint' ? { num: v, den: 1n } : q(v));

const quantity: CelFunc[] = [
  celFunc('quantity', [STRING], MAP, quantityOf),
  celFunc('isQuantity', [STRING], BOOL, (s) => parseQuantity(s) !== undefined),
  celMethod('sign', MAP, [], INT, function () {
    const v = q(this);
    return BigInt(v.num > 0n ? 1 : v.num < 0n ? -1 : 0);
  }),
  celMethod('isInteger', MAP, [], BOOL, function () {
    const v = q(this);
    return v.den === 1n && v.num <= 9223372036854775807n && v.num >= -9223372036854775808n;
  }),
  celMethod('asInteger', MAP, [], INT, function () {
    const v = q(this);
    if (v.den !== 1n || v.num > 9223372036854775807n || v.num < -9223372036854775808n) {
      throw new Error('cannot convert value to integer');
    }
    return v.num;
  }),
  celMethod('asApproximateFloat', MAP, [], DOUBLE, function () {
    const v = q(this);
    return Number(v.num) / Number(v.den);
  }),
  celMethod('add', MAP, [DYN], MAP, function (o) {
    return toQuantity(addQuantity(q(this), other(o), 1n));
  }),
  celMethod('sub', MAP, [DYN], MAP, function (o) {
    return toQuantity(addQuantity(q(this), other(o), -1n));
  }),
  celMethod('isGreaterThan', MAP, [MAP], BOOL, function (o) {
    return kindOf(this) === OPAQUE.semver ? compareSemver(sv(this), sv(o)) > 0 : compareQuantity(q(this), q(o)) > 0;
  }),
  celMethod('isLessThan', MAP, [MAP], BOOL, function (o) {
    return kindOf(this) === OPAQUE.semver ? compareSemver(sv(this), sv(o)) < 0 : compareQuantity(q(this), q(o)) < 0;
  }),
  celMethod('compareTo', MAP, [MAP], INT, function (o) {
    return BigInt(kindOf(this) === OPAQUE.semver ? compareSemver(sv(this), sv(o)) : compareQuantity(q(this), q(o)));
  }),
];

function kindOf(v: CelValue): unknown {
  return isCelMap(v) ? v.get(KIND) : undefined;
}

function ipOf(text: string): CelInput {
  const ip = ipLib.parseIP(text);
  if (!ip) throw new Error(`IP Address "${text}" parse error during conversion from string: ParseAddr("${text}"): unable to parse IP`);
  return remember(OPAQUE.ip, ipLib.formatIP(ip), ip);
}
const toIP = (ip: ipLib.IPAddress): CelInput => remember(OPAQUE.ip, ipLib.formatIP(ip), ip);
const ipv = (v: CelValue): ipLib.IPAddress => unwrap<ipLib.IPAddress>(v, OPAQUE.ip);
function cidrOf(text: string): CelInput {
  const c = ipLib.parseCIDR(text);
  if (!c) throw new Error(`network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("${text}"): bad prefix`);
  return toCIDR(c);
}
const toCIDR = (c: ipLib.CIDRPrefix): CelInput => remember(OPAQUE.cidr, `${ipLib.formatIP(c.ip)}/${c.prefix}`, c);
const cidrv = (v: CelValue): ipLib.CIDRPrefix => unwrap<ipLib.CIDRPrefix>(v, OPAQUE.cidr);

const net: CelFunc[] = [
  celFunc('ip', [STRING], MAP, ipOf),
  celFunc('isIP', [STRING], BOOL, (s) => ipLib.parseIP(s) !== undefined),
  celFunc('ip.isCanonical', [STRING], BOOL, (s) => {
    const ip = ipLib.parseIP(s);
    if (!ip) throw new Error(`IP Address "${s}" parse error during conversion from string`);
    return ipLib.formatIP(ip) === s;
  }),
  celMethod('family', MAP, [], INT, function () {
    return BigInt(ipLib.family(ipv(this)));
  }),
  ...(
    [
      ['isUnspecified', ipLib.isUnspecified],
      ['isLoopback', ipLib.isLoopback],
      ['isLinkLocalMulticast', ipLib.isLinkLocalMulticast],
      ['isLinkLocalUnicast', ipLib.isLinkLocalUnicast],
      ['isGlobalUnicast', ipLib.isGlobalUnicast],
    ] as const
  ).map(([name, fn]) =>
    celMethod(name, MAP, [], BOOL, function () {
      return fn(ipv(this));
    }),
  ),
  celFunc('string', [MAP], STRING, (v) => {
    const kind = kindOf(v);
    if (kind === OPAQUE.ip || kind === OPAQUE.cidr) return String((v as unknown as ReadonlyMap<string, unknown>).get(REPR));
    throw new Error('no such overload');
  }),
  celFunc('cidr', [STRING], MAP, cidrOf),
  celFunc('isCIDR', [STRING], BOOL, (s) => ipLib.parseCIDR(s) !== undefined),
  celMethod('containsIP', MAP, [DYN], BOOL, function (o) {
    const target = typeof o === 'string' ? ipLib.parseIP(o) : ipv(o);
    if (!target) throw new Error(`IP Address "${String(o)}" parse error during conversion from string`);
    return ipLib.cidrContainsIP(cidrv(this), target);
  }),
  celMethod('containsCIDR', MAP, [DYN], BOOL, function (o) {
    const inner = typeof o === 'string' ? ipLib.parseCIDR(o) : cidrv(o);
    if (!inner) throw new Error(`network address parse error during conversion from string`);
    const outer = cidrv(this);
    return inner.prefix >= outer.prefix && ipLib.cidrContainsIP(outer, inner.ip);
  }),
  celMethod('ip', MAP, [], MAP, function () {
    return toIP(cidrv(this).ip);
  }),
  celMethod('masked', MAP, [], MAP, function () {
    const c = cidrv(this);
    return toCIDR({ ip: ipLib.maskIP(c.ip, c.prefix), prefix: c.prefix });
  }),
  celMethod('prefixLength', MAP, [], INT, function () {
    return BigInt(cidrv(this).prefix);
  }),
];

interface ParsedURL {
  scheme: string;
  host: string;
  hostname: string;
  port: string;
  escapedPath: string;
  query: Map<string, string[]>;
}

/** Go's `url.ParseRequestURI`: an absolute URL or an absolute path. */
function parseURL(text: string): ParsedURL | undefined {
  const m = /^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?$/.exec(text);
  if (!m || text.includes('#')) return undefined;
  const [, scheme = '', authority, path = '', rawQuery] = m;
  if (!scheme && !path.startsWith('/')) return undefined;
  if (scheme && authority === undefined && !path.startsWith('/')) return undefined;
  const hostPort = (authority ?? '').replace(/^.*@/, '');
  let hostname = hostPort;
  let port = '';
  const v6 = /^\[([^\]]*)\](?::(\d*))?$/.exec(hostPort);
  if (v6) {
    hostname = v6[1]!;
    port = v6[2] ?? '';
  } else if (hostPort.includes(':')) {
    const i = hostPort.lastIndexOf(':');
    hostname = hostPort.slice(0, i);
    port = hostPort.slice(i + 1);
    if (!/^\d*$/.test(port)) return undefined;
  }
  const query = new Map<string, string[]>();
  for (const part of (rawQuery ?? '').split('&')) {
    if (!part) continue;
    const [k, v = ''] = part.split('=');
    const key = decodeURIComponent(k!.replace(/\+/g, ' '));
    query.set(key, [...(query.get(key) ?? []), decodeURIComponent(v.replace(/\+/g, ' '))]);
  }
  return { scheme, host: hostPort, hostname, port, escapedPath: path, query };
}
const urlv = (v: CelValue): ParsedURL => unwrap<ParsedURL>(v, OPAQUE.url);

const urls: CelFunc[] = [
  celFunc('url', [STRING], MAP, (s) => {
    const u = parseURL(s);
    if (!u) throw new Error(`URL parse error during conversion from string: parse "${s}": invalid URI for request`);
    return remember(OPAQUE.url, s, u);
  }),
  celFunc('isURL', [STRING], BOOL, (s) => parseURL(s) !== undefined),
  ...(['getScheme', 'getHost', 'getHostname', 'getPort', 'getEscapedPath'] as const).map((name) =>
    celMethod(name, MAP, [], STRING, function () {
      const u = urlv(this);
      const key = { getScheme: 'scheme', getHost: 'host', getHostname: 'hostname', getPort: 'port', getEscapedPath: 'escapedPath' }[name];
      return u[key as 'scheme'];
    }),
  ),
  celMethod('getQuery', MAP, [], MAP, function () {
    return new Map([...urlv(this).query].map(([k, v]) => [k, v]));
  }),
];

interface Semver {
  major: bigint;
  minor: bigint;
  patch: bigint;
  pre: string[];
}

function parseSemver(text: string, normalize: boolean): Semver | undefined {
  let s = text;
  if (normalize) {
    s = s.replace(/^v/, '');
    const core = /^(\d+)(?:\.(\d+))?(?:\.(\d+))?(.*)$/.exec(s);
    if (core) s = `${BigInt(core[1]!)}.${BigInt(core[2] ?? '0')}.${BigInt(core[3] ?? '0')}${core[4]}`;
  }
  const m = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/.exec(s);
  if (!m) return undefined;
  return { major: BigInt(m[1]!), minor: BigInt(m[2]!), patch: BigInt(m[3]!), pre: m[4] ? m[4].split('.') : [] };
}

function compareSemver(a: Semver, b: Semver): number {
  for (const k of ['major', 'minor', 'patch'] as const) if (a[k] !== b[k]) return a[k] < b[k] ? -1 : 1;
  if (a.pre.length === 0 || b.pre.length === 0) return b.pre.length - a.pre.length === 0 ? 0 : a.pre.length === 0 ? 1 : -1;
  for (let i = 0; i < Math.min(a.pre.length, b.pre.length); i++) {
    const x = a.pre[i]!;
    const y = b.pre[i]!;
    if (x === y) continue;
    const xn = /^\d+$/.test(x);
    const yn = /^\d+$/.test(y);
    if (xn && yn) return BigInt(x) < BigInt(y) ? -1 : 1;
    if (xn !== yn) return xn ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return a.pre.length - b.pre.length;
}
const sv = (v: CelValue): Semver => unwrap<Semver>(v, OPAQUE.semver);
function semverOf(text: string, normalize: boolean): CelInput {
  const v = parseSemver(text, normalize);
  if (!v) throw new Error(`could not parse semver string "${text}"`);
  return remember(OPAQUE.semver, `${v.major}.${v.minor}.${v.patch}${v.pre.length ? `-${v.pre.join('.')}` : ''}`, v);
}

const semver: CelFunc[] = [
  celFunc('semver', [STRING], MAP, (s) => semverOf(s, false)),
  celFunc('semver', [STRING, BOOL], MAP, (s, n) => semverOf(s, n)),
  celFunc('isSemver', [STRING], BOOL, (s) => parseSemver(s, false) !== undefined),
  celFunc('isSemver', [STRING, BOOL], BOOL, (s, n) => parseSemver(s, n) !== undefined),
  ...(['major', 'minor', 'patch'] as const).map((name) =>
    celMethod(name, MAP, [], INT, function () {
      return sv(this)[name];
    }),
  ),
];

const VALUE = '\u0000value';
const OPTIONAL = 'optional_type';

function some(v: CelValue | CelInput): CelInput {
  return new Map<string, CelInput>([[KIND, OPTIONAL], [VALUE, v as CelInput]]);
}
const none = (): CelInput => new Map<string, CelInput>([[KIND, OPTIONAL]]);
/** `oldSelf` of an `optionalOldSelf` rule. */
export const optionalOf = (v: CelInput | undefined): CelInput => (v === undefined ? none() : some(v));
const isOptional = (v: CelValue): boolean => isCelMap(v) && v.get(KIND) === OPTIONAL;

/** The value of an optional, or undefined for none; throws when `v` is not an optional. */
function optionalValue(v: CelValue): CelValue | undefined {
  if (!isOptional(v)) throw new Error('no such overload');
  return (v as unknown as ReadonlyMap<string, CelValue>).get(VALUE);
}

function isZero(v: CelValue): boolean {
  if (v === null || v === false || v === '' || v === 0 || v === 0n) return true;
  if (isCelUint(v)) return v.value === 0n;
  if (v instanceof Uint8Array || isCelList(v)) return (v as { length?: number; size?: number }).length === 0 || (v as { size?: number }).size === 0;
  if (isCelMap(v)) return v.size === 0;
  const ns = seconds(v);
  if (ns !== undefined) {
    const tsZero = -62135596800n * 1000000000n;
    return ns === 0n || ns === tsZero;
  }
  return false;
}

const optionals: CelFunc[] = [
  celFunc('optional_select', [DYN, STRING], MAP, (operand, field) => {
    let target: CelValue | undefined = operand;
    if (isOptional(operand)) target = optionalValue(operand);
    if (target === undefined || !isCelMap(target)) return none();
    const v = target.get(field);
    return v === undefined || v === null ? none() : some(v);
  }),
  celFunc('optional_index', [DYN, DYN], MAP, (operand, key) => {
    let target: CelValue | undefined = operand;
    if (isOptional(operand)) target = optionalValue(operand);
    if (target === undefined) return none();
    if (isCelList(target)) {
      const i = typeof key === 'bigint' ? Number(key) : typeof key === 'number' && Number.isInteger(key) ? key : NaN;
      return i >= 0 && i < target.size ? some(target.get(i)!) : none();
    }
    if (isCelMap(target)) {
      const v = target.get(key as string);
      return v === undefined ? none() : some(v);
    }
    throw new Error('no such overload');
  }),
  celFunc('optional.of', [DYN], MAP, (v) => some(v)),
  celFunc('optional.none', [], MAP, () => none()),
  celFunc('optional.ofNonZeroValue', [DYN], MAP, (v) => (isZero(v) ? none() : some(v))),
  celMethod('hasValue', MAP, [], BOOL, function () {
    return optionalValue(this) !== undefined;
  }),
  celMethod('value', MAP, [], DYN, function () {
    const v = optionalValue(this);
    if (v === undefined) throw new Error('optional.none() dereference');
    return v as CelInput;
  }),
  celMethod('orValue', MAP, [DYN], DYN, function (fallback) {
    return (optionalValue(this) ?? fallback) as CelInput;
  }),
  celMethod('or', MAP, [MAP], MAP, function (other) {
    return optionalValue(this) !== undefined ? (this as unknown as CelInput) : (other as unknown as CelInput);
  }),
];

function flatten(xs: CelValue[], depth: number): CelInput[] {
  const out: CelInput[] = [];
  for (const x of xs) {
    if (isCelList(x) && depth > 0) out.push(...flatten([...x], depth - 1));
    else out.push(x as CelInput);
  }
  return out;
}

/** cel-go's ext lists (version 3, Kubernetes 1.34). */
const extLists: CelFunc[] = [
  celFunc('lists.range', [INT], LIST, (n) => Array.from({ length: Math.max(0, Number(n)) }, (_, i) => BigInt(i))),
  celMethod('slice', LIST, [INT, INT], LIST, function (start, end) {
    const xs = items(this);
    if (start < 0n || end < 0n) throw new Error(`cannot slice(${start}, ${end}), negative indexes not supported`);
    if (start > end) throw new Error(`cannot slice(${start}, ${end}), start index must be less than or equal to end index`);
    if (end > BigInt(xs.length)) throw new Error(`cannot slice(${start}, ${end}), list is length ${xs.length}`);
    return xs.slice(Number(start), Number(end)) as CelInput[];
  }),
  celMethod('reverse', LIST, [], LIST, function () {
    return items(this).reverse() as CelInput[];
  }),
  celMethod('distinct', LIST, [], LIST, function () {
    const out: CelValue[] = [];
    for (const x of items(this)) if (!out.some((y) => celEquals(x, y))) out.push(x);
    return out as CelInput[];
  }),
  celMethod('sort', LIST, [], LIST, function () {
    return items(this).sort(compare) as CelInput[];
  }),
  celMethod('flatten', LIST, [], LIST, function () {
    return flatten(items(this), 1);
  }),
  celMethod('flatten', LIST, [INT], LIST, function (depth) {
    if (depth < 0n) throw new Error('level must be non-negative');
    return flatten(items(this), Number(depth));
  }),
];

const formatOf = (name: string): CelInput => remember(OPAQUE.format, name, name);

/** The Kubernetes format library (1.31): named formats whose `validate` yields the errors, if any. */
const formats: CelFunc[] = [
  celFunc('format.named', [STRING], MAP, (name) => (namedFormats.has(name) ? some(formatOf(name)) : none())),
  ...[...namedFormats.keys()].map((name) => celFunc(`format.${name}`, [], MAP, () => formatOf(name))),
  celMethod('validate', MAP, [STRING], MAP, function (text) {
    const name = unwrap<string>(this, OPAQUE.format);
    const errors = namedFormats.get(name)!(text);
    return errors.length === 0 ? none() : some(errors);
  }),
];

/** What the two-variable comprehensions iterate: `[index, item]` of a list, `[key, value]` of a map. */
const twoVar: CelFunc[] = [
  celFunc('@entries', [DYN], LIST, (range) => {
    if (isCelList(range)) return [...range].map((v, i) => [BigInt(i), v as CelInput]);
    if (isCelMap(range)) return [...range].map(([k, v]) => [k as CelInput, v as CelInput]);
    throw new Error('no such overload');
  }),
  celFunc('@mapInsert', [MAP, DYN, DYN], MAP, (m, k, v) => {
    if (m.has(k as string)) throw new Error(`insert failed: key ${String(k)} already exists`);
    return new Map<CelInput, CelInput>([...[...m].map(([a, b]) => [a as CelInput, b as CelInput] as const), [k as CelInput, v as CelInput]]) as unknown as CelInput;
  }),
  celFunc('@mapInsert', [MAP, MAP], MAP, (m, entries) => {
    const out = new Map<CelInput, CelInput>([...m].map(([a, b]) => [a as CelInput, b as CelInput]));
    for (const [k, v] of entries) {
      if (out.has(k as CelInput)) throw new Error(`insert failed: key ${String(k)} already exists`);
      out.set(k as CelInput, v as CelInput);
    }
    return out as unknown as CelInput;
  }),
];

/** Where cel-go's semantics differ from @bufbuild/cel's: Go's `strings.SplitN`, whole-duration milliseconds. */
const corrections: CelFunc[] = [
  celMethod('split', STRING, [STRING, INT], listType(STRING), function (sep, limit) {
    const n = Number(limit);
    if (n === 0) return [];
    const parts = this.split(sep);
    if (n < 0 || parts.length <= n) return parts;
    return [...parts.slice(0, n - 1), parts.slice(n - 1).join(sep)];
  }),
  celMethod('getMilliseconds', objectType(DurationSchema), [], INT, function () {
    const d = this as unknown as { message: { seconds: bigint; nanos: number } };
    return d.message.seconds * 1000n + BigInt(Math.trunc(d.message.nanos / 1000000));
  }),
];

/** Every function the evaluator may need; the checker decides which a given environment may call. */
export const runtimeFunctions: CelFunc[] = [...strings, ...lists, ...regex, ...sets, ...quantity, ...net, ...urls, ...semver, ...optionals, ...extLists, ...formats, ...twoVar, ...corrections];

/**
 * Which functions a Kubernetes CEL environment declares, by compatibility version (apiserver
 * `pkg/cel/environment/base.go`): CEL's standard overloads, cel-go's strings/sets/optional extensions and the
 * Kubernetes libraries (lists, regex, urls, quantity, ip, cidr, format, semver). The checker resolves calls here.
 */
import { T, type CelType } from './types.js';

export interface Overload {
  readonly id: string;
  /** Receiver-style (`x.f()`): the first of `args` is the receiver. */
  readonly member: boolean;
  readonly args: readonly CelType[];
  readonly result: CelType;
}

/** A Kubernetes minor version: `1.29` → 29 (the environments differ only in minor versions of 1.x). */
export type Minor = number;
export const NEWEST_MINOR: Minor = 37;

export const OPAQUE = {
  ip: 'net.IP',
  cidr: 'net.CIDR',
  url: 'kubernetes.URL',
  quantity: 'kubernetes.Quantity',
  semver: 'kubernetes.Semver',
  format: 'kubernetes.NamedFormat',
} as const;

function parseType(spec: string): CelType {
  const text = spec.replace(/\s+/g, '');
  let pos = 0;
  const read = (): CelType => {
    const m = /^[A-Za-z_.]+/.exec(text.slice(pos));
    if (!m) throw new Error(`bad type ${text}`);
    const name = m[0];
    pos += name.length;
    const params: CelType[] = [];
    if (text[pos] === '(') {
      pos++;
      params.push(read());
      while (text[pos] === ',') {
        pos++;
        params.push(read());
      }
      pos++; // ')'
    }
    switch (name) {
      case 'int': return T.int;
      case 'uint': return T.uint;
      case 'double': return T.double;
      case 'bool': return T.bool;
      case 'string': return T.string;
      case 'bytes': return T.bytes;
      case 'null': return T.null;
      case 'dyn': return T.dyn;
      case 'timestamp': return T.timestamp;
      case 'duration': return T.duration;
      case 'list': return T.list(params[0]!);
      case 'map': return T.map(params[0]!, params[1]!);
      case 'optional': return T.optional(params[0]!);
      case 'type': return T.type(params[0]!);
      case 'IP': return T.opaque(OPAQUE.ip);
      case 'CIDR': return T.opaque(OPAQUE.cidr);
      case 'URL': return T.opaque(OPAQUE.url);
      case 'Quantity': return T.opaque(OPAQUE.quantity);
      case 'Semver': return T.opaque(OPAQUE.semver);
      case 'Format': return T.opaque(OPAQUE.format);
      default:
        if (/^[A-Z]$/.test(name)) return T.param(name);
        throw new Error(`unknown type ${name}`);
    }
  };
  return read();
}

/** `'name(a, b): r'` for global overloads, `'recv.name(a): r'` for member ones (recv is a type). */
function sig(spec: string, id?: string): { name: string; overload: Overload } {
  const close = spec.lastIndexOf('): ');
  let depth = 0;
  let open = close;
  for (; open >= 0; open--) {
    if (spec[open] === ')') depth++;
    if (spec[open] === '(') {
      depth--;
      if (depth === 0) break;
    }
  }
  const head = spec.slice(0, open);
  let dot = -1;
  depth = 0;
  for (let i = 0; i < head.length; i++) {
    if (head[i] === '(') depth++;
    else if (head[i] === ')') depth--;
    else if (head[i] === '.' && depth === 0) dot = i;
  }
  const recv = dot >= 0 ? head.slice(0, dot) : undefined;
  const name = dot >= 0 ? head.slice(dot + 1) : head;
  const args = splitTop(spec.slice(open + 1, close)).map(parseType);
  const member = recv !== undefined && !/^(sets|optional|strings|format|ip|lists|math)$/.test(recv);
  const fullName = recv !== undefined && !member ? `${recv}.${name}` : name;
  const all = member ? [parseType(recv!), ...args] : args;
  return { name: fullName, overload: { id: id ?? spec, member, args: all, result: parseType(spec.slice(close + 3)) } };
}

function splitTop(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const c of text) {
    if (c === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
      continue;
    }
    if (c === '(') depth++;
    if (c === ')') depth--;
    cur += c;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

interface Library {
  readonly since: Minor;
  readonly until?: Minor;
  readonly signatures: readonly string[];
}

const comparable = ['bool', 'int', 'uint', 'double', 'string', 'bytes', 'timestamp', 'duration'];
const numeric = ['int', 'uint', 'double'];

const standard: string[] = [
  ...['int', 'uint', 'double', 'string', 'bytes', 'list(A)'].map((t) => `_+_(${t}, ${t}): ${t}`),
  '_+_(timestamp, duration): timestamp',
  '_+_(duration, timestamp): timestamp',
  '_+_(duration, duration): duration',
  ...numeric.map((t) => `_-_(${t}, ${t}): ${t}`),
  '_-_(timestamp, timestamp): duration',
  '_-_(timestamp, duration): timestamp',
  '_-_(duration, duration): duration',
  ...numeric.flatMap((t) => [`_*_(${t}, ${t}): ${t}`, `_/_(${t}, ${t}): ${t}`]),
  '_%_(int, int): int',
  '_%_(uint, uint): uint',
  '-_(int): int',
  '-_(double): double',
  '!_(bool): bool',
  '_==_(A, A): bool',
  '_!=_(A, A): bool',
  ...comparable.flatMap((t) => ['_<_', '_<=_', '_>_', '_>=_'].map((op) => `${op}(${t}, ${t}): bool`)),
  '_&&_(bool, bool): bool',
  '_||_(bool, bool): bool',
  '_?_:_(bool, A, A): A',
  '@in(A, list(A)): bool',
  '@in(A, map(A, B)): bool',
  '_[_](list(A), int): A',
  '_[_](map(A, B), A): B',
  '@not_strictly_false(bool): bool',
  ...['string', 'bytes', 'list(A)', 'map(A, B)'].flatMap((t) => [`size(${t}): int`, `${t}.size(): int`]),
  'string.contains(string): bool',
  'string.startsWith(string): bool',
  'string.endsWith(string): bool',
  'string.matches(string): bool',
  'matches(string, string): bool',
  ...['int', 'uint', 'double', 'string', 'timestamp'].map((t) => `int(${t}): int`),
  ...['int', 'uint', 'double', 'string'].map((t) => `uint(${t}): uint`),
  ...['int', 'uint', 'double', 'string'].map((t) => `double(${t}): double`),
  ...['int', 'uint', 'double', 'bool', 'string', 'bytes', 'timestamp', 'duration'].map((t) => `string(${t}): string`),
  'bytes(string): bytes',
  'bytes(bytes): bytes',
  'bool(bool): bool',
  'bool(string): bool',
  'timestamp(string): timestamp',
  'timestamp(int): timestamp',
  'timestamp(timestamp): timestamp',
  'duration(string): duration',
  'duration(duration): duration',
  'dyn(A): dyn',
  'type(A): type(A)',
  ...['getFullYear', 'getMonth', 'getDate', 'getDayOfMonth', 'getDayOfYear', 'getDayOfWeek', 'getHours', 'getMinutes',
    'getSeconds', 'getMilliseconds'].flatMap((f) => [`timestamp.${f}(): int`, `timestamp.${f}(string): int`]),
  ...['getHours', 'getMinutes', 'getSeconds', 'getMilliseconds'].map((f) => `duration.${f}(): int`),
];

const crossTypeNumericComparisons: string[] = numeric.flatMap((a) =>
  numeric.filter((b) => b !== a).flatMap((b) => ['_<_', '_<=_', '_>_', '_>=_'].map((op) => `${op}(${a}, ${b}): bool`)),
);

const stringsV0 = [
  'string.charAt(int): string',
  'string.indexOf(string): int',
  'string.indexOf(string, int): int',
  'string.lastIndexOf(string): int',
  'string.lastIndexOf(string, int): int',
  'string.lowerAscii(): string',
  'string.upperAscii(): string',
  'string.replace(string, string): string',
  'string.replace(string, string, int): string',
  'string.split(string): list(string)',
  'string.split(string, int): list(string)',
  'string.substring(int): string',
  'string.substring(int, int): string',
  'string.trim(): string',
  'list(string).join(): string',
  'list(string).join(string): string',
];
const stringsV2 = [...stringsV0, 'string.format(list(dyn)): string', 'strings.quote(string): string'];

const k8sListsV0 = [
  ...comparable.map((t) => `list(${t}).isSorted(): bool`),
  ...['int', 'uint', 'double', 'duration'].map((t) => `list(${t}).sum(): ${t}`),
  ...comparable.flatMap((t) => [`list(${t}).min(): ${t}`, `list(${t}).max(): ${t}`]),
  'list(A).indexOf(A): int',
  'list(A).lastIndexOf(A): int',
];

const libraries: Library[] = [
  { since: 0, signatures: standard },
  { since: 0, until: 37, signatures: k8sListsV0 },
  { since: 37, signatures: k8sListsV0 },
  {
    since: 0,
    signatures: [
      'string.find(string): string',
      'string.findAll(string): list(string)',
      'string.findAll(string, int): list(string)',
    ],
  },
  {
    since: 0,
    signatures: [
      'url(string): URL',
      'isURL(string): bool',
      'URL.getScheme(): string',
      'URL.getHost(): string',
      'URL.getHostname(): string',
      'URL.getPort(): string',
      'URL.getEscapedPath(): string',
      'URL.getQuery(): map(string, list(string))',
    ],
  },
  { since: 0, until: 29, signatures: stringsV0 },
  { since: 29, signatures: stringsV2 },
  { since: 28, signatures: crossTypeNumericComparisons },
  {
    since: 28,
    signatures: [
      'optional.of(A): optional(A)',
      'optional.ofNonZeroValue(A): optional(A)',
      'optional.none(): optional(dyn)',
      'optional(A).value(): A',
      'optional(A).hasValue(): bool',
      'optional(A).orValue(A): A',
      'optional(A).or(optional(A)): optional(A)',
    ],
  },
  {
    since: 28,
    signatures: [
      'quantity(string): Quantity',
      'isQuantity(string): bool',
      'Quantity.sign(): int',
      'Quantity.isInteger(): bool',
      'Quantity.asInteger(): int',
      'Quantity.asApproximateFloat(): double',
      'Quantity.add(Quantity): Quantity',
      'Quantity.add(int): Quantity',
      'Quantity.sub(Quantity): Quantity',
      'Quantity.sub(int): Quantity',
      'Quantity.isGreaterThan(Quantity): bool',
      'Quantity.isLessThan(Quantity): bool',
      'Quantity.compareTo(Quantity): int',
    ],
  },
  {
    since: 29,
    signatures: ['sets.contains(list(A), list(A)): bool', 'sets.equivalent(list(A), list(A)): bool', 'sets.intersects(list(A), list(A)): bool'],
  },
  {
    since: 30,
    signatures: [
      'ip(string): IP',
      'isIP(string): bool',
      'ip.isCanonical(string): bool',
      'IP.family(): int',
      'IP.isUnspecified(): bool',
      'IP.isLoopback(): bool',
      'IP.isLinkLocalMulticast(): bool',
      'IP.isLinkLocalUnicast(): bool',
      'IP.isGlobalUnicast(): bool',
      'string(IP): string',
      'cidr(string): CIDR',
      'isCIDR(string): bool',
      'CIDR.containsIP(string): bool',
      'CIDR.containsIP(IP): bool',
      'CIDR.containsCIDR(string): bool',
      'CIDR.containsCIDR(CIDR): bool',
      'CIDR.ip(): IP',
      'CIDR.masked(): CIDR',
      'CIDR.prefixLength(): int',
      'string(CIDR): string',
    ],
  },
  {
    since: 31,
    signatures: [
      'format.named(string): optional(Format)',
      ...['dns1123Label', 'dns1123Subdomain', 'dns1035Label', 'qualifiedName', 'dns1123LabelPrefix',
        'dns1123SubdomainPrefix', 'dns1035LabelPrefix', 'labelValue', 'uri', 'uuid', 'byte', 'date', 'datetime'].map(
        (f) => `format.${f}(): Format`,
      ),
      'Format.validate(string): optional(list(string))',
    ],
  },
  { since: 32, signatures: ['@mapInsert(map(K, V), K, V): map(K, V)', '@mapInsert(map(K, V), map(K, V)): map(K, V)'] },
  {
    since: 33,
    signatures: [
      'semver(string): Semver',
      'semver(string, bool): Semver',
      'isSemver(string): bool',
      'isSemver(string, bool): bool',
      'Semver.major(): int',
      'Semver.minor(): int',
      'Semver.patch(): int',
      'Semver.isGreaterThan(Semver): bool',
      'Semver.isLessThan(Semver): bool',
      'Semver.compareTo(Semver): int',
    ],
  },
  {
    since: 34,
    signatures: [
      'lists.range(int): list(int)',
      'list(A).slice(int, int): list(A)',
      'list(A).distinct(): list(A)',
      'list(A).reverse(): list(A)',
      ...comparable.map((t) => `list(${t}).sort(): list(${t})`),
      'list(dyn).flatten(): list(dyn)',
      'list(dyn).flatten(int): list(dyn)',
    ],
  },
];

export type FunctionTable = ReadonlyMap<string, readonly Overload[]>;

const tables = new Map<Minor, FunctionTable>();

/** The functions of the environment of Kubernetes 1.`minor`. */
export function functionsFor(minor: Minor): FunctionTable {
  const cached = tables.get(minor);
  if (cached) return cached;
  const table = new Map<string, Overload[]>();
  for (const lib of libraries) {
    if (minor < lib.since || (lib.until !== undefined && minor >= lib.until)) continue;
    for (const spec of lib.signatures) {
      const { name, overload } = sig(spec);
      const list = table.get(name) ?? [];
      if (!list.some((o) => o.id === overload.id)) list.push(overload);
      table.set(name, list);
    }
  }
  tables.set(minor, table);
  return table;
}

/** Two-variable comprehension macros (`all(k, v, …)`) exist from 1.32. */
export const TWO_VAR_COMPREHENSIONS_SINCE: Minor = 32;
/** `.?field`, `[?key]` and `optional.*` exist from 1.28. */
export const OPTIONAL_TYPES_SINCE: Minor = 28;
/** Duration, timestamp and regex literals are validated at compile time from 1.29. */
export const LITERAL_VALIDATORS_SINCE: Minor = 29;

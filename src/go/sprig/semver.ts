/**
 * Masterminds/semver v3 (v3.4.0, the version CAPI builds with) as sprig's `semver` and `semverCompare` use it:
 * NewVersion (coercing: `v1`, `1.2`, leading zeros allowed), NewConstraint (comparisons, `||`, `,`, hyphen ranges,
 * `~`, `^`, `x`/`*` wildcards) and Constraints.Check with its prerelease rules. The patterns below are the library's;
 * they use only ASCII classes, where JavaScript and RE2 agree, and RE2's leftmost-first submatches equal JavaScript's.
 */
import { goQuote } from '../quote.js';
import { GoRegexp } from './regexp.js';
import { GoFuncError, GoNumber, GoObject, goFunc, type GoFunc, type GoValue } from '../template/index.js';

export class SemverError extends Error {}

const maxUint64 = (1n << 64n) - 1n;

function parseUint(s: string): bigint {
  const n = BigInt(s);
  if (n > maxUint64) {
    throw new SemverError(`error parsing version segment: strconv.ParseUint: parsing ${goQuote(s)}: value out of range`);
  }
  return n;
}

const looseVersionRE =
  /^v?([0-9]+)(\.[0-9]+)?(\.[0-9]+)?(-([0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*))?(\+([0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*))?$/;
const num = /^[0-9]*$/;
const allowed = /^[0-9A-Za-z-]*$/;

function validatePrerelease(p: string): void {
  for (const part of p.split('.')) {
    if (part === '') throw new SemverError('invalid prerelease string');
    if (num.test(part)) {
      if (part.length > 1 && part[0] === '0') throw new SemverError('version segment starts with 0');
    } else if (!allowed.test(part)) {
      throw new SemverError('invalid prerelease string');
    }
  }
}
function validateMetadata(m: string): void {
  for (const part of m.split('.')) {
    if (part === '' || !allowed.test(part)) throw new SemverError('invalid metadata string');
  }
}

/** `*semver.Version` */
export class SemverVersion extends GoObject {
  readonly goType: string;
  constructor(
    readonly major: bigint,
    readonly minor: bigint,
    readonly patch: bigint,
    readonly pre: string,
    readonly metadata: string,
    readonly original: string,
    /** `*semver.Version` from NewVersion; `semver.Version` from the Inc* methods, which return a value. */
    pointer = true,
  ) {
    super();
    this.goType = pointer ? '*semver.Version' : 'semver.Version';
  }

  /** semver.NewVersion */
  static parse(v: string): SemverVersion {
    const m = looseVersionRE.exec(v);
    if (!m) throw new SemverError('invalid semantic version');
    const major = parseUint(m[1] ?? '0');
    const minor = m[2] ? parseUint(m[2].slice(1)) : 0n;
    const patch = m[3] ? parseUint(m[3].slice(1)) : 0n;
    const pre = m[5] ?? '';
    const metadata = m[8] ?? '';
    if (pre !== '') validatePrerelease(pre);
    if (metadata !== '') validateMetadata(metadata);
    return new SemverVersion(major, minor, patch, pre, metadata, v);
  }

  override toString(): string {
    let s = `${this.major}.${this.minor}.${this.patch}`;
    if (this.pre !== '') s += `-${this.pre}`;
    if (this.metadata !== '') s += `+${this.metadata}`;
    return s;
  }
  format(): string {
    return this.toString();
  }
  marshalJSON(): GoValue {
    return this.toString();
  }
  /** reflect.DeepEqual of two *semver.Version: their fields. */
  equalTo(o: GoObject): boolean {
    return (
      o instanceof SemverVersion &&
      o.goType === this.goType &&
      o.major === this.major &&
      o.minor === this.minor &&
      o.patch === this.patch &&
      o.pre === this.pre &&
      o.metadata === this.metadata &&
      o.original === this.original
    );
  }

  compare(o: SemverVersion): number {
    for (const [a, b] of [
      [this.major, o.major],
      [this.minor, o.minor],
      [this.patch, o.patch],
    ] as const) {
      if (a !== b) return a < b ? -1 : 1;
    }
    if (this.pre === '' && o.pre === '') return 0;
    if (this.pre === '') return 1;
    if (o.pre === '') return -1;
    return comparePrerelease(this.pre, o.pre);
  }

  private vPrefix(): string {
    return this.original.startsWith('v') ? 'v' : '';
  }
  private next(major: bigint, minor: bigint, patch: bigint, pre: string, metadata: string): SemverVersion {
    const v = new SemverVersion(major, minor, patch, pre, metadata, '', false);
    return new SemverVersion(major, minor, patch, pre, metadata, this.vPrefix() + v.toString(), false);
  }

  override method(name: string): GoFunc | undefined {
    const u64 = (n: bigint): GoNumber => new GoNumber('uint64', n);
    const other = (args: GoValue[]): SemverVersion => {
      const o = args[0];
      if (!(o instanceof SemverVersion)) {
        throw new GoFuncError('runtime error: invalid memory address or nil pointer dereference');
      }
      return o;
    };
    const bool = (f: (c: number) => boolean) => (args: GoValue[]) => f(this.compare(other(args)));
    switch (name) {
      case 'Major':
        return goFunc(name, [], ['uint64'], () => u64(this.major));
      case 'Minor':
        return goFunc(name, [], ['uint64'], () => u64(this.minor));
      case 'Patch':
        return goFunc(name, [], ['uint64'], () => u64(this.patch));
      case 'Prerelease':
        return goFunc(name, [], ['string'], () => this.pre);
      case 'Metadata':
        return goFunc(name, [], ['string'], () => this.metadata);
      case 'Original':
        return goFunc(name, [], ['string'], () => this.original);
      case 'String':
        return goFunc(name, [], ['string'], () => this.toString());
      case 'Compare':
        return goFunc(name, ['*semver.Version'], ['int'], (args) => BigInt(this.compare(other(args))));
      case 'LessThan':
        return goFunc(name, ['*semver.Version'], ['bool'], bool((c) => c < 0));
      case 'LessThanEqual':
        return goFunc(name, ['*semver.Version'], ['bool'], bool((c) => c <= 0));
      case 'GreaterThan':
        return goFunc(name, ['*semver.Version'], ['bool'], bool((c) => c > 0));
      case 'GreaterThanEqual':
        return goFunc(name, ['*semver.Version'], ['bool'], bool((c) => c >= 0));
      case 'Equal':
        return goFunc(name, ['*semver.Version'], ['bool'], bool((c) => c === 0));
      case 'IncPatch':
        return goFunc(name, [], ['semver.Version'], () =>
          this.pre !== ''
            ? this.next(this.major, this.minor, this.patch, '', '')
            : this.next(this.major, this.minor, this.patch + 1n, '', ''),
        );
      case 'IncMinor':
        return goFunc(name, [], ['semver.Version'], () => this.next(this.major, this.minor + 1n, 0n, '', ''));
      case 'IncMajor':
        return goFunc(name, [], ['semver.Version'], () => this.next(this.major + 1n, 0n, 0n, '', ''));
      case 'SetPrerelease':
        return goFunc(name, ['string'], ['semver.Version', 'error'], (args) => {
          const p = String(args[0] ?? '');
          if (p !== '') wrap(() => validatePrerelease(p));
          return this.next(this.major, this.minor, this.patch, p, this.metadata);
        });
      case 'SetMetadata':
        return goFunc(name, ['string'], ['semver.Version', 'error'], (args) => {
          const m = String(args[0] ?? '');
          if (m !== '') wrap(() => validateMetadata(m));
          return this.next(this.major, this.minor, this.patch, this.pre, m);
        });
    }
    return undefined;
  }
}

function wrap(f: () => void): void {
  try {
    f();
  } catch (e) {
    if (e instanceof SemverError) throw new GoFuncError(e.message);
    throw e;
  }
}

function comparePrePart(s: string, o: string): number {
  if (s === o) return 0;
  if (s === '') return o !== '' ? -1 : 1;
  if (o === '') return 1;
  const isNum = (x: string): boolean => /^[0-9]+$/.test(x) && BigInt(x) <= maxUint64;
  const sn = isNum(s);
  const on = isNum(o);
  if (!sn && !on) return s > o ? 1 : -1;
  if (!on) return -1;
  if (!sn) return 1;
  return BigInt(s) > BigInt(o) ? 1 : -1;
}
function comparePrerelease(v: string, o: string): number {
  const sp = v.split('.');
  const op = o.split('.');
  const l = Math.max(sp.length, op.length);
  for (let i = 0; i < l; i++) {
    const d = comparePrePart(sp[i] ?? '', op[i] ?? '');
    if (d !== 0) return d;
  }
  return 0;
}

// Constraint grammar, as the library's regular expressions (RE2's \s is [\t\n\f\r ]). They run on Go's regexp
// engine (./regexp.ts, linear in the text), as in Go: validConstraint's repeated group with its optional operator
// and whitespace on both sides backtracks exponentially in JavaScript's engine (15 short items took minutes).
const ws = '[\\t\\n\\f\\r ]';
const cv =
  'v?([0-9|x|X|\\*]+)(\\.[0-9|x|X|\\*]+)?(\\.[0-9|x|X|\\*]+)?(-([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?(\\+([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?';
const ops = '=||!=|>|<|>=|=>|<=|=<|~|~>|\\^';

let compiled: { constraint: GoRegexp; range: GoRegexp; find: GoRegexp; valid: GoRegexp } | undefined;

/** Compiled on first use: the regexp engine loads with it, and most commands never compare versions in a template. */
function patterns(): NonNullable<typeof compiled> {
  compiled ??= {
    constraint: GoRegexp.mustCompile(`^${ws}*(${ops})${ws}*(${cv})${ws}*$`),
    range: GoRegexp.mustCompile(`${ws}*(${cv})${ws}+-${ws}+(${cv})${ws}*`),
    find: GoRegexp.mustCompile(`(${ops})${ws}*(${cv})`),
    valid: GoRegexp.mustCompile(`^(${ws}*(${ops})${ws}*(${cv})${ws}*)((?:${ws}+|,${ws}*)(${ops})${ws}*(${cv})${ws}*)*$`),
  };
  return compiled;
}

/** A match's submatches as strings (undefined for a group that did not take part), like RegExp's exec. */
function submatches(s: string, cap: readonly number[]): (string | undefined)[] {
  const out: (string | undefined)[] = [];
  for (let i = 0; i + 1 < cap.length; i += 2) {
    const a = cap[i] ?? -1;
    const b = cap[i + 1] ?? -1;
    out.push(a < 0 || b < 0 ? undefined : s.slice(a, b));
  }
  return out;
}

function findSubmatch(re: GoRegexp, s: string): (string | undefined)[] | null {
  const cap = re.execute(s, 0, 2 * (re.numSubexp + 1));
  return cap === null ? null : submatches(s, cap);
}

function findAllSubmatch(re: GoRegexp, s: string): (string | undefined)[][] {
  return re.allMatches(s, -1, 2 * (re.numSubexp + 1)).map((cap) => submatches(s, cap));
}

interface Constraint {
  con: SemverVersion;
  orig: string;
  origfunc: string;
  minorDirty: boolean;
  patchDirty: boolean;
  dirty: boolean;
}

const isX = (x: string): boolean => x === 'x' || x === '*' || x === 'X';

function parseConstraint(c: string): Constraint {
  if (c.length === 0) {
    return { con: new SemverVersion(0n, 0n, 0n, '', '', '0.0.0'), orig: c, origfunc: '', minorDirty: false, patchDirty: false, dirty: true };
  }
  const m = findSubmatch(patterns().constraint, c);
  if (!m) throw new SemverError(`improper constraint: ${c}`);
  const m3 = m[3] ?? '';
  const m4 = m[4] ?? '';
  const m5 = m[5] ?? '';
  const m6 = m[6] ?? '';
  let ver = m[2] ?? '';
  let minorDirty = false;
  let patchDirty = false;
  let dirty = false;
  if (isX(m3) || m3 === '') {
    ver = `0.0.0${m6}`;
    dirty = true;
  } else if (isX(m4.replace(/^\./, '')) || m4 === '') {
    minorDirty = true;
    dirty = true;
    ver = `${m3}.0.0${m6}`;
  } else if (isX(m5.replace(/^\./, '')) || m5 === '') {
    dirty = true;
    patchDirty = true;
    ver = `${m3}${m4}.0${m6}`;
  }
  let con: SemverVersion;
  try {
    con = SemverVersion.parse(ver);
  } catch {
    throw new SemverError('constraint parser error');
  }
  return { con, orig: m[2] ?? '', origfunc: m[1] ?? '', minorDirty, patchDirty, dirty };
}

function rewriteRange(i: string): string {
  const matches = findAllSubmatch(patterns().range, i);
  let o = i;
  for (const v of matches) {
    o = o.replace(v[0] ?? '', () => `>= ${v[1] ?? ''}, <= ${v[11] ?? ''} `);
  }
  return o;
}

/** semver.Constraints */
export class SemverConstraints {
  private constructor(
    private readonly groups: Constraint[][],
    private readonly containsPre: boolean[],
  ) {}

  /** semver.NewConstraint; throws SemverError with the library's message. */
  static parse(c: string): SemverConstraints {
    c = rewriteRange(c);
    const ors = c.split('||');
    const groups: Constraint[][] = [];
    const hasPre: boolean[] = [];
    for (const v of ors) {
      if (!patterns().valid.matchString(v)) throw new SemverError(`improper constraint: ${v}`);
      let cs = findAllSubmatch(patterns().find, v).map((m) => m[0] ?? '');
      if (cs.length === 0) cs = [v];
      const result = cs.map(parseConstraint);
      hasPre.push(result.some((pc) => pc.con.pre !== ''));
      groups.push(result);
    }
    return new SemverConstraints(groups, hasPre);
  }

  check(v: SemverVersion): boolean {
    return this.groups.some((group, i) => group.every((c) => checkConstraint(c, v, this.containsPre[i] ?? false)));
  }
}

function checkConstraint(c: Constraint, v: SemverVersion, includePre: boolean): boolean {
  if (v.pre !== '' && !includePre) return false;
  const con = c.con;
  const tilde = (): boolean => {
    if (v.compare(con) < 0) return false;
    if (con.major === 0n && con.minor === 0n && con.patch === 0n && !c.minorDirty && !c.patchDirty) return true;
    if (v.major !== con.major) return false;
    if (v.minor !== con.minor && !c.minorDirty) return false;
    return true;
  };
  switch (c.origfunc) {
    case '':
    case '=':
      return c.dirty ? tilde() : v.compare(con) === 0;
    case '!=':
      if (c.dirty) {
        if (con.major !== v.major) return true;
        if (con.minor !== v.minor && !c.minorDirty) return true;
        if (c.minorDirty) return false;
        if (con.patch !== v.patch && !c.patchDirty) return true;
        if (c.patchDirty) {
          if (v.pre !== '' || con.pre !== '') return comparePrerelease(v.pre, con.pre) !== 0;
          return false;
        }
      }
      return v.compare(con) !== 0;
    case '>':
      if (!c.dirty) return v.compare(con) === 1;
      if (v.major > con.major) return true;
      if (v.major < con.major) return false;
      if (c.minorDirty) return false;
      if (c.patchDirty) return v.minor > con.minor;
      return v.compare(con) === 1;
    case '<':
      return v.compare(con) < 0;
    case '>=':
    case '=>':
      return v.compare(con) >= 0;
    case '<=':
    case '=<':
      if (!c.dirty) return v.compare(con) <= 0;
      if (v.major > con.major) return false;
      if (v.major === con.major && v.minor > con.minor && !c.minorDirty) return false;
      return true;
    case '~':
    case '~>':
      return tilde();
    case '^':
      if (v.compare(con) < 0) return false;
      if (con.major > 0n || c.minorDirty) return v.major === con.major;
      if (con.major === 0n && v.major > 0n) return false;
      if (con.minor > 0n || c.patchDirty) return v.minor === con.minor;
      if (con.minor === 0n && v.minor > 0n) return false;
      return con.patch === v.patch;
  }
  return false;
}

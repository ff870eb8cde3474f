/**
 * Plain-scalar resolution exactly as go-yaml v2 (v2.4.3, `resolve.go`) does it, followed by the JSON step of
 * sigs.k8s.io/yaml (every number becomes a float64, i.e. a JS number). Used by the parser for plain scalars and by
 * the emitters to decide when a string must be quoted.
 */

export type Scalar = string | number | boolean | null;

const resolveMap = new Map<string, Scalar>();
for (const s of ['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON']) resolveMap.set(s, true);
for (const s of ['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF']) resolveMap.set(s, false);
for (const s of ['', '~', 'null', 'Null', 'NULL']) resolveMap.set(s, null);
for (const s of ['.nan', '.NaN', '.NAN']) resolveMap.set(s, Number.NaN);
for (const s of ['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF']) resolveMap.set(s, Number.POSITIVE_INFINITY);
for (const s of ['-.inf', '-.Inf', '-.INF']) resolveMap.set(s, Number.NEGATIVE_INFINITY);

/** resolveTable hints: 'S' sign, 'D' digit, 'M' map, '.' float. */
function hint(c: string): string {
  if (c === '+' || c === '-') return 'S';
  if (c >= '0' && c <= '9') return 'D';
  if ('yYnNtTfFoO~'.includes(c)) return 'M';
  if (c === '.') return '.';
  return '';
}

const yamlStyleFloat = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const goFloat =
  /^[-+]?(?:(?:[0-9](?:_?[0-9])*)?\.?(?:[0-9](?:_?[0-9])*)?(?:[eE][-+]?[0-9](?:_?[0-9])*)?|[iI][nN][fF](?:[iI][nN][iI][tT][yY])?|[nN][aA][nN])$/;

/** Go strconv.ParseInt/ParseUint with base 0 (after go-yaml removed underscores): the value or undefined. */
function parseGoInt(s: string): number | undefined {
  let i = 0;
  let neg = false;
  if (s[0] === '+' || s[0] === '-') {
    neg = s[0] === '-';
    i = 1;
  }
  const body = s.slice(i);
  if (body === '') return undefined;
  let base = 10;
  let digits = body;
  if (body.length > 1 && body[0] === '0') {
    const p = body[1];
    if (p === 'x' || p === 'X') {
      base = 16;
      digits = body.slice(2);
    } else if (p === 'o' || p === 'O') {
      base = 8;
      digits = body.slice(2);
    } else if (p === 'b' || p === 'B') {
      base = 2;
      digits = body.slice(2);
    } else {
      base = 8;
      digits = body.slice(1);
    }
  }
  if (digits === '') return undefined;
  const re = base === 16 ? /^[0-9a-fA-F]+$/ : base === 10 ? /^[0-9]+$/ : base === 8 ? /^[0-7]+$/ : /^[01]+$/;
  if (!re.test(digits)) return undefined;
  let v: bigint;
  try {
    v = BigInt((base === 16 ? '0x' : base === 8 ? '0o' : base === 2 ? '0b' : '') + digits);
  } catch {
    return undefined;
  }
  if (neg) v = -v;
  // int64, then uint64 range (a negative number never parses as uint).
  if (v < -(2n ** 63n) || v > 2n ** 64n - 1n) return undefined;
  return Number(v);
}

/** Go strconv.ParseFloat(s, 64) syntax check + value (no hex floats: go-yaml only calls it on yamlStyleFloat or '.'). */
function parseGoFloat(s: string): number | undefined {
  if (!goFloat.test(s)) return undefined;
  if (!/[0-9]/.test(s) && !/inf|nan/i.test(s)) return undefined;
  const t = s.replace(/_/g, '');
  if (/^[-+]?inf(inity)?$/i.test(t)) return t[0] === '-' ? -Infinity : Infinity;
  if (/^[-+]?nan$/i.test(t)) return Number.NaN;
  const v = Number(t);
  return Number.isNaN(v) ? undefined : v;
}

function looksLikeTimestamp(s: string): boolean {
  if (s.length < 8 || s.charCodeAt(4) !== 45) return false;
  // go-yaml parseTimestamp: YYYY- prefix, then one of the allowed layouts with short date fields.
  return /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::?[0-9]{2})?))?)?$/.test(
    s,
  );
}

/**
 * Resolves a plain (unquoted, untagged) scalar the way go-yaml v2 does and returns its JSON value.
 * Timestamps stay strings (go-yaml keeps them as strings when decoding into interface{}).
 */
export function resolvePlain(s: string): Scalar {
  const h = s === '' ? 'N' : hint(s[0] as string);
  if (h === '') return s;
  const m = resolveMap.get(s);
  if (m !== undefined) return m;
  if (s === '<<') return s;
  if (h === '.') {
    const f = parseGoFloat(s);
    return f === undefined ? s : f;
  }
  if (h === 'D' || h === 'S') {
    if (looksLikeTimestamp(s)) return s;
    const plain = s.replace(/_/g, '');
    const i = parseGoInt(plain);
    if (i !== undefined) return i;
    if (yamlStyleFloat.test(plain)) {
      const f = parseGoFloat(plain);
      if (f !== undefined) return f;
    }
    if (plain.startsWith('0b') || plain.startsWith('-0b')) {
      const neg = plain[0] === '-';
      const digits = plain.slice(neg ? 3 : 2);
      if (/^[01]+$/.test(digits)) {
        const v = Number(BigInt('0b' + digits));
        return neg ? -v : v;
      }
    }
  }
  return s;
}

/** True when `s` written as a plain scalar would be read back by go-yaml v2 as something other than this string. */
export function isAmbiguousPlain(s: string): boolean {
  return resolvePlain(s) !== s || looksLikeTimestamp(s);
}

/** sigs.k8s.io/yaml's key stringification (`convertToJSONableObject`): floats use %g at 32-bit precision. */
export function keyToString(k: Scalar): string {
  if (typeof k === 'string') return k;
  if (k === null) return 'null';
  if (typeof k === 'boolean') return k ? 'true' : 'false';
  if (Number.isInteger(k) && Math.abs(k) < 1e21) return String(k);
  return formatFloat32G(k);
}

function formatFloat32G(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : '-Inf';
  const f = Math.fround(v);
  // shortest repr that round-trips at float32 precision
  for (let p = 1; p <= 9; p++) {
    const s = f.toPrecision(p);
    if (Math.fround(Number(s)) === f) return goG(Number(s), p);
  }
  return String(f);
}

function goG(v: number, prec: number): string {
  if (v === 0) return '0';
  const exp = Math.floor(Math.log10(Math.abs(v)));
  if (exp < -4 || exp >= Math.max(prec, 21)) {
    const [m, e] = v.toExponential(prec - 1).split('e') as [string, string];
    const mant = m.includes('.') ? m.replace(/\.?0+$/, '') : m;
    const en = Number(e);
    return `${mant}e${en < 0 ? '-' : '+'}${String(Math.abs(en)).padStart(2, '0')}`;
  }
  return String(v);
}

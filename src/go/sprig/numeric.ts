/**
 * sprig's numeric.go and conversion functions: integer math in wrapping int64 (Go's overflow), float math through
 * shopspring/decimal like sprig's addf/subf/mulf/divf, and cast's lenient conversions.
 */
import { formatFloat, GoNumber, goParseInt, typedSlice, type GoValue, formatGoValue } from '../template/index.js';
import { toFloat64, toInt64 } from './cast.js';
import { bigint, checkSize, fn, goError, str, type FuncTable } from './func.js';

const i64 = (n: bigint): GoNumber => new GoNumber('int64', BigInt.asIntN(64, n));

/** A decimal number `coef × 10^exp` (shopspring/decimal's representation). */
interface Decimal {
  coef: bigint;
  exp: number;
}

/** decimal.NewFromFloat: the shortest decimal that round-trips to the float. */
function decimalFromFloat(f: number): Decimal {
  if (!Number.isFinite(f)) goError(`Cannot create a Decimal from ${formatFloat(f, 'g', -1, 64)}`);
  if (f === 0) return { coef: 0n, exp: 0 };
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(f.toExponential());
  if (!m) return { coef: 0n, exp: 0 };
  const digits = (m[2] ?? '') + (m[3] ?? '');
  const coef = BigInt(`${m[1] ?? ''}${digits}`);
  return { coef, exp: Number(m[4]) - (digits.length - 1) };
}
function align(a: Decimal, b: Decimal): [bigint, bigint, number] {
  const exp = Math.min(a.exp, b.exp);
  return [a.coef * 10n ** BigInt(a.exp - exp), b.coef * 10n ** BigInt(b.exp - exp), exp];
}
const decAdd = (a: Decimal, b: Decimal): Decimal => {
  const [x, y, exp] = align(a, b);
  return { coef: x + y, exp };
};
const decSub = (a: Decimal, b: Decimal): Decimal => {
  const [x, y, exp] = align(a, b);
  return { coef: x - y, exp };
};
const decMul = (a: Decimal, b: Decimal): Decimal => ({ coef: a.coef * b.coef, exp: a.exp + b.exp });
/** Decimal.Div: DivRound to 16 decimal places, halves rounded away from zero. */
function decDiv(a: Decimal, b: Decimal): Decimal {
  if (b.coef === 0n) goError('decimal division by zero');
  const precision = 16;
  // a/b × 10^precision as a fraction of integers.
  let num = a.coef;
  let den = b.coef;
  const shift = a.exp - b.exp + precision;
  if (shift >= 0) num *= 10n ** BigInt(shift);
  else den *= 10n ** BigInt(-shift);
  if (den < 0n) {
    num = -num;
    den = -den;
  }
  let q = num / den;
  const r = num % den;
  const absR2 = (r < 0n ? -r : r) * 2n;
  if (absR2 >= den) q += num < 0n ? -1n : 1n;
  return { coef: q, exp: -precision };
}
const decToFloat = (d: Decimal): number => Number(`${d.coef}e${d.exp}`);

function decimalOp(first: GoValue, rest: GoValue[], op: (a: Decimal, b: Decimal) => Decimal): number {
  let acc = decimalFromFloat(toFloat64(first));
  for (const x of rest) acc = op(acc, decimalFromFloat(toFloat64(x)));
  return decToFloat(acc);
}

function untilStep(start: bigint, stop: bigint, step: bigint): bigint[] {
  const v: bigint[] = [];
  const count = (a: bigint, b: bigint, s: bigint): bigint => (b - a + s - (s > 0n ? 1n : -1n)) / s;
  if (stop < start) {
    if (step >= 0n) return v;
    checkSize(Number(count(start, stop, step)), 'untilStep');
    for (let i = start; i > stop; i += step) v.push(i);
    return v;
  }
  if (step <= 0n) return v;
  checkSize(Number(count(start, stop, step)), 'untilStep');
  for (let i = start; i < stop; i += step) v.push(i);
  return v;
}

/** seq's output: fmt.Sprint of the []int with the brackets trimmed. */
function seq(params: bigint[]): string {
  const join = (xs: bigint[]): string => xs.map(String).join(' ');
  switch (params.length) {
    case 1: {
      const end = params[0] ?? 0n;
      const inc = end < 1n ? -1n : 1n;
      return join(untilStep(1n, end + inc, inc));
    }
    case 2: {
      const [start = 0n, end = 0n] = params;
      const step = end < start ? -1n : 1n;
      return join(untilStep(start, end + step, step));
    }
    case 3: {
      const [start = 0n, step = 0n, end = 0n] = params;
      let inc = 1n;
      if (end < start) {
        inc = -1n;
        if (step > 0n) return '';
      }
      return join(untilStep(start, end + inc, step));
    }
    default:
      return '';
  }
}

function intDiv(a: bigint, b: bigint, mod: boolean): GoNumber {
  if (b === 0n) goError('runtime error: integer divide by zero');
  return i64(mod ? a % b : a / b);
}

/** math.Modf's fractional part. */
function frac(x: number): number {
  if (Math.abs(x) < 1) return x;
  return x - Math.trunc(x);
}

export function numericFuncs(): FuncTable {
  const any1 = ['interface {}'];
  const intSlice = (xs: bigint[]): GoValue => typedSlice(xs, 'int');
  return {
    // strconv.Atoi: syntax errors give 0, out-of-range values the clamped bound.
    atoi: fn('atoi', ['string'], ['int'], (a) => {
      const s = str(a[0]);
      if (/^[+-]?[0-9]+$/.test(s)) return goParseInt(s, 10).value;
      return 0n;
    }),
    int64: fn('int64', any1, ['int64'], (a) => new GoNumber('int64', toInt64(a[0] ?? null))),
    int: fn('int', any1, ['int'], (a) => toInt64(a[0] ?? null)),
    float64: fn('float64', any1, ['float64'], (a) => toFloat64(a[0] ?? null)),
    toDecimal: fn('toDecimal', any1, ['int64'], (a) => {
      const r = goParseInt(formatGoValue(a[0] ?? null), 8);
      return new GoNumber('int64', r.err === null ? r.value : 0n);
    }),
    seq: fn('seq', ['int'], ['string'], (a) => seq(a.map(bigint)), true),
    until: fn('until', ['int'], ['[]int'], (a) => {
      const count = bigint(a[0]);
      return intSlice(untilStep(0n, count, count < 0n ? -1n : 1n));
    }),
    untilStep: fn('untilStep', ['int', 'int', 'int'], ['[]int'], (a) => intSlice(untilStep(bigint(a[0]), bigint(a[1]), bigint(a[2])))),
    add1: fn('add1', any1, ['int64'], (a) => i64(toInt64(a[0] ?? null) + 1n)),
    add: fn('add', any1, ['int64'], (a) => i64(a.reduce<bigint>((s, b) => BigInt.asIntN(64, s + toInt64(b)), 0n)), true),
    sub: fn('sub', ['interface {}', 'interface {}'], ['int64'], (a) => i64(toInt64(a[0] ?? null) - toInt64(a[1] ?? null))),
    div: fn('div', ['interface {}', 'interface {}'], ['int64'], (a) => intDiv(toInt64(a[0] ?? null), toInt64(a[1] ?? null), false)),
    mod: fn('mod', ['interface {}', 'interface {}'], ['int64'], (a) => intDiv(toInt64(a[0] ?? null), toInt64(a[1] ?? null), true)),
    mul: fn(
      'mul',
      ['interface {}', 'interface {}'],
      ['int64'],
      (a) => i64(a.slice(1).reduce<bigint>((p, b) => BigInt.asIntN(64, p * toInt64(b)), toInt64(a[0] ?? null))),
      true,
    ),
    add1f: fn('add1f', any1, ['float64'], (a) => decimalOp(a[0] ?? null, [1n], decAdd)),
    addf: fn('addf', any1, ['float64'], (a) => decimalOp(0, a, decAdd), true),
    subf: fn('subf', ['interface {}', 'interface {}'], ['float64'], (a) => decimalOp(a[0] ?? null, a.slice(1), decSub), true),
    divf: fn('divf', ['interface {}', 'interface {}'], ['float64'], (a) => decimalOp(a[0] ?? null, a.slice(1), decDiv), true),
    mulf: fn('mulf', ['interface {}', 'interface {}'], ['float64'], (a) => decimalOp(a[0] ?? null, a.slice(1), decMul), true),
    biggest: fn('biggest', ['interface {}', 'interface {}'], ['int64'], (a) => i64(extreme(a, 1)), true),
    max: fn('max', ['interface {}', 'interface {}'], ['int64'], (a) => i64(extreme(a, 1)), true),
    min: fn('min', ['interface {}', 'interface {}'], ['int64'], (a) => i64(extreme(a, -1)), true),
    maxf: fn('maxf', ['interface {}', 'interface {}'], ['float64'], (a) => a.slice(1).reduce<number>((m, b) => Math.max(m, toFloat64(b)), toFloat64(a[0] ?? null)), true),
    minf: fn('minf', ['interface {}', 'interface {}'], ['float64'], (a) => a.slice(1).reduce<number>((m, b) => Math.min(m, toFloat64(b)), toFloat64(a[0] ?? null)), true),
    ceil: fn('ceil', any1, ['float64'], (a) => Math.ceil(toFloat64(a[0] ?? null))),
    floor: fn('floor', any1, ['float64'], (a) => Math.floor(toFloat64(a[0] ?? null))),
    round: fn(
      'round',
      ['interface {}', 'int', 'float64'],
      ['float64'],
      (a) => {
        const roundOn = a.length > 2 && typeof a[2] === 'number' ? a[2] : 0.5;
        const val = toFloat64(a[0] ?? null);
        const pow = 10 ** Number(bigint(a[1]));
        const digit = pow * val;
        const r = frac(digit) >= roundOn ? Math.ceil(digit) : Math.floor(digit);
        return r / pow;
      },
      true,
    ),
    // rand.Intn in Go; here a value derived from the bounds (see nondeterministicSprigFunctions).
    randInt: fn('randInt', ['int', 'int'], ['int'], (a) => {
      const min = bigint(a[0]);
      const max = bigint(a[1]);
      if (max - min <= 0n) goError('invalid argument to Intn');
      return min + ((min * 31n + max) % (max - min) + (max - min)) % (max - min);
    }),
  };
}

function extreme(a: GoValue[], sign: 1 | -1): bigint {
  let acc = toInt64(a[0] ?? null);
  for (const b of a.slice(1)) {
    const v = toInt64(b);
    if (sign > 0 ? v > acc : v < acc) acc = v;
  }
  return acc;
}

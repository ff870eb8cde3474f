/**
 * The date functions left in sprig's hermetic map: `duration` and `durationRound` (time.Duration's String and
 * ParseDuration), `toDate`/`mustToDate` (parsing in time.Local, which is UTC in CAPI's controller image), `unixEpoch`
 * and `mustDateModify`. `ago` reads the clock, so capiform reports it as unsupported instead of guessing.
 */
import { goQuote } from '../quote.js';
import { GoNumber, goParseInt, type GoValue } from '../template/index.js';
import { fn, goError, str, type FuncTable } from './func.js';
import { GoTime, parseTime, TimeParseError, zeroTime } from './time.js';

const ns = 1n;
const us = 1000n * ns;
const ms = 1000n * us;
const second = 1000n * ms;
const minute = 60n * second;
const hour = 60n * minute;

/** fmtFrac: the fraction of v / 10^prec without trailing zeros (and without the point when it is zero). */
function fmtFrac(v: bigint, prec: number): [string, bigint] {
  let out = '';
  let print = false;
  for (let i = 0; i < prec; i++) {
    const digit = v % 10n;
    print = print || digit !== 0n;
    if (print) out = `${digit}${out}`;
    v /= 10n;
  }
  return [print ? `.${out}` : '', v];
}

/** time.Duration.String */
export function durationString(d: bigint): string {
  d = BigInt.asIntN(64, d);
  const neg = d < 0n;
  let u = neg ? -d : d;
  if (d === -(1n << 63n)) u = 1n << 63n;
  let out: string;
  if (u < second) {
    if (u === 0n) return '0s';
    let unit: string;
    let prec: number;
    if (u < us) {
      prec = 0;
      unit = 'ns';
    } else if (u < ms) {
      prec = 3;
      unit = 'µs';
    } else {
      prec = 6;
      unit = 'ms';
    }
    const [frac, int] = fmtFrac(u, prec);
    out = `${int}${frac}${unit}`;
  } else {
    const [frac, secs] = fmtFrac(u, 9);
    out = `${secs % 60n}${frac}s`;
    let rest = secs / 60n;
    if (rest > 0n) {
      out = `${rest % 60n}m${out}`;
      rest /= 60n;
      if (rest > 0n) out = `${rest}h${out}`;
    }
  }
  return neg ? `-${out}` : out;
}

const units: Record<string, bigint> = { ns, us, µs: us, μs: us, ms, s: second, m: minute, h: hour };

/** time.ParseDuration; throws with Go's message. */
export function parseDuration(s: string): bigint {
  const orig = s;
  const invalid = (): never => goError(`time: invalid duration ${goQuote(orig)}`);
  let d = 0n;
  let neg = false;
  if (s !== '') {
    const c = s[0];
    if (c === '-' || c === '+') {
      neg = c === '-';
      s = s.slice(1);
    }
  }
  if (s === '0') return 0n;
  if (s === '') invalid();
  const max = (1n << 63n) - 1n;
  while (s !== '') {
    if (!(s[0] === '.' || (s[0] ?? '') >= '0' && (s[0] ?? '') <= '9')) invalid();
    const intM = /^[0-9]*/.exec(s)?.[0] ?? '';
    s = s.slice(intM.length);
    const pre = intM !== '';
    let fracDigits = '';
    let post = false;
    if (s.startsWith('.')) {
      s = s.slice(1);
      fracDigits = /^[0-9]*/.exec(s)?.[0] ?? '';
      s = s.slice(fracDigits.length);
      post = fracDigits !== '';
    }
    if (!pre && !post) invalid();
    const unitM = /^[^0-9.]*/.exec(s)?.[0] ?? '';
    s = s.slice(unitM.length);
    if (unitM === '') goError(`time: missing unit in duration ${goQuote(orig)}`);
    const unit = units[unitM];
    if (unit === undefined) goError(`time: unknown unit ${goQuote(unitM)} in duration ${goQuote(orig)}`);
    const v = BigInt(intM === '' ? '0' : intM);
    if (v > max / (unit ?? 1n)) invalid();
    let part = v * (unit ?? 1n);
    if (fracDigits !== '') {
      // Go scales the fraction in float64; this matches it for the digits a duration carries in practice.
      const f = Number(`0.${fracDigits}`) * Number(unit);
      part += BigInt(Math.trunc(f));
      if (part > max) invalid();
    }
    d += part;
    if (d > max) invalid();
  }
  return neg ? -d : d;
}

function durationRound(v: GoValue): string {
  let d = 0n;
  if (typeof v === 'string') {
    try {
      d = parseDuration(v);
    } catch {
      d = 0n;
    }
  } else if (v instanceof GoNumber && v.type === 'int64' && typeof v.value === 'bigint') {
    d = v.value;
  }
  let u = BigInt.asUintN(64, d);
  if (d < 0n) u = BigInt.asUintN(64, -d);
  const year = hour * 24n * 365n;
  const month = hour * 24n * 30n;
  const day = hour * 24n;
  if (u > year) return `${u / year}y`;
  if (u > month) return `${u / month}mo`;
  if (u > day) return `${u / day}d`;
  if (u > hour) return `${u / hour}h`;
  if (u > minute) return `${u / minute}m`;
  if (u > second) return `${u / second}s`;
  return '0s';
}

function unsupported(name: string, why: string): never {
  return goError(`capiform: ${name} is not supported: ${why}`);
}

function timeArg(v: GoValue | undefined): GoTime {
  return v instanceof GoTime ? v : zeroTime;
}

function parse(layout: string, value: string): GoTime {
  try {
    return parseTime(layout, value);
  } catch (e) {
    if (e instanceof TimeParseError) goError(e.message);
    throw e;
  }
}

export function dateFuncs(): FuncTable {
  const time = 'time.Time';
  const clock = 'it reads the current time, so CAPI gets a different result on every reconcile';
  const modify = (name: string) =>
    fn(name, ['string', time], [time, 'error'], (a) => timeArg(a[1]).add(parseDuration(typeof a[0] === 'string' ? a[0] : '')));
  return {
    duration: fn('duration', ['interface {}'], ['string'], (a) => {
      const v = a[0] ?? null;
      let n = 0n;
      if (typeof v === 'string') n = goParseInt(v, 10).value;
      else if (v instanceof GoNumber && v.type === 'int64' && typeof v.value === 'bigint') n = v.value;
      return durationString(BigInt.asIntN(64, n * second));
    }),
    durationRound: fn('durationRound', ['interface {}'], ['string'], (a) => durationRound(a[0] ?? null)),
    ago: fn('ago', ['interface {}'], ['string'], () => unsupported('ago', clock)),
    // time.ParseInLocation(fmt, str, time.Local): Local is UTC in CAPI's controller image.
    toDate: fn('toDate', ['string', 'string'], [time], (a) => {
      try {
        return parseTime(str(a[0]), str(a[1]));
      } catch (e) {
        if (e instanceof TimeParseError) return zeroTime;
        throw e;
      }
    }),
    mustToDate: fn('mustToDate', ['string', 'string'], [time, 'error'], (a) => parse(str(a[0]), str(a[1]))),
    unixEpoch: fn('unixEpoch', [time], ['string'], (a) => timeArg(a[0]).unix().toString()),
    mustDateModify: modify('mustDateModify'),
    must_date_modify: modify('must_date_modify'),
  };
}

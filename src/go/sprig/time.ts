/**
 * The slice of Go's time package sprig's remaining date functions need: time.Time values (in UTC, the time zone of
 * CAPI's distroless controller image, where time.Local is UTC), parsing and formatting with Go reference layouts
 * ("2006-01-02T15:04:05Z07:00"), String(), and Add.
 */
import { goQuote } from '../quote.js';
import { GoNumber, GoObject, goFunc, type GoFunc, type GoValue } from '../template/index.js';

const nsPerSecond = 1_000_000_000n;
const longMonths = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const longDays = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** A time.Time: nanoseconds since the Unix epoch, shown in a fixed zone offset (seconds east of UTC). */
export class GoTime extends GoObject {
  readonly goType = 'time.Time';
  constructor(
    readonly unixNano: bigint,
    readonly offset = 0,
    readonly zoneName = 'UTC',
  ) {
    super();
  }

  /** Calendar fields in the time's own zone. */
  fields(): { year: number; month: number; day: number; hour: number; min: number; sec: number; nsec: number; yday: number; wday: number } {
    const local = this.unixNano + BigInt(this.offset) * nsPerSecond;
    let secs = local / nsPerSecond;
    let nsec = local % nsPerSecond;
    if (nsec < 0n) {
      nsec += nsPerSecond;
      secs -= 1n;
    }
    const d = new Date(Number(secs) * 1000);
    const days = secs >= 0n ? secs / 86400n : (secs - 86399n) / 86400n;
    return {
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      hour: d.getUTCHours(),
      min: d.getUTCMinutes(),
      sec: d.getUTCSeconds(),
      nsec: Number(nsec),
      yday: Number(days - daysFromCivil(d.getUTCFullYear(), 1, 1)) + 1,
      wday: d.getUTCDay(),
    };
  }

  unix(): bigint {
    const s = this.unixNano / nsPerSecond;
    return this.unixNano < 0n && this.unixNano % nsPerSecond !== 0n ? s - 1n : s;
  }

  add(d: bigint): GoTime {
    return new GoTime(this.unixNano + d, this.offset, this.zoneName);
  }

  /** Time.String(): "2006-01-02 15:04:05.999999999 -0700 MST". */
  format(): string {
    return formatTime(this, '2006-01-02 15:04:05.999999999 -0700 MST');
  }
  /** reflect.DeepEqual of two time.Time values: same instant, same zone. */
  equalTo(o: GoObject): boolean {
    return o instanceof GoTime && o.unixNano === this.unixNano && o.offset === this.offset && o.zoneName === this.zoneName;
  }
  marshalJSON(): GoValue {
    return formatTime(this, '2006-01-02T15:04:05.999999999Z07:00');
  }

  override method(name: string): GoFunc | undefined {
    const f = this.fields();
    const int = (n: number | bigint): bigint => BigInt(n);
    switch (name) {
      case 'Unix':
        return goFunc(name, [], ['int64'], () => new GoNumber('int64', this.unix()));
      case 'UnixNano':
        return goFunc(name, [], ['int64'], () => new GoNumber('int64', this.unixNano));
      case 'Year':
        return goFunc(name, [], ['int'], () => int(f.year));
      case 'Month':
        return goFunc(name, [], ['time.Month'], () => longMonths[f.month - 1] ?? '');
      case 'Day':
        return goFunc(name, [], ['int'], () => int(f.day));
      case 'Hour':
        return goFunc(name, [], ['int'], () => int(f.hour));
      case 'Minute':
        return goFunc(name, [], ['int'], () => int(f.min));
      case 'Second':
        return goFunc(name, [], ['int'], () => int(f.sec));
      case 'Nanosecond':
        return goFunc(name, [], ['int'], () => int(f.nsec));
      case 'YearDay':
        return goFunc(name, [], ['int'], () => int(f.yday));
      case 'Weekday':
        return goFunc(name, [], ['time.Weekday'], () => longDays[f.wday] ?? '');
      case 'IsZero':
        return goFunc(name, [], ['bool'], () => this.unixNano === zeroTime.unixNano);
      case 'UTC':
        return goFunc(name, [], ['time.Time'], () => new GoTime(this.unixNano));
      case 'Format':
        return goFunc(name, ['string'], ['string'], (a) => formatTime(this, typeof a[0] === 'string' ? a[0] : ''));
      case 'String':
        return goFunc(name, [], ['string'], () => this.format());
    }
    return undefined;
  }
}

/** time.Time{}: January 1, year 1, 00:00:00 UTC. */
export const zeroTime = new GoTime(-62135596800n * nsPerSecond);

// Layout elements, in the order Go's nextStdChunk recognises them.
type Std =
  | 'January' | 'Jan' | 'Monday' | 'Mon' | 'MST'
  | '01' | '02' | '03' | '04' | '05' | '06' | '002'
  | '15' | '1' | '2006' | '2' | '_2' | '__2' | '3' | '4' | '5' | 'PM' | 'pm'
  | '-070000' | '-07:00:00' | '-0700' | '-07:00' | '-07'
  | 'Z070000' | 'Z07:00:00' | 'Z0700' | 'Z07:00' | 'Z07'
  | 'frac0' | 'frac9';

interface Chunk {
  prefix: string;
  std: Std | null;
  /** Digits of a fractional-second element (`.000` → 3). */
  digits: number;
  /** The element as written in the layout. */
  text: string;
  suffix: string;
}

function isDigitAt(s: string, i: number): boolean {
  const c = s[i];
  return c !== undefined && c >= '0' && c <= '9';
}

/** time's nextStdChunk. */
function nextStdChunk(layout: string): Chunk {
  for (let i = 0; i < layout.length; i++) {
    const c = layout[i];
    const rest = layout.slice(i);
    const found = (std: Std, len: number, digits = 0): Chunk => ({
      prefix: layout.slice(0, i),
      std,
      digits,
      text: layout.slice(i, i + len),
      suffix: layout.slice(i + len),
    });
    switch (c) {
      case 'J':
        if (rest.startsWith('Jan')) return rest.startsWith('January') ? found('January', 7) : found('Jan', 3);
        break;
      case 'M':
        if (rest.startsWith('Mon')) return rest.startsWith('Monday') ? found('Monday', 6) : found('Mon', 3);
        if (rest.startsWith('MST')) return found('MST', 3);
        break;
      case '0':
        if (/^0[1-6]/.test(rest)) return found(rest.slice(0, 2) as Std, 2);
        if (rest.startsWith('002')) return found('002', 3);
        break;
      case '1':
        if (rest.startsWith('15')) return found('15', 2);
        return found('1', 1);
      case '2':
        if (rest.startsWith('2006')) return found('2006', 4);
        return found('2', 1);
      case '_':
        if (rest.startsWith('_2')) {
          // "_2006" is a literal underscore followed by the year.
          if (rest.startsWith('_2006')) return { prefix: layout.slice(0, i + 1), std: '2006', digits: 0, text: '2006', suffix: layout.slice(i + 5) };
          return found('_2', 2);
        }
        if (rest.startsWith('__2')) return found('__2', 3);
        break;
      case '3':
      case '4':
      case '5':
        return found(c, 1);
      case 'P':
        if (rest.startsWith('PM')) return found('PM', 2);
        break;
      case 'p':
        if (rest.startsWith('pm')) return found('pm', 2);
        break;
      case '-':
      case 'Z': {
        const sign = c;
        for (const tail of ['070000', '07:00:00', '0700', '07:00', '07']) {
          if (rest.startsWith(sign + tail)) return found(`${sign}${tail}` as Std, 1 + tail.length);
        }
        break;
      }
      case '.':
      case ',':
        if (rest[1] === '0' || rest[1] === '9') {
          const ch = rest[1];
          let j = 1;
          while (rest[j] === ch) j++;
          if (!isDigitAt(rest, j)) return found(ch === '0' ? 'frac0' : 'frac9', j, j - 1);
        }
        break;
    }
  }
  return { prefix: layout, std: null, digits: 0, text: '', suffix: '' };
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** Time.Format */
export function formatTime(t: GoTime, layout: string): string {
  const f = t.fields();
  let out = '';
  while (layout !== '') {
    const ch = nextStdChunk(layout);
    out += ch.prefix;
    if (ch.std === null) break;
    layout = ch.suffix;
    const hour12 = f.hour % 12 === 0 ? 12 : f.hour % 12;
    switch (ch.std) {
      case '2006':
        out += pad(f.year, 4);
        break;
      case '06':
        out += pad(f.year % 100, 2);
        break;
      case 'January':
        out += longMonths[f.month - 1];
        break;
      case 'Jan':
        out += longMonths[f.month - 1]?.slice(0, 3);
        break;
      case '1':
        out += f.month;
        break;
      case '01':
        out += pad(f.month, 2);
        break;
      case 'Monday':
        out += longDays[f.wday];
        break;
      case 'Mon':
        out += longDays[f.wday]?.slice(0, 3);
        break;
      case '2':
        out += f.day;
        break;
      case '_2':
        out += String(f.day).padStart(2, ' ');
        break;
      case '02':
        out += pad(f.day, 2);
        break;
      case '__2':
        out += String(f.yday).padStart(3, ' ');
        break;
      case '002':
        out += pad(f.yday, 3);
        break;
      case '15':
        out += pad(f.hour, 2);
        break;
      case '3':
        out += hour12;
        break;
      case '03':
        out += pad(hour12, 2);
        break;
      case '4':
        out += f.min;
        break;
      case '04':
        out += pad(f.min, 2);
        break;
      case '5':
        out += f.sec;
        break;
      case '05':
        out += pad(f.sec, 2);
        break;
      case 'PM':
        out += f.hour >= 12 ? 'PM' : 'AM';
        break;
      case 'pm':
        out += f.hour >= 12 ? 'pm' : 'am';
        break;
      case 'MST':
        out += t.zoneName !== '' ? t.zoneName : formatOffset(t.offset, '-0700');
        break;
      case 'frac0':
      case 'frac9': {
        const digits = pad(f.nsec, 9).slice(0, ch.digits);
        const sep = ch.text[0] ?? '.';
        if (ch.std === 'frac0') out += sep + digits;
        else {
          const trimmed = digits.replace(/0+$/, '');
          if (trimmed !== '') out += sep + trimmed;
        }
        break;
      }
      default:
        out += ch.std.startsWith('Z') && t.offset === 0 ? 'Z' : formatOffset(t.offset, ch.std.replace(/^Z/, '-'));
    }
  }
  return out;
}

function formatOffset(offset: number, std: string): string {
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const h = pad(Math.floor(abs / 3600), 2);
  const m = pad(Math.floor(abs / 60) % 60, 2);
  const s = pad(abs % 60, 2);
  switch (std) {
    case '-070000':
      return `${sign}${h}${m}${s}`;
    case '-07:00:00':
      return `${sign}${h}:${m}:${s}`;
    case '-0700':
      return `${sign}${h}${m}`;
    case '-07:00':
      return `${sign}${h}:${m}`;
    default:
      return `${sign}${h}`;
  }
}

export class TimeParseError extends Error {}

/** time.ParseInLocation(layout, value, UTC); throws TimeParseError with Go's message. */
export function parseTime(layout: string, value: string): GoTime {
  const alayout = layout;
  const avalue = value;
  const cannot = (valueElem: string, layoutElem: string): never => {
    throw new TimeParseError(
      `parsing time ${goQuote(avalue)} as ${goQuote(alayout)}: cannot parse ${goQuote(valueElem)} as ${goQuote(layoutElem)}`,
    );
  };
  const outOfRange = (what: string): never => {
    throw new TimeParseError(`parsing time ${goQuote(avalue)}: ${what} out of range`);
  };
  let year = 1;
  let month = -1;
  let day = -1;
  let yday = -1;
  let hour = 0;
  let min = 0;
  let sec = 0;
  let nsec = 0;
  let pmSet = false;
  let amSet = false;
  let zoneOffset: number | null = null;
  let zoneName = '';
  let isZ = false;
  const getnum = (fixed: boolean): number | null => {
    if (!isDigitAt(value, 0)) return null;
    if (!isDigitAt(value, 1)) {
      if (fixed) return null;
      const n = Number(value[0]);
      value = value.slice(1);
      return n;
    }
    const n = Number(value.slice(0, 2));
    value = value.slice(2);
    return n;
  };
  const lookup = (names: string[]): number => {
    for (let i = 0; i < names.length; i++) {
      const name = names[i] ?? '';
      if (value.length >= name.length && value.slice(0, name.length).toLowerCase() === name.toLowerCase()) {
        value = value.slice(name.length);
        return i;
      }
    }
    return -1;
  };
  for (;;) {
    const ch = nextStdChunk(layout);
    const stdstr = ch.text;
    // skip: the literal prefix must match, with runs of spaces matching runs of spaces.
    let prefix = ch.prefix;
    while (prefix.length > 0) {
      if (prefix[0] === ' ') {
        if (value.length > 0 && value[0] !== ' ') cannot(value, ch.prefix);
        prefix = prefix.replace(/^ +/, '');
        value = value.replace(/^ +/, '');
        continue;
      }
      if (value.length === 0 || value[0] !== prefix[0]) cannot(value, ch.prefix);
      prefix = prefix.slice(1);
      value = value.slice(1);
    }
    if (ch.std === null) {
      if (value.length !== 0) throw new TimeParseError(`parsing time ${goQuote(avalue)}: extra text: ${goQuote(value)}`);
      break;
    }
    layout = ch.suffix;
    const hold = value;
    const bad = (): never => cannot(hold, stdstr);
    switch (ch.std) {
      case '06': {
        if (!/^\d\d/.test(value)) bad();
        const y = Number(value.slice(0, 2));
        value = value.slice(2);
        year = y >= 69 ? 1900 + y : 2000 + y;
        break;
      }
      case '2006':
        if (!/^\d\d\d\d/.test(value)) bad();
        year = Number(value.slice(0, 4));
        value = value.slice(4);
        break;
      case 'January':
        month = lookup(longMonths) + 1;
        if (month === 0) bad();
        break;
      case 'Jan':
        month = lookup(longMonths.map((m) => m.slice(0, 3))) + 1;
        if (month === 0) bad();
        break;
      case '1':
      case '01': {
        const n = getnum(ch.std === '01');
        if (n === null) bad();
        if ((n ?? 0) <= 0 || (n ?? 0) > 12) outOfRange('month');
        month = n ?? 0;
        break;
      }
      case 'Monday':
        if (lookup(longDays) < 0) bad();
        break;
      case 'Mon':
        if (lookup(longDays.map((d) => d.slice(0, 3))) < 0) bad();
        break;
      case '2':
      case '_2':
      case '02': {
        if (ch.std === '_2' && value[0] === ' ') value = value.slice(1);
        const n = getnum(ch.std === '02');
        if (n === null) bad();
        day = n ?? 0;
        break;
      }
      case '__2':
      case '002': {
        const m = /^ {0,2}\d{1,3}/.exec(value);
        if (!m || (ch.std === '002' && !/^\d{3}/.test(value))) bad();
        yday = Number((m?.[0] ?? '0').trim());
        value = value.slice(m?.[0].length ?? 0);
        if (yday < 1 || yday > 366) outOfRange('day-of-year');
        break;
      }
      case '15': {
        const n = getnum(false);
        if (n === null) bad();
        if ((n ?? 0) > 23) outOfRange('hour');
        hour = n ?? 0;
        break;
      }
      case '3':
      case '03': {
        const n = getnum(ch.std === '03');
        if (n === null) bad();
        if ((n ?? 0) > 12) outOfRange('hour');
        hour = n ?? 0;
        break;
      }
      case '4':
      case '04': {
        const n = getnum(ch.std === '04');
        if (n === null) bad();
        if ((n ?? 0) > 59) outOfRange('minute');
        min = n ?? 0;
        break;
      }
      case '5':
      case '05': {
        const n = getnum(ch.std === '05');
        if (n === null) bad();
        if ((n ?? 0) > 59) outOfRange('second');
        sec = n ?? 0;
        // A fractional second in the value that the layout does not mention is still read.
        if (/^[.,]\d/.test(value) && !/^[.,][09]/.test(layout)) {
          const m = /^[.,](\d+)/.exec(value);
          const digits = m?.[1] ?? '';
          nsec = Number(digits.slice(0, 9).padEnd(9, '0'));
          value = value.slice(1 + digits.length);
        }
        break;
      }
      case 'PM':
      case 'pm': {
        const p = value.slice(0, 2);
        if (p.length < 2) bad();
        if (p.toUpperCase() === 'PM') pmSet = true;
        else if (p.toUpperCase() === 'AM') amSet = true;
        else bad();
        value = value.slice(2);
        break;
      }
      case 'MST': {
        const m = /^[A-Z]{3,5}|^[+-]\d\d/.exec(value);
        if (!m) bad();
        zoneName = m?.[0] ?? '';
        value = value.slice(zoneName.length);
        break;
      }
      case 'frac0':
      case 'frac9': {
        const n = ch.std === 'frac0' ? ch.digits + 1 : 0;
        if (!/^[.,]/.test(value)) {
          if (ch.std === 'frac9') break;
          bad();
        }
        const m = /^[.,](\d*)/.exec(value);
        const digits = m?.[1] ?? '';
        if (ch.std === 'frac0' && digits.length !== n - 1) bad();
        if (ch.std === 'frac9' && digits === '') bad();
        nsec = Number(digits.slice(0, 9).padEnd(9, '0'));
        value = value.slice(1 + digits.length);
        break;
      }
      default: {
        // Zone offsets: "Z" stands for UTC in the Z forms.
        if (ch.std.startsWith('Z') && value[0] === 'Z') {
          value = value.slice(1);
          isZ = true;
          break;
        }
        const shape = ch.std.slice(1).replace(/[0-9]/g, '\\d');
        const m = new RegExp(`^[+-]${shape}`).exec(value);
        if (!m) bad();
        const t = (m?.[0] ?? '').replace(/:/g, '');
        const sign = t[0] === '-' ? -1 : 1;
        const hh = Number(t.slice(1, 3));
        const mm = Number(t.slice(3, 5) || '0');
        const ss = Number(t.slice(5, 7) || '0');
        if (hh > 24 || mm > 60 || ss > 60) outOfRange('time zone offset');
        zoneOffset = sign * (hh * 3600 + mm * 60 + ss);
        value = value.slice(m?.[0].length ?? 0);
      }
    }
  }
  if (pmSet && hour < 12) hour += 12;
  else if (amSet && hour === 12) hour = 0;
  if (yday >= 0) {
    let m = 1;
    let rest = yday;
    while (m <= 12 && rest > daysIn(year, m)) rest -= daysIn(year, m++);
    if (m > 12 || (month >= 0 && month !== m) || (day >= 0 && day !== rest)) outOfRange('day-of-year');
    month = m;
    day = rest;
  } else {
    if (month < 0) month = 1;
    if (day < 0) day = 1;
  }
  if (day < 1 || day > daysIn(year, month)) outOfRange('day');
  const local = daysFromCivil(year, month, day) * 86400n + BigInt(hour * 3600 + min * 60 + sec);
  if (isZ) return new GoTime(local * nsPerSecond + BigInt(nsec));
  if (zoneOffset !== null) {
    // time.Local is UTC: offset 0 is UTC, any other offset a nameless fixed zone.
    const unixNano = (local - BigInt(zoneOffset)) * nsPerSecond + BigInt(nsec);
    return zoneOffset === 0 ? new GoTime(unixNano) : new GoTime(unixNano, zoneOffset, '');
  }
  if (zoneName !== '' && zoneName !== 'UTC') {
    const gmt = /^GMT([+-]\d+)$/.exec(zoneName);
    const off = gmt ? Number(gmt[1]) * 3600 : 0;
    return new GoTime((local - BigInt(off)) * nsPerSecond + BigInt(nsec), off, zoneName);
  }
  return new GoTime(local * nsPerSecond + BigInt(nsec));
}

function isLeap(y: number): boolean {
  return y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
}
function daysIn(year: number, month: number): number {
  return month === 2 ? (isLeap(year) ? 29 : 28) : [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 31;
}
/** Days since 1970-01-01 of a proleptic Gregorian date. */
function daysFromCivil(y: number, m: number, d: number): bigint {
  const yy = BigInt(m <= 2 ? y - 1 : y);
  const era = (yy >= 0n ? yy : yy - 399n) / 400n;
  const yoe = yy - era * 400n;
  const mp = BigInt((m + 9) % 12);
  const doy = (153n * mp + 2n) / 5n + BigInt(d - 1);
  const doe = yoe * 365n + yoe / 4n - yoe / 100n + doy;
  return era * 146097n + doe - 719468n;
}

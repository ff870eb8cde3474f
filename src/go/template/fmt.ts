/**
 * Go's fmt (print.go, format.go) over the value model: Sprintf with every verb, flag, width and precision form the
 * model's kinds reach, the `%!verb(type=value)` error forms, and Sprint/Sprintln spacing. Templates print with it
 * (`{{ . }}` is fmt.Sprint), and sprig's functions format with it.
 */
import { goQuoteWith } from '../quote.js';
import { formatFloat } from './ftoa.js';
import { goTypeName, kindOf, sortedKeys } from './types.js';
import { GoNumber, GoObject, type GoValue, mapValueType, sliceElemType } from './value.js';

const ldigits = '0123456789abcdefx';
const udigits = '0123456789ABCDEFX';

function runeCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

function tooLarge(x: number): boolean {
  return x > 1e6 || x < -1e6;
}

class Printer {
  buf = '';
  plus = false;
  minus = false;
  sharp = false;
  space = false;
  zero = false;
  plusV = false;
  sharpV = false;
  wid = 0;
  widPresent = false;
  prec = 0;
  precPresent = false;
  /** The operand being printed (printArg), or undefined while printing a nested value. */
  arg: GoValue | undefined = undefined;
  /** The nested value being printed (printValue). */
  value: GoValue | undefined = undefined;
  erroring = false;

  clearflags(): void {
    this.plus = this.minus = this.sharp = this.space = this.zero = false;
    this.plusV = this.sharpV = false;
    this.wid = this.prec = 0;
    this.widPresent = this.precPresent = false;
  }

  writePadding(n: number): void {
    if (n <= 0) return;
    this.buf += (this.zero && !this.minus ? '0' : ' ').repeat(n);
  }

  pad(s: string): void {
    if (!this.widPresent || this.wid === 0) {
      this.buf += s;
      return;
    }
    const width = this.wid - runeCount(s);
    if (!this.minus) {
      this.writePadding(width);
      this.buf += s;
    } else {
      this.buf += s;
      this.writePadding(width);
    }
  }

  /** Padding that never uses zeros (numbers that handle zero padding themselves, and %c/%q/%U). */
  padNoZero(s: string): void {
    const old = this.zero;
    this.zero = false;
    this.pad(s);
    this.zero = old;
  }

  truncate(s: string): string {
    if (!this.precPresent) return s;
    let n = this.prec;
    let i = 0;
    for (const ch of s) {
      if (n-- <= 0) return s.slice(0, i);
      i += ch.length;
    }
    return s;
  }

  fmtBoolean(v: boolean): void {
    this.pad(v ? 'true' : 'false');
  }

  /** format.go fmtInteger: `u` is the value (negative only for signed kinds). */
  fmtInteger(value: bigint, base: number, verb: string, digits: string): void {
    const negative = value < 0n;
    let u = negative ? -value : value;
    let prec = 0;
    if (this.precPresent) {
      prec = this.prec;
      if (prec === 0 && u === 0n) {
        const old = this.zero;
        this.zero = false;
        this.writePadding(this.wid);
        this.zero = old;
        return;
      }
    } else if (this.zero && !this.minus && this.widPresent) {
      prec = this.wid;
      if (negative || this.plus || this.space) prec--;
    }
    let s = '';
    const b = BigInt(base);
    if (u === 0n) s = '0';
    while (u > 0n) {
      s = (digits[Number(u % b)] ?? '') + s;
      u /= b;
    }
    while (s.length < prec) s = `0${s}`;
    if (this.sharp) {
      if (base === 2) s = `0b${s}`;
      else if (base === 8 && s[0] !== '0') s = `0${s}`;
      else if (base === 16) s = `0${digits[16] ?? 'x'}${s}`;
    }
    if (verb === 'O') s = `0o${s}`;
    if (negative) s = `-${s}`;
    else if (this.plus) s = `+${s}`;
    else if (this.space) s = ` ${s}`;
    this.padNoZero(s);
  }

  fmtUnicode(u: bigint): void {
    let prec = 4;
    if (this.precPresent && this.prec > 4) prec = this.prec;
    let tail = '';
    if (this.sharp && u <= 0x10ffffn && isPrintRune(Number(u))) tail = ` '${String.fromCodePoint(Number(u))}'`;
    const hex = BigInt.asUintN(64, u).toString(16).toUpperCase().padStart(prec, '0');
    this.padNoZero(`U+${hex}${tail}`);
  }

  fmtC(u: bigint): void {
    this.pad(String.fromCodePoint(toRune(u)));
  }

  fmtQc(u: bigint): void {
    const r = String.fromCodePoint(toRune(u));
    this.pad(goQuoteWith(r, "'", this.plus));
  }

  fmtFloat(v: number, size: 32 | 64, verb: string, prec0: number): void {
    const prec = this.precPresent ? this.prec : prec0;
    let num = formatFloat(v, verb, prec, size);
    if (num[0] === '-' || num[0] === '+') {
      // keep the sign
    } else {
      num = `+${num}`;
    }
    if (this.space && num[0] === '+' && !this.plus) num = ` ${num.slice(1)}`;
    if (num[1] === 'I' || num[1] === 'N') {
      if (num[1] === 'N' && !this.space && !this.plus) num = num.slice(1);
      this.padNoZero(num);
      return;
    }
    if (this.sharp && verb !== 'b') {
      let digits = 0;
      if (verb === 'v' || verb === 'g' || verb === 'G' || verb === 'x') {
        digits = prec;
        if (digits === -1) digits = 6;
      }
      let tail = '';
      let body = num;
      let hasDecimalPoint = false;
      let sawNonzeroDigit = false;
      for (let i = 1; i < body.length; i++) {
        const c = body[i] ?? '';
        if (c === '.') {
          hasDecimalPoint = true;
          continue;
        }
        if (c === 'p' || c === 'P' || ((c === 'e' || c === 'E') && verb !== 'x' && verb !== 'X')) {
          tail = body.slice(i);
          body = body.slice(0, i);
          break;
        }
        if (c !== '0') sawNonzeroDigit = true;
        if (sawNonzeroDigit) digits--;
      }
      if (!hasDecimalPoint) {
        if (body.length === 2 && body[1] === '0') digits--;
        body += '.';
      }
      while (digits > 0) {
        body += '0';
        digits--;
      }
      num = body + tail;
    }
    if (this.plus || num[0] !== '+') {
      if (this.zero && !this.minus && this.widPresent && this.wid > num.length) {
        this.buf += num[0];
        this.writePadding(this.wid - num.length);
        this.buf += num.slice(1);
        return;
      }
      this.pad(num);
      return;
    }
    this.pad(num.slice(1));
  }

  fmtS(s: string): void {
    this.pad(this.truncate(s));
  }

  fmtSx(s: string | Uint8Array, digits: string): void {
    const bytes = typeof s === 'string' ? new TextEncoder().encode(s) : s;
    let length = bytes.length;
    if (this.precPresent && this.prec < length) length = this.prec;
    let width = 2 * length;
    if (width > 0) {
      if (this.space) {
        if (this.sharp) width *= 2;
        width += length - 1;
      } else if (this.sharp) {
        width += 2;
      }
    } else {
      if (this.widPresent) this.writePadding(this.wid);
      return;
    }
    if (this.widPresent && this.wid > width && !this.minus) this.writePadding(this.wid - width);
    let out = '';
    if (this.sharp) out += `0${digits[16] ?? 'x'}`;
    for (let i = 0; i < length; i++) {
      if (this.space && i > 0) {
        out += ' ';
        if (this.sharp) out += `0${digits[16] ?? 'x'}`;
      }
      const c = bytes[i] ?? 0;
      out += (digits[c >> 4] ?? '') + (digits[c & 15] ?? '');
    }
    this.buf += out;
    if (this.widPresent && this.wid > width && this.minus) this.writePadding(this.wid - width);
  }

  fmtQ(s0: string): void {
    const s = this.truncate(s0);
    if (this.sharp && canBackquote(s)) {
      this.pad(`\`${s}\``);
      return;
    }
    this.pad(goQuoteWith(s, '"', this.plus));
  }

  // print.go

  badVerb(verb: string): void {
    this.erroring = true;
    this.buf += `%!${verb}(`;
    if (this.arg !== undefined && this.arg !== null) {
      this.buf += `${goTypeName(this.arg)}=`;
      this.printArg(this.arg, 'v');
    } else if (this.value !== undefined && this.value !== null) {
      this.buf += `${goTypeName(this.value)}=`;
      this.printValue(this.value, 'v', 0);
    } else {
      this.buf += '<nil>';
    }
    this.buf += ')';
    this.erroring = false;
  }

  fmtBool(v: boolean, verb: string): void {
    if (verb === 't' || verb === 'v') this.fmtBoolean(v);
    else this.badVerb(verb);
  }

  fmtInt(v: bigint, unsigned: boolean, verb: string): void {
    switch (verb) {
      case 'v':
        if (this.sharpV && unsigned) {
          const old = this.sharp;
          this.sharp = true;
          this.fmtInteger(v, 16, 'v', ldigits);
          this.sharp = old;
        } else {
          this.fmtInteger(v, 10, verb, ldigits);
        }
        return;
      case 'd':
        return this.fmtInteger(v, 10, verb, ldigits);
      case 'b':
        return this.fmtInteger(v, 2, verb, ldigits);
      case 'o':
      case 'O':
        return this.fmtInteger(v, 8, verb, ldigits);
      case 'x':
        return this.fmtInteger(v, 16, verb, ldigits);
      case 'X':
        return this.fmtInteger(v, 16, verb, udigits);
      case 'c':
        return this.fmtC(v);
      case 'q':
        return this.fmtQc(v);
      case 'U':
        return this.fmtUnicode(v);
      default:
        this.badVerb(verb);
    }
  }

  fmtFloatVerb(v: number, size: 32 | 64, verb: string): void {
    switch (verb) {
      case 'v':
        return this.fmtFloat(v, size, 'g', -1);
      case 'b':
      case 'g':
      case 'G':
      case 'x':
      case 'X':
        return this.fmtFloat(v, size, verb, -1);
      case 'f':
      case 'e':
      case 'E':
        return this.fmtFloat(v, size, verb, 6);
      case 'F':
        return this.fmtFloat(v, size, 'f', 6);
      default:
        this.badVerb(verb);
    }
  }

  fmtString(v: string, verb: string): void {
    switch (verb) {
      case 'v':
        if (this.sharpV) this.fmtQ(v);
        else this.fmtS(v);
        return;
      case 's':
        return this.fmtS(v);
      case 'x':
        return this.fmtSx(v, ldigits);
      case 'X':
        return this.fmtSx(v, udigits);
      case 'q':
        return this.fmtQ(v);
      default:
        this.badVerb(verb);
    }
  }

  /** Stringer-like values: a GoObject prints what its String method returns. */
  handleMethods(verb: string): boolean {
    if (this.erroring) return false;
    const arg = this.arg;
    if (!(arg instanceof GoObject)) return false;
    if (this.sharpV) return false;
    if (verb === 'v' || verb === 's' || verb === 'x' || verb === 'X' || verb === 'q') {
      this.fmtString(arg.format(), verb);
      return true;
    }
    return false;
  }

  printArg(arg: GoValue, verb: string): void {
    this.arg = arg;
    this.value = undefined;
    if (arg === null) {
      if (verb === 'T' || verb === 'v') this.pad('<nil>');
      else this.badVerb(verb);
      return;
    }
    if (verb === 'T') {
      this.fmtS(goTypeName(arg));
      return;
    }
    if (this.printScalar(arg, verb)) return;
    if (!this.handleMethods(verb)) this.printValue(arg, verb, 0);
  }

  /** bool, numbers and strings, which print the same at any depth. */
  private printScalar(v: GoValue, verb: string): boolean {
    switch (typeof v) {
      case 'boolean':
        this.fmtBool(v, verb);
        return true;
      case 'number':
        this.fmtFloatVerb(v, 64, verb);
        return true;
      case 'bigint':
        this.fmtInt(v, false, verb);
        return true;
      case 'string':
        this.fmtString(v, verb);
        return true;
    }
    if (v instanceof GoNumber) {
      if (typeof v.value === 'number') this.fmtFloatVerb(v.value, 32, verb);
      else this.fmtInt(v.value, kindOf(v) === 'uint', verb);
      return true;
    }
    return false;
  }

  printValue(value: GoValue, verb: string, depth: number, elemType = 'interface {}'): void {
    if (depth > 0 && value !== null) {
      this.arg = value;
      if (this.handleMethods(verb)) return;
    }
    this.arg = undefined;
    this.value = value;
    if (value === null) {
      // A nil inside an interface-typed container.
      if (this.sharpV) this.buf += `${elemType}(nil)`;
      else this.buf += '<nil>';
      return;
    }
    if (this.printScalar(value, verb)) return;
    if (value instanceof Map) {
      const valueType = mapValueType(value);
      if (this.sharpV) this.buf += `${goTypeName(value)}{`;
      else this.buf += 'map[';
      sortedKeys(value).forEach((k, i) => {
        if (i > 0) this.buf += this.sharpV ? ', ' : ' ';
        this.printValue(k, verb, depth + 1);
        this.buf += ':';
        this.printValue(value.get(k) ?? null, verb, depth + 1, valueType);
      });
      this.buf += this.sharpV ? '}' : ']';
      return;
    }
    if (Array.isArray(value)) {
      const elem = sliceElemType(value);
      if ((verb === 's' || verb === 'q' || verb === 'x' || verb === 'X') && (elem === 'uint8' || elem === 'byte')) {
        const bytes = new Uint8Array(value.map((b) => (b instanceof GoNumber ? Number(b.value) : 0)));
        // %x works on the bytes themselves; %s and %q see them as (UTF-8) text.
        if (verb === 'x' || verb === 'X') this.fmtSx(bytes, verb === 'x' ? ldigits : udigits);
        else this.fmtString(new TextDecoder().decode(bytes), verb);
        return;
      }
      if (this.sharpV) {
        this.buf += `${goTypeName(value)}{`;
        value.forEach((e, i) => {
          if (i > 0) this.buf += ', ';
          this.printValue(e, verb, depth + 1, elem);
        });
        this.buf += '}';
        return;
      }
      this.buf += '[';
      value.forEach((e, i) => {
        if (i > 0) this.buf += ' ';
        this.printValue(e, verb, depth + 1, elem);
      });
      this.buf += ']';
      return;
    }
    if (value instanceof GoObject) {
      // Without a Stringer verb Go would print the struct's fields, which the model does not expose.
      if (verb === 'v' || verb === 's') this.fmtS(value.format());
      else this.badVerb(verb);
      return;
    }
    // A func: Go prints its address, which no output of capiform may depend on.
    this.pad(`${goTypeName(value)}`);
  }

  doPrintf(format: string, a: readonly GoValue[]): void {
    const end = format.length;
    let argNum = 0;
    let afterIndex = false;
    let reordered = false;
    let goodArgNum = true;
    const argNumber = (i: number): { argNum: number; i: number; found: boolean } => {
      if (format.length <= i || format[i] !== '[') return { argNum, i, found: false };
      reordered = true;
      const { index, wid, ok } = parseArgNumber(format.slice(i));
      if (ok && index >= 0 && index < a.length) return { argNum: index, i: i + wid, found: true };
      goodArgNum = false;
      return { argNum, i: i + wid, found: ok };
    };
    const intFromArg = (): { num: number; isInt: boolean } => {
      let num = 0;
      let isInt = false;
      if (argNum < a.length) {
        const v = a[argNum] ?? null;
        const k = kindOf(v);
        if (k === 'int' || k === 'uint') {
          const n = typeof v === 'bigint' ? v : v instanceof GoNumber && typeof v.value === 'bigint' ? v.value : 0n;
          if (n >= -1000001n && n <= 1000001n) {
            num = Number(n);
            isInt = true;
          }
        }
        argNum++;
        if (tooLarge(num)) {
          num = 0;
          isInt = false;
        }
      }
      return { num, isInt };
    };

    let i = 0;
    formatLoop: while (i < end) {
      goodArgNum = true;
      const lasti = i;
      while (i < end && format[i] !== '%') i++;
      if (i > lasti) this.buf += format.slice(lasti, i);
      if (i >= end) break;
      i++;
      this.clearflags();
      simpleFormat: for (; i < end; i++) {
        const c = format[i] ?? '';
        switch (c) {
          case '#':
            this.sharp = true;
            break;
          case '0':
            this.zero = true;
            break;
          case '+':
            this.plus = true;
            break;
          case '-':
            this.minus = true;
            break;
          case ' ':
            this.space = true;
            break;
          default:
            if (c >= 'a' && c <= 'z' && argNum < a.length) {
              if (c === 'v') {
                this.sharpV = this.sharp;
                this.sharp = false;
                this.plusV = this.plus;
                this.plus = false;
              }
              this.printArg(a[argNum] ?? null, c);
              argNum++;
              i++;
              continue formatLoop;
            }
            break simpleFormat;
        }
      }

      let r = argNumber(i);
      argNum = r.argNum;
      i = r.i;
      afterIndex = r.found;

      if (i < end && format[i] === '*') {
        i++;
        const w = intFromArg();
        this.wid = w.num;
        this.widPresent = w.isInt;
        if (!this.widPresent) this.buf += '%!(BADWIDTH)';
        if (this.wid < 0) {
          this.wid = -this.wid;
          this.minus = true;
          this.zero = false;
        }
        afterIndex = false;
      } else {
        const n = parsenum(format, i, end);
        this.wid = n.num;
        this.widPresent = n.isnum;
        i = n.newi;
        if (afterIndex && this.widPresent) goodArgNum = false;
      }

      if (i + 1 < end && format[i] === '.') {
        i++;
        if (afterIndex) goodArgNum = false;
        r = argNumber(i);
        argNum = r.argNum;
        i = r.i;
        afterIndex = r.found;
        if (i < end && format[i] === '*') {
          i++;
          const p = intFromArg();
          this.prec = p.num;
          this.precPresent = p.isInt;
          if (this.prec < 0) {
            this.prec = 0;
            this.precPresent = false;
          }
          if (!this.precPresent) this.buf += '%!(BADPREC)';
          afterIndex = false;
        } else {
          const n = parsenum(format, i, end);
          this.prec = n.num;
          this.precPresent = n.isnum;
          i = n.newi;
          if (!this.precPresent) {
            this.prec = 0;
            this.precPresent = true;
          }
        }
      }

      if (!afterIndex) {
        r = argNumber(i);
        argNum = r.argNum;
        i = r.i;
        afterIndex = r.found;
      }

      if (i >= end) {
        this.buf += '%!(NOVERB)';
        break;
      }

      const verb = String.fromCodePoint(format.codePointAt(i) ?? 0);
      i += verb.length;

      if (verb === '%') {
        this.buf += '%';
      } else if (!goodArgNum) {
        this.buf += `%!${verb}(BADINDEX)`;
      } else if (argNum >= a.length) {
        this.buf += `%!${verb}(MISSING)`;
      } else {
        if (verb === 'v') {
          this.sharpV = this.sharp;
          this.sharp = false;
          this.plusV = this.plus;
          this.plus = false;
        }
        if (verb === 'w') {
          // Sprintf has no error to wrap: Go prints %w as a bad verb.
          this.badVerbArg(a[argNum] ?? null, verb);
        } else {
          this.printArg(a[argNum] ?? null, verb);
        }
        argNum++;
      }
    }

    if (!reordered && argNum < a.length) {
      this.clearflags();
      this.buf += '%!(EXTRA ';
      a.slice(argNum).forEach((arg, k) => {
        if (k > 0) this.buf += ', ';
        if (arg === null) {
          this.buf += '<nil>';
        } else {
          this.buf += `${goTypeName(arg)}=`;
          this.printArg(arg, 'v');
        }
      });
      this.buf += ')';
    }
  }

  private badVerbArg(arg: GoValue, verb: string): void {
    this.arg = arg;
    this.value = undefined;
    this.badVerb(verb);
  }

  doPrint(a: readonly GoValue[]): void {
    let prevString = false;
    a.forEach((arg, i) => {
      const isString = typeof arg === 'string';
      if (i > 0 && !isString && !prevString) this.buf += ' ';
      this.printArg(arg, 'v');
      prevString = isString;
    });
  }

  doPrintln(a: readonly GoValue[]): void {
    a.forEach((arg, i) => {
      if (i > 0) this.buf += ' ';
      this.printArg(arg, 'v');
    });
    this.buf += '\n';
  }
}

function parsenum(s: string, start: number, end: number): { num: number; isnum: boolean; newi: number } {
  if (start >= end) return { num: 0, isnum: false, newi: end };
  let num = 0;
  let isnum = false;
  let newi = start;
  for (; newi < end && (s[newi] ?? '') >= '0' && (s[newi] ?? '') <= '9'; newi++) {
    if (tooLarge(num)) return { num: 0, isnum: false, newi: end };
    num = num * 10 + Number(s[newi]);
    isnum = true;
  }
  return { num, isnum, newi };
}

function parseArgNumber(format: string): { index: number; wid: number; ok: boolean } {
  if (format.length < 3) return { index: 0, wid: 1, ok: false };
  for (let i = 1; i < format.length; i++) {
    if (format[i] === ']') {
      const n = parsenum(format, 1, i);
      if (!n.isnum || n.newi !== i) return { index: 0, wid: i + 1, ok: false };
      return { index: n.num - 1, wid: i + 1, ok: true };
    }
  }
  return { index: 0, wid: 1, ok: false };
}

function toRune(u: bigint): number {
  if (u < 0n || u > 0x10ffffn) return 0xfffd;
  const r = Number(u);
  return r >= 0xd800 && r <= 0xdfff ? 0xfffd : r;
}

function isPrintRune(r: number): boolean {
  if (r >= 0xd800 && r <= 0xdfff) return false;
  const ch = String.fromCodePoint(r);
  return ch === ' ' || /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch);
}

/** strconv.CanBackquote: no control characters other than tab, no backquote, no U+FEFF. */
function canBackquote(s: string): boolean {
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (ch === '`' || cp === 0xfeff || cp === 0x7f) return false;
    if (cp < 0x20 && ch !== '\t') return false;
    if (cp >= 0xd800 && cp <= 0xdfff) return false;
  }
  return true;
}

/** Go's fmt.Sprintf over template values. */
export function sprintf(format: string, ...args: GoValue[]): string {
  const p = new Printer();
  p.doPrintf(format, args);
  return p.buf;
}

/** Go's fmt.Sprint: spaces only between operands when neither is a string. */
export function sprint(...args: GoValue[]): string {
  const p = new Printer();
  p.doPrint(args);
  return p.buf;
}

/** Go's fmt.Sprintln. */
export function sprintln(...args: GoValue[]): string {
  const p = new Printer();
  p.doPrintln(args);
  return p.buf;
}

/** fmt's `%v`: what `{{ . }}` prints for a value. */
export function formatGoValue(value: GoValue): string {
  return sprint(value);
}

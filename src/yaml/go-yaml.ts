/**
 * A port of go-yaml v2 (go.yaml.in/yaml/v2 v2.4.3) `Marshal` as sigs.k8s.io/yaml v1.6.0 drives it (JSON first, so
 * keys are strings and numbers are ints or float64s): keys in go-yaml's natural order (sorter.go), its scalar style
 * choice (encode.go `stringv` + emitterc.go `yaml_emitter_select_scalar_style`/`analyze_scalar`), literal block
 * hints, and folding of plain/quoted scalars with spaces at 80 columns. This is what `clusterctl generate` prints;
 * capiform uses it for `--output-style clusterctl`.
 */
import { resolvePlain } from './resolve.js';

const isLetter = (c: string): boolean => {
  const x = c.charCodeAt(0);
  if (x < 128) return (x >= 65 && x <= 90) || (x >= 97 && x <= 122);
  return /\p{L}/u.test(c);
};
const isDigit = (c: string): boolean => {
  const x = c.charCodeAt(0);
  if (x < 128) return x >= 48 && x <= 57;
  return /\p{Nd}/u.test(c);
};
const ASCII = /^[\x00-\x7f]*$/;
/** The string as code points (cheap for ASCII: the string itself is indexable). */
const codePoints = (s: string): string | string[] => (ASCII.test(s) ? s : Array.from(s));

/** sorter.go `keyList.Less` for string keys. */
export function goYamlLess(a: string, b: string): boolean {
  const ar = codePoints(a);
  const br = codePoints(b);
  for (let i = 0; i < ar.length && i < br.length; i++) {
    const ca = ar[i] as string;
    const cb = br[i] as string;
    if (ca === cb) continue;
    const al = isLetter(ca);
    const bl = isLetter(cb);
    if (al && bl) return (ca.codePointAt(0) as number) < (cb.codePointAt(0) as number);
    if (al || bl) return bl;
    let an = 0;
    let bn = 0;
    if (ca === '0' || cb === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j] as string); j--) {
        if (ar[j] !== '0') {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    for (; ai < ar.length && isDigit(ar[ai] as string); ai++) an = an * 10 + ((ar[ai] as string).charCodeAt(0) - 48);
    let bi = i;
    for (; bi < br.length && isDigit(br[bi] as string); bi++) bn = bn * 10 + ((br[bi] as string).charCodeAt(0) - 48);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return (ca.codePointAt(0) as number) < (cb.codePointAt(0) as number);
  }
  return ar.length < br.length;
}

export function goYamlSortKeys(keys: string[]): string[] {
  if (keys.length < 2) return keys;
  return [...keys].sort((x, y) => (goYamlLess(x, y) ? -1 : goYamlLess(y, x) ? 1 : 0));
}

/** Go strconv.FormatFloat(f, 'g', -1, 64). */
export function goFormatFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (f === Infinity) return '+Inf';
  if (f === -Infinity) return '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mant, e] = f.toExponential().split('e') as [string, string];
  const exp = Number(e);
  // shortest formatting decides with eprec = 6 (strconv/ftoa.go)
  if (exp < -4 || exp >= 6) return `${mant}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  const digits = mant.replace('.', '').replace('-', '');
  const neg = f < 0 ? '-' : '';
  const dp = exp + 1;
  if (dp <= 0) return `${neg}0.${'0'.repeat(-dp)}${digits}`;
  if (dp >= digits.length) return neg + digits + '0'.repeat(dp - digits.length);
  return `${neg}${digits.slice(0, dp)}.${digits.slice(dp)}`;
}

/** The yaml.v2 value a JSON number becomes (int when integral and in int64/uint64 range), as text. */
function numberText(n: number): string {
  if (Number.isInteger(n) && n >= -(2 ** 63) && n < 2 ** 64) return BigInt(n).toString();
  const s = goFormatFloat(n);
  if (s === '+Inf') return '.inf';
  if (s === '-Inf') return '-.inf';
  if (s === 'NaN') return '.nan';
  return s;
}

const isBase60Float = (s: string): boolean => s.includes(':') && /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/.test(s);

function isPrintable(cp: number): boolean {
  return (
    cp === 0x0a ||
    (cp >= 0x20 && cp <= 0x7e) ||
    (cp >= 0xa0 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff)
  );
}
const isBreakCp = (cp: number): boolean => cp === 0x0a || cp === 0x0d || cp === 0x85 || cp === 0x2028 || cp === 0x2029;

interface Analysis {
  multiline: boolean;
  flowPlain: boolean;
  blockPlain: boolean;
  singleQuoted: boolean;
  block: boolean;
}

const INDICATOR_CHARS: boolean[] = [];
for (const c of '#,[]{}&*!|>\'"%@`?:-') INDICATOR_CHARS[c.charCodeAt(0)] = true;

function analyze(value: string): Analysis {
  if (value.length === 0) return { multiline: false, flowPlain: false, blockPlain: true, singleQuoted: true, block: false };
  let blockInd = false;
  let flowInd = false;
  if (value.startsWith('---') || value.startsWith('...')) {
    blockInd = true;
    flowInd = true;
  }
  let precededByWs = true;
  let lineBreaks = false;
  let special = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let prevSpace = false;
  let prevBreak = false;
  const cps = codePoints(value);
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i] as string;
    const cp = c.codePointAt(0) as number;
    const next = cps[i + 1];
    const followedByWs = next === undefined || next === ' ' || next === '\t';
    if (cp > 0x20 && cp < 0x7f && !INDICATOR_CHARS[cp]) {
      // an ordinary printable character: only the space/break bookkeeping below applies
      prevSpace = false;
      prevBreak = false;
      precededByWs = false;
      continue;
    }
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(c)) {
        flowInd = true;
        blockInd = true;
      } else if (c === '?' || c === ':') {
        flowInd = true;
        if (followedByWs) blockInd = true;
      } else if (c === '-' && followedByWs) {
        flowInd = true;
        blockInd = true;
      }
    } else {
      if (',?[]{}'.includes(c)) flowInd = true;
      else if (c === ':') {
        flowInd = true;
        if (followedByWs) blockInd = true;
      } else if (c === '#' && precededByWs) {
        flowInd = true;
        blockInd = true;
      }
    }
    if (!isPrintable(cp)) special = true;
    if (c === ' ') {
      if (i === 0) leadingSpace = true;
      if (i === cps.length - 1) trailingSpace = true;
      if (prevBreak) breakSpace = true;
      prevSpace = true;
      prevBreak = false;
    } else if (isBreakCp(cp)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (i === cps.length - 1) trailingBreak = true;
      if (prevSpace) spaceBreak = true;
      prevSpace = false;
      prevBreak = true;
    } else {
      prevSpace = false;
      prevBreak = false;
    }
    precededByWs = c === ' ' || c === '\t' || isBreakCp(cp);
  }
  const a: Analysis = { multiline: lineBreaks, flowPlain: true, blockPlain: true, singleQuoted: true, block: true };
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) {
    a.flowPlain = false;
    a.blockPlain = false;
  }
  if (trailingSpace) a.block = false;
  if (breakSpace) {
    a.flowPlain = false;
    a.blockPlain = false;
    a.singleQuoted = false;
  }
  if (spaceBreak || special) {
    a.flowPlain = false;
    a.blockPlain = false;
    a.singleQuoted = false;
    a.block = false;
  }
  if (lineBreaks) {
    a.flowPlain = false;
    a.blockPlain = false;
  }
  if (flowInd) a.flowPlain = false;
  if (blockInd) a.blockPlain = false;
  return a;
}

type Style = 'plain' | 'single' | 'double' | 'literal';

const ESC: Record<number, string> = {
  0: '0',
  7: 'a',
  8: 'b',
  9: 't',
  10: 'n',
  11: 'v',
  12: 'f',
  13: 'r',
  27: 'e',
  0x22: '"',
  0x5c: '\\',
  0x85: 'N',
  0xa0: '_',
  0x2028: 'L',
  0x2029: 'P',
};

class Emitter {
  private parts: string[] = [];
  get out(): string {
    return this.parts.join('');
  }
  column = 0;
  whitespace = true;
  indention = true;
  indent = -1;
  private indents: number[] = [];
  private readonly bestWidth = 80;

  private put(s: string): void {
    this.parts.push(s);
    this.column += s.length;
  }
  private putChar(c: string): void {
    this.parts.push(c);
    this.column += 1;
  }
  private putBreak(): void {
    this.parts.push('\n');
    this.column = 0;
  }
  writeIndent(): void {
    const indent = this.indent < 0 ? 0 : this.indent;
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) this.putBreak();
    while (this.column < indent) this.put(' ');
    this.whitespace = true;
    this.indention = true;
  }
  private indicator(ind: string, needWs: boolean, isWs: boolean, isIndention: boolean): void {
    if (needWs && !this.whitespace) this.put(' ');
    this.put(ind);
    this.whitespace = isWs;
    this.indention = this.indention && isIndention;
  }
  private increaseIndent(flow: boolean, indentless: boolean): void {
    this.indents.push(this.indent);
    if (this.indent < 0) this.indent = flow ? 2 : 0;
    else if (!indentless) this.indent += 2;
  }
  private popIndent(): void {
    this.indent = this.indents.pop() as number;
  }

  node(v: unknown, ctx: { mapping: boolean; simpleKey: boolean }): void {
    if (Array.isArray(v)) {
      if (v.length === 0) {
        this.indicator('[', true, true, false);
        this.indicator(']', false, false, false);
        return;
      }
      this.increaseIndent(false, ctx.mapping && !this.indention);
      for (const item of v) {
        this.writeIndent();
        this.indicator('-', true, false, true);
        this.node(item, { mapping: false, simpleKey: false });
      }
      this.popIndent();
      return;
    }
    if (v !== null && typeof v === 'object') {
      const obj = v as Record<string, unknown>;
      const keys = goYamlSortKeys(Object.keys(obj));
      if (keys.length === 0) {
        this.indicator('{', true, true, false);
        this.indicator('}', false, false, false);
        return;
      }
      this.increaseIndent(false, false);
      for (const k of keys) {
        this.writeIndent();
        this.scalar(k, true);
        this.indicator(':', false, false, false);
        this.node(obj[k], { mapping: true, simpleKey: false });
      }
      this.popIndent();
      return;
    }
    this.scalar(v, ctx.simpleKey);
  }

  private scalar(v: unknown, simpleKey: boolean): void {
    let text: string;
    let style: Style;
    if (v === null || v === undefined) {
      text = 'null';
      style = 'plain';
    } else if (typeof v === 'boolean') {
      text = v ? 'true' : 'false';
      style = 'plain';
    } else if (typeof v === 'number') {
      text = numberText(v);
      style = 'plain';
    } else {
      text = String(v);
      const canUsePlain = resolvePlain(text) === text && !isBase60Float(text) && !looksLikeTimestamp(text);
      style = text.includes('\n') ? 'literal' : canUsePlain ? 'plain' : 'double';
      const a = analyze(text);
      if (simpleKey && a.multiline) style = 'double';
      if (style === 'plain') {
        if (!a.blockPlain) style = 'single';
        if (text.length === 0 && simpleKey) style = 'single';
      }
      if (style === 'single' && !a.singleQuoted) style = 'double';
      if (style === 'literal' && (!a.block || simpleKey)) style = 'double';
    }
    this.increaseIndent(true, false);
    const allowBreaks = !simpleKey;
    if (style === 'plain') this.writePlain(text, allowBreaks);
    else if (style === 'single') this.writeSingle(text, allowBreaks);
    else if (style === 'double') this.writeDouble(text, allowBreaks);
    else this.writeLiteral(text);
    this.popIndent();
  }

  /** Whether `value` can be written as it is: no folding allowed, or it fits the line, or it has no space to fold at. */
  private fitsUnfolded(value: string, allowBreaks: boolean): boolean {
    return !allowBreaks || this.column + value.length <= this.bestWidth || !value.includes(' ');
  }

  /** Go's common tail of the scalar writers: the closing quote, if any, then no pending whitespace or indention. */
  private endScalar(quote?: string): void {
    if (quote !== undefined) this.indicator(quote, false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private writePlain(value: string, allowBreaks: boolean): void {
    if (!this.whitespace) this.put(' ');
    if (ASCII.test(value) && this.fitsUnfolded(value, allowBreaks)) {
      this.put(value);
      this.endScalar();
      return;
    }
    const cps = codePoints(value);
    let spaces = false;
    for (let i = 0; i < cps.length; i++) {
      const c = cps[i] as string;
      if (c === ' ') {
        if (allowBreaks && !spaces && this.column > this.bestWidth && cps[i + 1] !== ' ') this.writeIndent();
        else this.putChar(c);
        spaces = true;
      } else {
        this.putChar(c);
        this.indention = false;
        spaces = false;
      }
    }
    this.endScalar();
  }

  private writeSingle(value: string, allowBreaks: boolean): void {
    this.indicator("'", true, false, false);
    if (
      ASCII.test(value) &&
      !/[\n\r]/.test(value) &&
      this.fitsUnfolded(value, allowBreaks)
    ) {
      this.put(value.replace(/'/g, "''"));
      this.endScalar("'");
      return;
    }
    const cps = codePoints(value);
    let spaces = false;
    let breaks = false;
    for (let i = 0; i < cps.length; i++) {
      const c = cps[i] as string;
      if (c === ' ') {
        if (allowBreaks && !spaces && this.column > this.bestWidth && i > 0 && i < cps.length - 1 && cps[i + 1] !== ' ')
          this.writeIndent();
        else this.putChar(c);
        spaces = true;
      } else if (isBreakCp(c.codePointAt(0) as number)) {
        if (!breaks && c === '\n') this.putBreak();
        this.putBreak();
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        if (c === "'") this.putChar("'");
        this.putChar(c);
        this.indention = false;
        spaces = false;
        breaks = false;
      }
    }
    this.endScalar("'");
  }

  private writeDouble(value: string, allowBreaks: boolean): void {
    this.indicator('"', true, false, false);
    if (
      /^[\x20-\x7e]*$/.test(value) &&
      !/["\\]/.test(value) &&
      this.fitsUnfolded(value, allowBreaks)
    ) {
      this.put(value);
      this.endScalar('"');
      return;
    }
    const cps = codePoints(value);
    let spaces = false;
    for (let i = 0; i < cps.length; i++) {
      const c = cps[i] as string;
      const cp = c.codePointAt(0) as number;
      if (!isPrintable(cp) || cp === 0xfeff || isBreakCp(cp) || c === '"' || c === '\\') {
        this.putChar('\\');
        const e = ESC[cp];
        if (e !== undefined) this.putChar(e);
        else if (cp <= 0xff) this.put('x' + cp.toString(16).toUpperCase().padStart(2, '0'));
        else if (cp <= 0xffff) this.put('u' + cp.toString(16).toUpperCase().padStart(4, '0'));
        else this.put('U' + cp.toString(16).toUpperCase().padStart(8, '0'));
        spaces = false;
      } else if (c === ' ') {
        if (allowBreaks && !spaces && this.column > this.bestWidth && i !== 0 && i !== cps.length - 1) {
          this.writeIndent();
          if (cps[i + 1] === ' ') this.putChar('\\');
        } else this.putChar(c);
        spaces = true;
      } else {
        this.putChar(c);
        spaces = false;
      }
    }
    this.endScalar('"');
  }

  private writeLiteral(value: string): void {
    this.indicator('|', true, false, false);
    const cps = codePoints(value);
    if (cps[0] === ' ' || isBreakCp((cps[0] ?? 'x').codePointAt(0) as number)) this.indicator('2', false, false, false);
    let chomp = '';
    if (cps.length === 0) chomp = '-';
    else {
      const last = cps[cps.length - 1] as string;
      if (!isBreakCp(last.codePointAt(0) as number)) chomp = '-';
      else if (cps.length === 1) chomp = '+';
      else if (isBreakCp((cps[cps.length - 2] as string).codePointAt(0) as number)) chomp = '+';
    }
    if (chomp) this.indicator(chomp, false, false, false);
    this.putBreak();
    this.indention = true;
    this.whitespace = true;
    let breaks = true;
    if (typeof cps === 'string' && !cps.includes('\r')) {
      // ASCII: write whole lines
      const lines = cps.split('\n');
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i] as string;
        if (line !== '') {
          if (breaks) this.writeIndent();
          this.put(line);
          this.indention = false;
          breaks = false;
        }
        if (i < lines.length - 1) {
          this.putBreak();
          this.indention = true;
          breaks = true;
        }
      }
      return;
    }
    for (const c of cps) {
      if (isBreakCp(c.codePointAt(0) as number)) {
        this.putBreak();
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        this.putChar(c);
        this.indention = false;
        breaks = false;
      }
    }
  }
}

function looksLikeTimestamp(s: string): boolean {
  if (s.length < 8 || s.charCodeAt(4) !== 45) return false;
  return /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::?[0-9]{2})?))?)?$/.test(
    s,
  );
}

/** `sigs.k8s.io/yaml.Marshal(obj)`: one document, ending with a newline. */
export function emitGoYaml(value: unknown): string {
  const e = new Emitter();
  e.node(value, { mapping: false, simpleKey: false });
  e.writeIndent();
  return e.out;
}

/** clusterctl `JoinYaml`: `---` between documents, no leading `---`, no final newline. */
export function joinYaml(docs: string[]): string {
  const parts = docs.map((y) => {
    let d = y.startsWith('\n') ? y : '\n' + y;
    if (!d.endsWith('\n')) d += '\n';
    return d;
  });
  let r = parts.join('---');
  if (r.startsWith('\n')) r = r.slice(1);
  if (r.endsWith('\n')) r = r.slice(0, -1);
  return r;
}

/** clusterctl `FromUnstructured`: every object through `sigs.k8s.io/yaml.Marshal`, joined by `JoinYaml`. */
export function fromUnstructured(objects: readonly unknown[]): string {
  return joinYaml(objects.map(emitGoYaml));
}

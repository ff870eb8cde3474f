/**
 * Go's regexp package (RE2 syntax, leftmost-first matching) for sprig's regex functions.
 *
 * Parsing and compiling use @bufbuild/re2, a port of RE2/J that follows Go's syntax and error messages
 * ("error parsing regexp: missing closing ): `(`"). That library only answers yes/no, so matching with positions and
 * submatches runs here: a Pike VM over its compiled program, the same algorithm as Go's regexp/exec.go, with the
 * same thread priorities, so every match, submatch and empty-match rule is Go's. Positions are UTF-16 indexes of the
 * JavaScript string, stepping by code point where Go steps by UTF-8 sequence; the matched text is the same.
 */
import { createRequire } from 'node:module';
import type { RE2JS } from '@bufbuild/re2';
import { goQuote } from '../quote.js';

export class RegexpError extends Error {}

// Instruction opcodes and empty-width flags of the compiled program (RE2/J's Inst and Utils, which mirror Go's syntax package).
const ALT = 1;
const ALT_MATCH = 2;
const CAPTURE = 3;
const EMPTY_WIDTH = 4;
const FAIL = 5;
const MATCH = 6;
const NOP = 7;
const EMPTY_BEGIN_LINE = 0x01;
const EMPTY_END_LINE = 0x02;
const EMPTY_BEGIN_TEXT = 0x04;
const EMPTY_END_TEXT = 0x08;
const EMPTY_WORD_BOUNDARY = 0x10;
const EMPTY_NO_WORD_BOUNDARY = 0x20;

interface Inst {
  op: number;
  out: number;
  arg: number;
  matchRune(r: number): boolean;
}
interface Prog {
  start: number;
  numInst(): number;
  getInst(pc: number): Inst;
}
interface CompiledRE2 {
  prog: Prog;
  numSubexp: number;
  namedGroups: Map<string, number>;
}

function isWordRune(r: number): boolean {
  return (r >= 0x61 && r <= 0x7a) || (r >= 0x41 && r <= 0x5a) || (r >= 0x30 && r <= 0x39) || r === 0x5f;
}
/** syntax.EmptyOpContext: the zero-width assertions that hold between r1 and r2 (-1 = text edge). */
function emptyOpContext(r1: number, r2: number): number {
  let op = 0;
  if (r1 < 0) op |= EMPTY_BEGIN_TEXT | EMPTY_BEGIN_LINE;
  if (r1 === 0x0a) op |= EMPTY_BEGIN_LINE;
  if (r2 < 0) op |= EMPTY_END_TEXT | EMPTY_END_LINE;
  if (r2 === 0x0a) op |= EMPTY_END_LINE;
  op |= isWordRune(r1) !== isWordRune(r2) ? EMPTY_WORD_BOUNDARY : EMPTY_NO_WORD_BOUNDARY;
  return op;
}

/** The rune at a UTF-16 index and its width in code units (0 at the end). */
function runeAt(s: string, pos: number): [number, number] {
  if (pos >= s.length) return [-1, 0];
  const c = s.codePointAt(pos) ?? 0;
  return [c, c > 0xffff ? 2 : 1];
}
function runeBefore(s: string, pos: number): number {
  if (pos <= 0) return -1;
  const lo = s.charCodeAt(pos - 1);
  if (lo >= 0xdc00 && lo <= 0xdfff && pos >= 2) {
    const hi = s.charCodeAt(pos - 2);
    if (hi >= 0xd800 && hi <= 0xdbff) return s.codePointAt(pos - 2) ?? lo;
  }
  return lo;
}

interface Thread {
  pc: number;
  cap: number[];
}

let re2Class: typeof RE2JS | undefined;

/**
 * @bufbuild/re2, loaded when the first expression is compiled: every command imports src/go, few ever run sprig's
 * regex functions, and the package is twenty modules.
 */
function re2(): typeof RE2JS {
  re2Class ??= (createRequire(import.meta.url)('@bufbuild/re2') as { RE2JS: typeof RE2JS }).RE2JS;
  return re2Class;
}

/** A compiled Go regular expression. */
export class GoRegexp {
  private readonly re: CompiledRE2;
  readonly numSubexp: number;
  /** Names of the submatches by index ("" for unnamed; index 0 is the whole match). */
  readonly subexpNames: string[];

  private constructor(
    readonly expr: string,
    re: CompiledRE2,
  ) {
    this.re = re;
    this.numSubexp = re.numSubexp;
    this.subexpNames = new Array<string>(re.numSubexp + 1).fill('');
    for (const [name, index] of re.namedGroups) this.subexpNames[index] = name;
  }

  /** regexp.Compile; throws RegexpError with Go's message. */
  static compile(expr: string): GoRegexp {
    let compiled: RE2JS;
    try {
      compiled = new (re2())(expr);
    } catch (e) {
      throw new RegexpError(e instanceof Error ? e.message : String(e));
    }
    // The compiled program is public on the RE2 object; only its matcher is boolean-only.
    const re = compiled.re2() as unknown as Partial<CompiledRE2>;
    if (typeof re.prog?.getInst !== 'function' || typeof re.numSubexp !== 'number' || !(re.namedGroups instanceof Map)) {
      throw new Error('capiform bug: @bufbuild/re2 no longer exposes the compiled program sprig regex functions run');
    }
    return new GoRegexp(expr, re as CompiledRE2);
  }

  /** regexp.MustCompile: the panic text when the expression does not compile. */
  static mustCompile(expr: string): GoRegexp {
    try {
      return GoRegexp.compile(expr);
    } catch (e) {
      if (!(e instanceof RegexpError)) throw e;
      // regexp.quote: backquoted when strconv.CanBackquote allows it.
      const canBackquote = !/[`\u0000-\u0008\u000a-\u001f\u007f\ufeff]/.test(expr);
      const q = canBackquote ? `\`${expr}\`` : goQuote(expr);
      throw new RegexpError(`regexp: Compile(${q}): ${e.message}`);
    }
  }

  /**
   * The leftmost-first match starting the search at `pos`: capture slots (2 per group, -1 when unset) or null.
   * This is exec.go's machine.match.
   */
  execute(s: string, pos: number, ncap: number): number[] | null {
    const prog = this.re.prog;
    const n = prog.numInst();
    let runq: Thread[] = [];
    let nextq: Thread[] = [];
    let runSeen = new Set<number>();
    let nextSeen = new Set<number>();
    let matched = false;
    let matchcap: number[] = new Array<number>(ncap).fill(-1);

    const add = (q: Thread[], seen: Set<number>, pc: number, at: number, cap: number[], cond: number): void => {
      if (pc < 0 || pc >= n || seen.has(pc)) return;
      seen.add(pc);
      const inst = prog.getInst(pc);
      switch (inst.op) {
        case FAIL:
          return;
        case ALT:
        case ALT_MATCH:
          add(q, seen, inst.out, at, cap, cond);
          add(q, seen, inst.arg, at, cap, cond);
          return;
        case EMPTY_WIDTH:
          if ((inst.arg & ~cond) === 0) add(q, seen, inst.out, at, cap, cond);
          return;
        case NOP:
          add(q, seen, inst.out, at, cap, cond);
          return;
        case CAPTURE:
          if (inst.arg < cap.length) {
            const old = cap[inst.arg] ?? -1;
            cap[inst.arg] = at;
            add(q, seen, inst.out, at, cap, cond);
            cap[inst.arg] = old;
          } else {
            add(q, seen, inst.out, at, cap, cond);
          }
          return;
        default:
          q.push({ pc, cap: cap.slice() });
      }
    };

    let [r, width] = runeAt(s, pos);
    let prev = runeBefore(s, pos);
    for (;;) {
      if (runq.length === 0 && matched) break;
      if (!matched) {
        const cap = new Array<number>(ncap).fill(-1);
        if (ncap > 0) cap[0] = pos;
        add(runq, runSeen, prog.start, pos, cap, emptyOpContext(prev, r));
      }
      const [r1, width1] = runeAt(s, pos + width);
      const nextCond = emptyOpContext(r, r1);
      for (let j = 0; j < runq.length; j++) {
        const t = runq[j] as Thread;
        const inst = prog.getInst(t.pc);
        if (inst.op === MATCH) {
          if (t.cap.length > 0) {
            t.cap[1] = pos;
            matchcap = t.cap.slice();
          }
          matched = true;
          // First-match mode: lower-priority threads are cut off.
          break;
        }
        if (width > 0 && inst.matchRune(r) && !(inst.op === 11 && r === 0x0a)) {
          add(nextq, nextSeen, inst.out, pos + width, t.cap, nextCond);
        }
      }
      if (width === 0) break;
      if (ncap === 0 && matched) break;
      pos += width;
      prev = r;
      r = r1;
      width = width1;
      [runq, nextq] = [nextq, []];
      [runSeen, nextSeen] = [nextSeen, new Set<number>()];
    }
    if (!matched) return null;
    return matchcap;
  }

  matchString(s: string): boolean {
    return this.execute(s, 0, 0) !== null;
  }

  /** regexp's allMatches: successive non-overlapping matches, skipping an empty match right after a match. */
  allMatches(s: string, n: number, ncap = 2): number[][] {
    if (n < 0) n = s.length + 1;
    const out: number[][] = [];
    for (let pos = 0, i = 0, prevMatchEnd = -1; i < n && pos <= s.length; ) {
      const m = this.execute(s, pos, ncap);
      if (m === null) break;
      let accept = true;
      const start = m[0] ?? 0;
      const end = m[1] ?? 0;
      if (end === pos) {
        if (start === prevMatchEnd) accept = false;
        const [, w] = runeAt(s, pos);
        pos += w === 0 ? 1 : w;
      } else {
        pos = end;
      }
      prevMatchEnd = end;
      if (accept) {
        out.push(m);
        i++;
      }
    }
    return out;
  }

  findString(s: string): string {
    const m = this.execute(s, 0, 2);
    return m === null ? '' : s.slice(m[0], m[1]);
  }

  /** FindAllString; null is Go's nil slice (no match). */
  findAllString(s: string, n: number): string[] | null {
    const all = this.allMatches(s, n);
    return all.length === 0 ? null : all.map((m) => s.slice(m[0], m[1]));
  }

  private replaceAll(src: string, ncap: number, repl: (m: number[]) => string): string {
    let lastMatchEnd = 0;
    let searchPos = 0;
    let out = '';
    while (searchPos <= src.length) {
      const a = this.execute(src, searchPos, ncap);
      if (a === null) break;
      const a0 = a[0] ?? 0;
      const a1 = a[1] ?? 0;
      out += src.slice(lastMatchEnd, a0);
      if (a1 > lastMatchEnd || a0 === 0) out += repl(a);
      lastMatchEnd = a1;
      const [, width] = runeAt(src, searchPos);
      if (searchPos + width > a1) searchPos += width;
      else if (searchPos + 1 > a1) searchPos++;
      else searchPos = a1;
    }
    return out + src.slice(lastMatchEnd);
  }

  replaceAllLiteralString(src: string, repl: string): string {
    return this.replaceAll(src, 2, () => repl);
  }

  replaceAllString(src: string, repl: string): string {
    const ncap = repl.includes('$') ? 2 * (this.numSubexp + 1) : 2;
    return this.replaceAll(src, ncap, (m) => this.expand(repl, src, m));
  }

  /** Regexp.expand: `$1`, `${1}`, `$name`, `${name}`, `$$`. */
  private expand(template: string, src: string, match: number[]): string {
    let out = '';
    while (template.length > 0) {
      const k = template.indexOf('$');
      if (k < 0) break;
      out += template.slice(0, k);
      template = template.slice(k + 1);
      if (template.startsWith('$')) {
        out += '$';
        template = template.slice(1);
        continue;
      }
      const ex = extract(template);
      if (ex === null) {
        out += '$';
        continue;
      }
      template = ex.rest;
      const group = (i: number): string => {
        const a = match[2 * i];
        const b = match[2 * i + 1];
        return 2 * i + 1 < match.length && a !== undefined && b !== undefined && a >= 0 ? src.slice(a, b) : '';
      };
      if (ex.num >= 0) {
        out += group(ex.num);
      } else {
        const i = this.subexpNames.findIndex((name) => name === ex.name);
        if (i >= 0) out += group(i);
      }
    }
    return out + template;
  }

  /** Regexp.Split */
  split(s: string, n: number): string[] | null {
    if (n === 0) return null;
    if (this.expr.length > 0 && s.length === 0) return [''];
    const matches = this.allMatches(s, n);
    const out: string[] = [];
    let beg = 0;
    let end = 0;
    for (const m of matches) {
      if (n > 0 && out.length === n - 1) break;
      end = m[0] ?? 0;
      if ((m[1] ?? 0) !== 0) out.push(s.slice(beg, end));
      beg = m[1] ?? 0;
    }
    if (end !== s.length) out.push(s.slice(beg));
    return out;
  }
}

/** regexp's extract: a leading `name` or `{name}` after `$`. */
function extract(str: string): { name: string; num: number; rest: string } | null {
  if (str === '') return null;
  let brace = false;
  if (str[0] === '{') {
    brace = true;
    str = str.slice(1);
  }
  let i = 0;
  while (i < str.length) {
    const c = str.codePointAt(i) ?? 0;
    if (!/^[\p{L}\p{Nd}_]$/u.test(String.fromCodePoint(c))) break;
    i += c > 0xffff ? 2 : 1;
  }
  if (i === 0) return null;
  const name = str.slice(0, i);
  if (brace) {
    if (i >= str.length || str[i] !== '}') return null;
    i++;
  }
  let num = 0;
  for (const ch of name) {
    if (ch < '0' || ch > '9' || num >= 1e8) {
      num = -1;
      break;
    }
    num = num * 10 + (ch.charCodeAt(0) - 48);
  }
  if (name[0] === '0' && name.length > 1) num = -1;
  return { name, num, rest: str.slice(i) };
}

/** regexp.QuoteMeta */
export function quoteMeta(s: string): string {
  return s.replace(/[\\.+*?()|[\]{}^$]/g, (c) => `\\${c}`);
}

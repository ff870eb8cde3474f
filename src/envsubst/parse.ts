/**
 * drone/envsubst's `parse` package (commit 179042472c46), ported to work on UTF-8 bytes.
 *
 * The scanner is a literal port, including its quirks: rune 0 doubles as end of input, `unread` steps back by the
 * width of the last rune *read or peeked* (not always the one just consumed), and escapes delete the escape byte
 * from the token. The parser is the same grammar written as an explicit stack machine so that deeply nested
 * `${A:=${B:=…}}` cannot overflow the JavaScript stack. Top-level text, the hot path, is scanned with `indexOf`.
 */
import { concatBytes, decodeRune, decoded, isIdentRune } from './utf8.js';

export const ERR_BAD_SUBSTITUTION = 'bad substitution';
export const ERR_MISSING_CLOSING_BRACE = 'missing closing brace';
export const ERR_PARSE_VARIABLE_NAME = 'unable to parse variable name';
export const ERR_PARSE_FUNC_SUBSTITUTION = 'unable to parse substitution within function';
export const ERR_PARSE_DEFAULT_FUNCTION = 'unable to parse default function';

/** A parse error carrying one of the library's five messages; `offset` is where the failing `${` starts. */
export class EnvsubstParseError extends Error {
  offset = -1;
}

/** Thrown by the scanner when a window of the text ended before the parser could decide. */
const NEED_MORE = Symbol('need more input');

/** `${…}`: `param` is the variable name, `name` the operator (`""` for plain `${V}`), `args` its arguments. */
export interface FuncNode {
  param: string;
  name: string;
  args: Node[];
}

/** A text node is its bytes; anything else is a substitution. */
export type Node = Uint8Array | FuncNode;

// Token kinds.
const T_ILLEGAL = 0;
const T_EOF = 1;
const T_IDENT = 2;
const T_LBRACK = 3;
const T_RBRACK = 4;

// Scanner modes.
const M_IDENT = 1;
const M_LBRACK = 2;
const M_RBRACK = 4;
const M_ESCAPE = 8;

// Accept functions.
const A_IDENT = 1;
const A_COLON = 2;
const A_ONE_HASH = 3;
const A_NOT_CLOSING = 4;
const A_HASH_FUNC = 5;
const A_PERCENT_FUNC = 6;
const A_DEFAULT_FUNC = 7;
const A_REPLACE_FUNC = 8;
const A_ONE_EQUAL = 9;
const A_ONE_COLON = 10;
const A_REJECT_COLON_CLOSE = 11;
const A_SLASH = 12;
const A_NOT_SLASH = 13;
const A_CASING_FUNC = 14;

function accepts(acc: number, r: number, i: number): boolean {
  switch (acc) {
    case A_IDENT:
      return isIdentRune(r);
    case A_COLON:
      return r === 0x3a;
    case A_ONE_HASH:
      return r === 0x23 && i === 1;
    case A_NOT_CLOSING:
      return r !== 0x7d;
    case A_HASH_FUNC:
      return r === 0x23 && i < 3;
    case A_PERCENT_FUNC:
      return r === 0x25 && i < 3;
    case A_DEFAULT_FUNC:
      return (i === 1 && r === 0x3a) || (i === 2 && (r === 0x3d || r === 0x2d || r === 0x3f || r === 0x2b));
    case A_REPLACE_FUNC:
      return (i === 1 && r === 0x2f) || (i === 2 && (r === 0x2f || r === 0x23 || r === 0x25));
    case A_ONE_EQUAL:
      return i === 1 && r === 0x3d;
    case A_ONE_COLON:
      return i === 1 && r === 0x3a;
    case A_REJECT_COLON_CLOSE:
      return r !== 0x3a && r !== 0x7d;
    case A_SLASH:
      return r === 0x2f;
    case A_NOT_SLASH:
      return r !== 0x2f;
    case A_CASING_FUNC:
      return (r === 0x2c || r === 0x5e) && i < 3;
    default:
      return false;
  }
}

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** Decodes an operator (ASCII only) or a variable name (valid UTF-8: only letters, digits and `_` are accepted). */
function nameString(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i++) {
    const c = b[i]!;
    if (c >= 0x80) return utf8.decode(b);
    s += String.fromCharCode(c);
  }
  return s;
}

/**
 * The scanner. Positions are indexes into the original buffer; an escape's deleted byte is recorded in `deleted`
 * instead of being cut out of the buffer (Go rebuilds the string), which keeps scanning linear.
 */
class Scanner {
  pos = 0;
  start = 0;
  width = 0;
  mode = 0;
  acc = 0;
  deleted: number[] = [];
  /** True when buf is a window of a longer text: reading past its end must fetch more, not mean end of input. */
  truncated = false;

  constructor(
    readonly buf: Uint8Array,
    readonly end: number,
  ) {}

  read(): number {
    if (this.pos >= this.end) {
      if (this.truncated) throw NEED_MORE;
      this.width = 0;
      return 0;
    }
    const b = this.buf[this.pos]!;
    if (b < 0x80) {
      this.width = 1;
      this.pos++;
      return b;
    }
    const r = decodeRune(this.buf, this.pos, this.end);
    this.width = decoded.width;
    this.pos += decoded.width;
    return r;
  }

  unread(): void {
    this.pos -= this.width;
  }

  peek(): number {
    const r = this.read();
    this.unread();
    return r;
  }

  /** Go `skip`: drops the escape byte just read; the escaped byte after it joins the token unchecked. */
  skip(): void {
    this.deleted.push(this.pos - 1);
    this.pos++;
  }

  /** The current token's bytes. */
  string(): Uint8Array {
    const d = this.deleted;
    if (d.length === 0) return this.buf.subarray(this.start, this.pos);
    const out = new Uint8Array(this.pos - this.start - d.length);
    let o = 0;
    let from = this.start;
    for (const x of d) {
      out.set(this.buf.subarray(from, x), o);
      o += x - from;
      from = x + 1;
    }
    out.set(this.buf.subarray(from, this.pos), o);
    return out;
  }

  scan(): number {
    this.start = this.pos;
    if (this.deleted.length !== 0) this.deleted = [];
    const r = this.read();
    if (r === 0) return T_EOF;
    if (this.scanLbrack(r)) return T_LBRACK;
    if (this.scanRbrack(r)) return T_RBRACK;
    if (this.scanIdent(r)) return T_IDENT;
    return T_ILLEGAL;
  }

  private index(): number {
    return this.pos - this.start - this.deleted.length;
  }

  private scanIdent(r: number): boolean {
    if ((this.mode & M_IDENT) === 0) return false;
    if (this.scanEscaped(r)) this.skip();
    else if (!accepts(this.acc, r, this.index())) return false;
    for (;;) {
      const c = this.read();
      if (c === 0) {
        this.unread();
        break;
      }
      if (this.scanLbrack(c)) {
        this.unread();
        this.unread();
        break;
      }
      if (this.scanEscaped(c)) {
        this.skip();
        continue;
      }
      if (!accepts(this.acc, c, this.index())) {
        this.unread();
        break;
      }
    }
    return true;
  }

  private scanLbrack(r: number): boolean {
    if ((this.mode & M_LBRACK) === 0) return false;
    if (r === 0x24) {
      if (this.read() === 0x7b) return true;
      this.unread();
    }
    return false;
  }

  private scanRbrack(r: number): boolean {
    return (this.mode & M_RBRACK) !== 0 && r === 0x7d;
  }

  /** Inside `${…}` escapes exist only in replace arguments: `$$`, `\/` and `\\`. */
  private scanEscaped(r: number): boolean {
    if ((this.mode & M_ESCAPE) === 0) return false;
    if (r === 0x24) {
      if (this.peek() === 0x24) return true;
      return false;
    }
    if (r !== 0x5c) return false;
    const p = this.peek();
    return p === 0x2f || p === 0x5c;
  }
}

// Parser frames: the function being parsed and where to resume once a nested `${…}` argument is complete.
const F_DEFAULT = 1; // loop over default arguments
const F_SUBSTR_ARG1 = 2;
const F_SUBSTR_ARG2 = 3;
const F_REMOVE_ARG = 4;
const F_REPLACE_ARG1 = 5;
const F_REPLACE_ARG2 = 6;

interface Frame {
  node: FuncNode;
  kind: number;
}

function fail(message: string): never {
  throw new EnvsubstParseError(message);
}

/**
 * Parses `buf[0:end]` the way `parse.Parse` does. Returns the top-level node list (text nodes and substitutions,
 * in order). Throws {@link EnvsubstParseError}.
 */
export function parseTemplate(buf: Uint8Array, end = buf.length): Node[] {
  const nodes: Node[] = [];
  const s = new Scanner(buf, end);
  let nul = buf.indexOf(0);
  if (nul < 0 || nul > end) nul = end;
  let pos = 0;
  // Top level (parseAny): text runs to `${`, NUL or the end; `$$` is an escape for one `$`.
  while (pos < nul) {
    let segStart = pos;
    let i = pos;
    let parts: Uint8Array[] | null = null;
    let lbrack = -1;
    for (;;) {
      const d = buf.indexOf(0x24, i);
      if (d < 0 || d >= nul) {
        i = nul;
        break;
      }
      const next = d + 1 < end ? buf[d + 1] : -1;
      if (next === 0x7b) {
        lbrack = d;
        i = d;
        break;
      }
      if (next === 0x24) {
        (parts ??= []).push(buf.subarray(segStart, d + 1));
        segStart = d + 2;
        i = d + 2;
      } else {
        i = d + 1;
      }
    }
    if (parts) {
      parts.push(buf.subarray(segStart, i));
      nodes.push(concatBytes(parts));
    } else if (i > pos) {
      nodes.push(buf.subarray(pos, i));
    }
    if (lbrack < 0) break;
    s.pos = lbrack + 2;
    nodes.push(parseFunc(s));
    pos = s.pos;
  }
  return nodes;
}

/**
 * {@link parseTemplate} on a JavaScript string, for speed: top-level text stays a string (sliced, never encoded)
 * and each `${…}` is parsed from a UTF-8 window of the text that grows until the parser no longer runs off its end.
 * Positions inside windows are bytes, so every byte-level quirk behaves as in {@link parseTemplate}.
 */
export function parseTemplateString(text: string): (string | FuncNode)[] {
  const nodes: (string | FuncNode)[] = [];
  const arena: Arena = { buf: new Uint8Array(0), off: 0 };
  let nul = text.indexOf('\0');
  if (nul < 0) nul = text.length;
  let pos = 0;
  while (pos < nul) {
    let segStart = pos;
    let i = pos;
    let parts: string[] | null = null;
    let lbrack = -1;
    for (;;) {
      const d = text.indexOf('$', i);
      if (d < 0 || d >= nul) {
        i = nul;
        break;
      }
      const next = text.charCodeAt(d + 1);
      if (next === 0x7b) {
        lbrack = d;
        i = d;
        break;
      }
      if (next === 0x24) {
        (parts ??= []).push(text.slice(segStart, d + 1));
        segStart = d + 2;
        i = d + 2;
      } else {
        i = d + 1;
      }
    }
    if (parts) {
      parts.push(text.slice(segStart, i));
      nodes.push(parts.join(''));
    } else if (i > pos) {
      nodes.push(text.slice(pos, i));
    }
    if (lbrack < 0) break;
    try {
      pos = parseFuncInString(text, lbrack, nodes, arena);
    } catch (err) {
      if (err instanceof EnvsubstParseError) err.offset = lbrack;
      throw err;
    }
  }
  return nodes;
}

const windowEncoder = new TextEncoder();

/**
 * Windows are encoded into a shared arena (no allocation per substitution). Tokens are views into it, so only the
 * bytes a parse consumed are kept; the next window starts right after them.
 */
interface Arena {
  buf: Uint8Array;
  off: number;
}

/** Parses the `${…}` at text[k], appends it to nodes, and returns the index just after it. */
function parseFuncInString(text: string, k: number, nodes: (string | FuncNode)[], arena: Arena): number {
  for (let win = 64; ; win *= 4) {
    let e = k + win;
    if (e < text.length) {
      const c = text.charCodeAt(e - 1);
      if (c >= 0xd800 && c <= 0xdbff) e++; // keep surrogate pairs whole
    }
    if (e > text.length) e = text.length;
    const need = (e - k) * 3;
    if (arena.buf.length - arena.off < need) {
      arena.buf = new Uint8Array(Math.max(1 << 16, need));
      arena.off = 0;
    }
    const window = arena.buf.subarray(arena.off);
    const written = windowEncoder.encodeInto(text.slice(k, e), window).written;
    const s = new Scanner(window, written);
    s.truncated = e < text.length;
    s.pos = 2;
    let node: FuncNode;
    try {
      node = parseFunc(s);
    } catch (err) {
      if (err === NEED_MORE) continue;
      throw err;
    }
    nodes.push(node);
    arena.off += s.pos;
    return k + utf16Length(window, s.pos);
  }
}

/** Number of UTF-16 code units encoded by the (valid, whole-character) UTF-8 bytes buf[0:n]. */
function utf16Length(buf: Uint8Array, n: number): number {
  let units = 0;
  for (let i = 0; i < n; ) {
    const b = buf[i]!;
    if (b < 0x80) i += 1;
    else if (b < 0xe0) i += 2;
    else if (b < 0xf0) i += 3;
    else {
      i += 4;
      units++;
    }
    units++;
  }
  return units;
}

/** parseParam: returns a text node, `null` when a nested `${` was opened, or fails. */
function parseParam(s: Scanner, acc: number, mode: number): Uint8Array | null {
  s.acc = acc;
  s.mode = mode | M_LBRACK;
  switch (s.scan()) {
    case T_LBRACK:
      return null;
    case T_IDENT:
    case T_RBRACK:
      return s.string();
    default:
      return fail(ERR_PARSE_FUNC_SUBSTITUTION);
  }
}

function consumeRbrack(s: Scanner): void {
  s.mode = M_RBRACK;
  if (s.scan() !== T_RBRACK) fail(ERR_BAD_SUBSTITUTION);
}

/**
 * Parses one `${…}` with the scanner just after `${`. Nested substitutions in arguments push frames instead of
 * recursing; the frame on top of the stack is the innermost function still being parsed.
 */
function parseFunc(s: Scanner): FuncNode {
  const stack: Frame[] = [];
  let done: FuncNode | null = head(s, stack);
  for (;;) {
    if (done === null) {
      const top = stack[stack.length - 1]!;
      let acc = A_NOT_CLOSING;
      let mode = M_IDENT;
      switch (top.kind) {
        case F_DEFAULT:
          // The loop over default arguments ends at the first `}`.
          if (s.peek() === 0x7d) {
            consumeRbrack(s);
            stack.pop();
            done = top.node;
            continue;
          }
          break;
        case F_SUBSTR_ARG1:
          acc = A_REJECT_COLON_CLOSE;
          break;
        case F_REPLACE_ARG1:
          acc = A_NOT_SLASH;
          mode = M_IDENT | M_ESCAPE;
          break;
        case F_REPLACE_ARG2:
          mode = M_IDENT | M_ESCAPE;
          break;
      }
      const text = parseParam(s, acc, mode);
      if (text === null) {
        done = head(s, stack);
        continue;
      }
      top.node.args.push(text);
      if (afterArg(s, top)) {
        stack.pop();
        done = top.node;
      }
      continue;
    }
    const parent = stack[stack.length - 1];
    if (!parent) return done;
    parent.node.args.push(done);
    if (afterArg(s, parent)) {
      stack.pop();
      done = parent.node;
    } else {
      done = null;
    }
  }
}

/** The start of Go's parseFunc and its sub-parsers, up to the first argument. */
function head(s: Scanner, stack: Frame[]): FuncNode | null {
  if (s.peek() === 0x23) return parseLenFunc(s);
  s.acc = A_IDENT;
  s.mode = M_IDENT;
  if (s.scan() !== T_IDENT) fail(ERR_PARSE_VARIABLE_NAME);
  const param = nameString(s.string());
  const node: FuncNode = { param, name: '', args: [] };
  switch (s.peek()) {
    case 0x3a: {
      // parseDefaultOrSubstr: read ':' and peek the next rune. The unread steps back by the *peeked* rune's width.
      s.read();
      const r = s.peek();
      s.unread();
      if (r === 0x3d || r === 0x2d || r === 0x3f || r === 0x2b) return defaultHead(s, node, stack);
      s.acc = A_ONE_COLON;
      s.mode = M_IDENT;
      if (s.scan() !== T_IDENT) fail(ERR_BAD_SUBSTITUTION);
      node.name = nameString(s.string());
      stack.push({ node, kind: F_SUBSTR_ARG1 });
      return null;
    }
    case 0x3d:
      return defaultHead(s, node, stack);
    case 0x2c:
    case 0x5e:
      s.acc = A_CASING_FUNC;
      s.mode = M_IDENT;
      if (s.scan() !== T_IDENT) fail(ERR_BAD_SUBSTITUTION);
      node.name = nameString(s.string());
      consumeRbrack(s);
      return node;
    case 0x2f:
      s.acc = A_REPLACE_FUNC;
      s.mode = M_IDENT;
      if (s.scan() !== T_IDENT) fail(ERR_BAD_SUBSTITUTION);
      node.name = nameString(s.string());
      stack.push({ node, kind: F_REPLACE_ARG1 });
      return null;
    case 0x23:
    case 0x25:
      s.acc = s.peek() === 0x23 ? A_HASH_FUNC : A_PERCENT_FUNC;
      s.mode = M_IDENT;
      if (s.scan() !== T_IDENT) fail(ERR_BAD_SUBSTITUTION);
      node.name = nameString(s.string());
      stack.push({ node, kind: F_REMOVE_ARG });
      return null;
  }
  s.acc = A_IDENT;
  s.mode = M_RBRACK;
  if (s.scan() !== T_RBRACK) fail(ERR_MISSING_CLOSING_BRACE);
  return node;
}

function defaultHead(s: Scanner, node: FuncNode, stack: Frame[]): null {
  s.acc = s.peek() === 0x3d ? A_ONE_EQUAL : A_DEFAULT_FUNC;
  s.mode = M_IDENT;
  if (s.scan() !== T_IDENT) fail(ERR_PARSE_DEFAULT_FUNCTION);
  node.name = nameString(s.string());
  stack.push({ node, kind: F_DEFAULT });
  return null;
}

function parseLenFunc(s: Scanner): FuncNode {
  s.acc = A_ONE_HASH;
  s.mode = M_IDENT;
  if (s.scan() !== T_IDENT) fail(ERR_BAD_SUBSTITUTION);
  const name = nameString(s.string());
  s.acc = A_IDENT;
  s.mode = M_IDENT;
  if (s.scan() !== T_IDENT) fail(ERR_BAD_SUBSTITUTION);
  const param = nameString(s.string());
  consumeRbrack(s);
  return { param, name, args: [] };
}

/** Advances frame f after an argument was appended; returns true when f's function is complete. */
function afterArg(s: Scanner, f: Frame): boolean {
  switch (f.kind) {
    case F_DEFAULT:
      return false;
    case F_SUBSTR_ARG1:
      // expect delimiter or close
      s.acc = A_COLON;
      s.mode = M_IDENT | M_RBRACK;
      switch (s.scan()) {
        case T_RBRACK:
          return true;
        case T_IDENT:
          f.kind = F_SUBSTR_ARG2;
          return false;
        default:
          return fail(ERR_BAD_SUBSTITUTION);
      }
    case F_REPLACE_ARG1:
      // expect delimiter
      s.acc = A_SLASH;
      s.mode = M_IDENT;
      if (s.scan() !== T_IDENT) fail(ERR_BAD_SUBSTITUTION);
      // check for blank string
      if (s.peek() === 0x7d) {
        consumeRbrack(s);
        return true;
      }
      f.kind = F_REPLACE_ARG2;
      return false;
    default: // F_SUBSTR_ARG2, F_REMOVE_ARG, F_REPLACE_ARG2
      consumeRbrack(s);
      return true;
  }
}

/**
 * A fast, text-preserving parser for the block-style YAML that provider release files are made of (kustomize and
 * controller-gen output). It builds the plain JSON value of a document (go-yaml v2 semantics, see resolve.ts) and,
 * for every node, the source offsets needed to splice edits back into the text (see splice.ts).
 *
 * It understands: block mappings and sequences (including `key:\n- item` and `- key: v` compact forms), plain,
 * single- and double-quoted scalars (also multi-line), literal block scalars (`|`, `|-`, `|2`), single-line flow
 * collections, comments and blank lines. On anything else (anchors, aliases, tags, folded `>` scalars, `|+`, flow
 * collections spanning lines, tabs in indentation, CR line endings, merge keys, duplicate keys, directives, `...`)
 * it gives up with `Bail`, and the caller parses that document with the `yaml` package instead. Giving up is always
 * safe: this parser is a shortcut, never the authority on what is valid.
 *
 * Validation trade-off: the parser accepts only a strict subset of YAML whose meaning it computes itself, and gives
 * up on anything malformed or unusual (bad indentation, `: ` inside a plain scalar, unterminated quotes, content
 * after a value), so a document it accepts is well-formed YAML with the value go-yaml v2 would give; everything
 * else, including every error message, comes from the `yaml` package. Big untouched bodies (CRD schemas) are
 * therefore fully read (their values feed the CRD typed round-trip), at about 50 ms per MB warm, instead of the
 * ~300 ms per MB of a full `yaml` parse. The corpus test checks both paths agree on every provider release.
 */
import { MAX_NESTING_DEPTH } from './input.js';
import { keyToString, resolvePlain, type Scalar } from './resolve.js';

export class Bail extends Error {
  constructor(readonly why: string) {
    super(why);
  }
}

export interface MapNode {
  t: 'map';
  flow: boolean;
  start: number;
  end: number;
  /** Column of the keys. */
  indent: number;
  keys: string[];
  keyStarts: number[];
  /** Offset just after each entry's `:`. */
  colonEnds: number[];
  /** Offset after each entry's value, extended over a trailing comment on that line. */
  entryEnds: number[];
  vals: Node[];
  value: Record<string, unknown>;
}
export interface SeqNode {
  t: 'seq';
  flow: boolean;
  start: number;
  end: number;
  /** Column of the dashes. */
  indent: number;
  /** Offset just after each item's `-`. */
  dashEnds: number[];
  itemEnds: number[];
  items: Node[];
  value: unknown[];
}
export interface ScalarNode {
  t: 'scalar';
  start: number;
  end: number;
  value: Scalar;
}
export type Node = MapNode | SeqNode | ScalarNode;

export function setKey(obj: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(obj, k, { value: v, enumerable: true, writable: true, configurable: true });
  else obj[k] = v;
}

const FLOW_IND = ',[]{}';

export class FastParser {
  private pos: number;
  /** Collections open around the current node; too deep a document is left to the slow path, which reports it. */
  private depth = 0;
  constructor(
    private readonly src: string,
    start: number,
    private readonly end: number,
  ) {
    this.pos = start;
  }

  /** Parses the document; returns null for an empty (comments-only) document. */
  parseDocument(): Node | null {
    const s = this.src;
    if (s.charCodeAt(this.pos) === 0xfeff) throw new Bail('byte order mark');
    const cr = s.indexOf('\r', this.pos);
    if (cr !== -1 && cr < this.end) throw new Bail('CR');
    this.skipBlank();
    if (this.pos >= this.end) return null;
    const first = s[this.pos];
    if (first === '%' || s.startsWith('...', this.pos)) throw new Bail('directive or document end');
    const n = this.curIndent;
    const node = this.parseBlockNode(n, -1);
    this.skipBlank();
    if (this.pos < this.end) throw new Bail('trailing content');
    return node;
  }

  private lineEnd(p: number): number {
    const e = this.src.indexOf('\n', p);
    return e === -1 || e > this.end ? this.end : e;
  }
  private nextLine(p: number): number {
    const e = this.src.indexOf('\n', p);
    return e === -1 || e >= this.end ? this.end : e + 1;
  }
  private indentAt(lineStart: number): number {
    let i = lineStart;
    while (i < this.end && this.src.charCodeAt(i) === 32) i++;
    return i - lineStart;
  }
  private col(p: number): number {
    const ls = this.src.lastIndexOf('\n', p - 1) + 1;
    return p - ls;
  }

  /** Moves pos over blank and comment-only lines. */
  /** Indentation of the line at this.pos after skipBlank() (valid until pos moves). */
  private curIndent = 0;

  /** Moves pos over blank and comment-only lines; records the indentation of the line it stops at. */
  private skipBlank(): void {
    const s = this.src;
    while (this.pos < this.end) {
      let i = this.pos;
      while (i < this.end && s.charCodeAt(i) === 32) i++;
      if (i >= this.end) {
        this.pos = this.end;
        return;
      }
      const c = s.charCodeAt(i);
      if (c === 10) {
        this.pos = i + 1;
        continue;
      }
      if (c === 35) {
        this.pos = this.nextLine(i);
        continue;
      }
      if (c === 9) {
        let j = i;
        while (j < this.end && (s[j] === '\t' || s[j] === ' ')) j++;
        if (j >= this.end || s[j] === '\n') {
          this.pos = j >= this.end ? this.end : j + 1;
          continue;
        }
        throw new Bail('tab indentation');
      }
      this.curIndent = i - this.pos;
      return;
    }
  }

  private isDashItem(p: number): boolean {
    if (this.src[p] !== '-') return false;
    const c = this.src[p + 1];
    return p + 1 >= this.end || c === ' ' || c === '\n';
  }

  /** Finds the `:` of an implicit plain key on the line starting at p, or -1. */
  private findPlainColon(p: number, le: number): number {
    const s = this.src;
    for (let i = p; i < le; i++) {
      const c = s.charCodeAt(i);
      if (c === 58) {
        if (i + 1 >= le || s.charCodeAt(i + 1) === 32) return i;
      } else if (c === 35 && i > p && s.charCodeAt(i - 1) === 32) return -1;
    }
    return -1;
  }

  private looksLikeKey(p: number, le: number): boolean {
    const c = this.src[p];
    if (c === '"' || c === "'") {
      const q = this.scanQuotedOnLine(p, le);
      if (q < 0) return false;
      let i = q;
      while (i < le && this.src[i] === ' ') i++;
      return this.src[i] === ':' && (i + 1 >= le || this.src[i + 1] === ' ');
    }
    if (c === '{' || c === '[') return false;
    return this.findPlainColon(p, le) >= 0;
  }

  /** End offset (after the closing quote) of a quoted scalar that closes on this line, or -1. */
  private scanQuotedOnLine(p: number, le: number): number {
    const s = this.src;
    const q = s[p];
    for (let i = p + 1; i < le; i++) {
      const c = s[i];
      if (q === '"' && c === '\\') {
        i++;
        continue;
      }
      if (c === q) {
        if (q === "'" && s[i + 1] === "'") {
          i++;
          continue;
        }
        return i + 1;
      }
    }
    return -1;
  }

  /** A node whose first line starts at this.pos with indentation n; parentIndent is the enclosing column. */
  private parseBlockNode(n: number, parentIndent: number): Node {
    const p = this.pos + n;
    const le = this.lineEnd(p);
    if (this.isDashItem(p)) return this.parseSeq(n, p);
    if (this.looksLikeKey(p, le)) return this.parseMap(n, p);
    return this.parseScalarOrFlow(p, parentIndent, 'block');
  }

  private parseMap(indent: number, firstKey: number): MapNode {
    const s = this.src;
    if (++this.depth > MAX_NESTING_DEPTH) throw new Bail('nesting too deep');
    const node: MapNode = {
      t: 'map',
      flow: false,
      start: firstKey,
      end: firstKey,
      indent,
      keys: [],
      keyStarts: [],
      colonEnds: [],
      entryEnds: [],
      vals: [],
      value: {},
    };
    let k = firstKey;
    for (;;) {
      const le = this.lineEnd(k);
      let key: string;
      let colon: number;
      const c = s[k];
      if (c === '"' || c === "'") {
        const q = this.scanQuotedOnLine(k, le);
        if (q < 0) throw new Bail('multi-line quoted key');
        key = decodeQuoted(s, k, q);
        let i = q;
        while (i < le && s[i] === ' ') i++;
        if (s[i] !== ':' || !(i + 1 >= le || s[i + 1] === ' ')) throw new Bail('quoted key without colon');
        colon = i;
      } else {
        if ('?&*!|>{}[],%@`#-'.includes(c as string) && !(c === '-' && s[k + 1] !== ' ' && s[k + 1] !== '\n'))
          throw new Bail('indicator key');
        colon = this.findPlainColon(k, le);
        if (colon < 0) throw new Bail('not a key');
        let e = colon;
        while (e > k && s[e - 1] === ' ') e--;
        const raw = s.slice(k, e);
        if (raw === '<<') throw new Bail('merge key');
        const resolved = resolvePlain(raw);
        // A null key fails sigs.k8s.io/yaml's conversion; the slow reader says so.
        if (resolved === null) throw new Bail('null key');
        key = keyToString(resolved);
      }
      if (Object.prototype.hasOwnProperty.call(node.value, key)) throw new Bail('duplicate key');
      const val = this.parseValueAfter(colon + 1, indent, 'map');
      node.keys.push(key);
      node.keyStarts.push(k);
      node.colonEnds.push(colon + 1);
      node.vals.push(val);
      node.entryEnds.push(this.lastEntryEnd);
      setKey(node.value, key, nodeValue(val));
      node.end = val.end > colon + 1 ? val.end : colon + 1;
      // next entry
      this.skipBlank();
      if (this.pos >= this.end) break;
      const n = this.curIndent;
      if (n < indent) break;
      if (n > indent) throw new Bail('unexpected indentation');
      k = this.pos + n;
      if (this.isDashItem(k)) break; // a sibling sequence belongs to an outer compact form
      if (s.startsWith('...', k) && n === 0) throw new Bail('document end');
    }
    this.depth--;
    return node;
  }

  private parseSeq(indent: number, firstDash: number): SeqNode {
    if (++this.depth > MAX_NESTING_DEPTH) throw new Bail('nesting too deep');
    const node: SeqNode = {
      t: 'seq',
      flow: false,
      start: firstDash,
      end: firstDash + 1,
      indent,
      dashEnds: [],
      itemEnds: [],
      items: [],
      value: [],
    };
    let d = firstDash;
    for (;;) {
      const item = this.parseValueAfter(d + 1, indent, 'seq');
      node.dashEnds.push(d + 1);
      node.items.push(item);
      node.itemEnds.push(this.lastEntryEnd);
      node.value.push(nodeValue(item));
      node.end = item.end > d + 1 ? item.end : d + 1;
      this.skipBlank();
      if (this.pos >= this.end) break;
      const n = this.curIndent;
      if (n < indent) break;
      if (n > indent) throw new Bail('unexpected indentation');
      d = this.pos + n;
      if (!this.isDashItem(d)) break;
    }
    this.depth--;
    return node;
  }

  /** End of the last parsed entry (value end extended over a trailing comment). */
  private lastEntryEnd = 0;

  /**
   * Parses the value that follows `:` or `-` at offset p. parentIndent is the column of the key or dash.
   * Leaves this.pos at the start of the line after the value.
   */
  private parseValueAfter(p: number, parentIndent: number, ctx: 'map' | 'seq'): Node {
    const s = this.src;
    const le = this.lineEnd(p);
    let q = p;
    while (q < le && s[q] === ' ') q++;
    if (q < le && s[q] === '\t') throw new Bail('tab');
    if (q >= le || (s[q] === '#' && q > p)) {
      // Value on the following lines (or null).
      this.lastEntryEnd = le;
      this.pos = this.nextLine(le);
      this.skipBlank();
      if (this.pos < this.end) {
        const n = this.curIndent;
        const first = this.pos + n;
        if (ctx === 'map' && n === parentIndent && this.isDashItem(first)) {
          const seq = this.parseSeq(n, first);
          this.lastEntryEnd = this.lastEntryEndOf(seq);
          return seq;
        }
        if (n > parentIndent) {
          const v = this.parseBlockNode(n, parentIndent);
          if (v.t !== 'scalar') this.lastEntryEnd = this.lastEntryEndOf(v);
          return v;
        }
      }
      this.lastEntryEnd = p;
      return { t: 'scalar', start: p, end: p, value: null };
    }
    const c = s[q];
    if (ctx === 'seq') {
      if (this.isDashItem(q)) {
        const seq = this.parseSeq(this.col(q), q);
        this.lastEntryEnd = this.lastEntryEndOf(seq);
        return seq;
      }
      if (c !== '{' && c !== '[' && c !== '|' && c !== '>' && this.looksLikeKey(q, le)) {
        const map = this.parseMap(this.col(q), q);
        this.lastEntryEnd = this.lastEntryEndOf(map);
        return map;
      }
    }
    return this.parseScalarOrFlow(q, parentIndent, ctx);
  }

  private lastEntryEndOf(n: Node): number {
    if (n.t === 'map') return n.entryEnds[n.entryEnds.length - 1] ?? n.end;
    if (n.t === 'seq') return n.itemEnds[n.itemEnds.length - 1] ?? n.end;
    return n.end;
  }

  /** Sets lastEntryEnd/pos after a single-line value ending at e (allows a trailing comment). */
  private finishLine(e: number): void {
    const s = this.src;
    const le = this.lineEnd(e);
    let i = e;
    while (i < le && s[i] === ' ') i++;
    if (i < le) {
      if (s[i] !== '#' || i === e) throw new Bail('content after value');
      this.lastEntryEnd = le;
    } else this.lastEntryEnd = e;
    this.pos = this.nextLine(le);
  }

  private parseScalarOrFlow(q: number, parentIndent: number, ctx: 'map' | 'seq' | 'block'): Node {
    const s = this.src;
    const c = s[q] as string;
    if (c === '&' || c === '*' || c === '!' || c === '%' || c === '@' || c === '`' || c === '?')
      throw new Bail('anchor, alias, tag or reserved indicator');
    if (c === '-' && this.isDashItem(q)) throw new Bail('sequence in value position');
    if (c === '|') return this.parseLiteral(q, parentIndent);
    if (c === '>') throw new Bail('folded block scalar');
    if (c === '{' || c === '[') {
      const fp = new FlowParser(s, q, this.lineEnd(q), this.depth);
      const node = fp.parse();
      this.finishLine(node.end);
      return node;
    }
    if (c === '"' || c === "'") return this.parseQuoted(q, parentIndent);
    return this.parsePlain(q, parentIndent, ctx);
  }

  private parsePlain(q: number, parentIndent: number, ctx: 'map' | 'seq' | 'block'): ScalarNode {
    const s = this.src;
    const le = this.lineEnd(q);
    let e = le;
    let comment = false;
    for (let i = q; i < le; i++) {
      const c = s.charCodeAt(i);
      if (c === 58) {
        if (i + 1 >= le || s.charCodeAt(i + 1) === 32) throw new Bail('mapping indicator in plain scalar');
      } else if (c === 35 && s.charCodeAt(i - 1) === 32) {
        e = i;
        comment = true;
        break;
      }
    }
    while (e > q && (s[e - 1] === ' ' || s[e - 1] === '\t')) e--;
    let text = s.slice(q, e);
    let end = e;
    this.lastEntryEnd = comment ? le : e;
    let next = this.nextLine(le);
    if (!comment) {
      // continuation lines
      let blanks = 0;
      let p = next;
      while (p < this.end) {
        const n = this.indentAt(p);
        const cs = p + n;
        const cle = this.lineEnd(cs);
        if (cs >= this.end || cs === cle) {
          blanks++;
          p = this.nextLine(cle);
          continue;
        }
        if (n <= parentIndent || (ctx === 'block' && n <= parentIndent)) break;
        if (s[cs] === '#' || s[cs] === '\t') break;
        if (n === 0 && (s.startsWith('---', cs) || s.startsWith('...', cs))) break;
        let ce = cle;
        for (let i = cs; i < cle; i++) {
          const ch = s[i];
          if ((ch === ':' && (i + 1 >= cle || s[i + 1] === ' ')) || (ch === '#' && s[i - 1] === ' '))
            throw new Bail('complex plain continuation');
        }
        while (ce > cs && (s[ce - 1] === ' ' || s[ce - 1] === '\t')) ce--;
        text += blanks > 0 ? '\n'.repeat(blanks) : ' ';
        text += s.slice(cs, ce);
        blanks = 0;
        end = ce;
        this.lastEntryEnd = ce;
        p = this.nextLine(cle);
        next = p;
      }
    }
    this.pos = next;
    if (/^[\]},]/.test(text)) throw new Bail('flow indicator starting a block scalar');
    return { t: 'scalar', start: q, end, value: resolvePlain(text) };
  }

  private parseQuoted(q: number, parentIndent: number): ScalarNode {
    const s = this.src;
    const quote = s[q];
    let i = q + 1;
    for (;;) {
      if (i >= this.end) throw new Bail('unterminated quoted scalar');
      const ch = s[i];
      if (ch === '\n') {
        // continuation line must be indented deeper than the parent
        const n = this.indentAt(i + 1);
        const cs = i + 1 + n;
        if (cs < this.end && s[cs] !== '\n' && n <= parentIndent) throw new Bail('quoted continuation indent');
        if (n === 0 && (s.startsWith('---', cs) || s.startsWith('...', cs))) throw new Bail('marker in quoted');
      } else if (quote === '"' && ch === '\\') {
        i += 2;
        continue;
      } else if (ch === quote) {
        if (quote === "'" && s[i + 1] === "'") {
          i += 2;
          continue;
        }
        break;
      }
      i++;
    }
    const end = i + 1;
    const value = decodeQuoted(s, q, end);
    this.finishLine(end);
    return { t: 'scalar', start: q, end, value };
  }

  private parseLiteral(q: number, parentIndent: number): ScalarNode {
    const s = this.src;
    const le = this.lineEnd(q);
    let i = q + 1;
    let chomp = '';
    let explicit = 0;
    while (i < le && s[i] !== ' ') {
      const ch = s[i] as string;
      if ((ch === '-' || ch === '+') && !chomp) chomp = ch;
      else if (ch >= '1' && ch <= '9' && !explicit) explicit = Number(ch);
      else throw new Bail('bad block scalar header');
      i++;
    }
    if (chomp === '+') throw new Bail('keep chomping');
    while (i < le && s[i] === ' ') i++;
    if (i < le && s[i] !== '#') throw new Bail('content after block header');
    let p = this.nextLine(le);
    let contentIndent = explicit ? Math.max(parentIndent, 0) + explicit : -1;
    if (explicit && parentIndent < 0) throw new Bail('root block scalar');
    const lines: string[] = [];
    let end = le;
    let lastContentLineEnd = -1;
    let pending = 0;
    let maxLeadingBlank = 0;
    while (p < this.end) {
      const n = this.indentAt(p);
      const cle = this.lineEnd(p + n);
      const blank = p + n >= cle;
      if (contentIndent < 0) {
        if (blank) {
          maxLeadingBlank = Math.max(maxLeadingBlank, n);
          pending++;
          p = this.nextLine(cle);
          continue;
        }
        if (n <= parentIndent) break;
        if (maxLeadingBlank > n) throw new Bail('leading blank lines too indented');
        contentIndent = n;
      }
      if (blank && n <= contentIndent) {
        pending++;
        p = this.nextLine(cle);
        continue;
      }
      if (n < contentIndent) {
        if (blank) {
          pending++;
          p = this.nextLine(cle);
          continue;
        }
        break;
      }
      for (let b = 0; b < pending; b++) lines.push('');
      pending = 0;
      lines.push(s.slice(p + contentIndent, cle));
      lastContentLineEnd = cle;
      end = cle;
      p = this.nextLine(cle);
    }
    // go-yaml adds the final line break only when the text has one; the slow reader handles a scalar ending the text.
    if (lastContentLineEnd >= this.end) throw new Bail('block scalar ending the text without a line break');
    let value = lines.join('\n');
    if (lines.length > 0 && chomp !== '-') value += '\n';
    this.lastEntryEnd = end;
    this.pos = lastContentLineEnd >= 0 ? this.nextLine(lastContentLineEnd) : this.nextLine(le);
    return { t: 'scalar', start: q, end, value };
  }
}

/** Decodes a single- or double-quoted scalar src[a, b) (quotes included), with YAML line folding. */
export function decodeQuoted(src: string, a: number, b: number): string {
  const q = src[a];
  const body = src.slice(a + 1, b - 1);
  if (q === "'") {
    if (!body.includes('\n')) return body.replace(/''/g, "'");
    return foldLines(body).replace(/''/g, "'");
  }
  if (!body.includes('\\') && !body.includes('\n')) return body;
  return decodeDouble(body);
}

/** YAML flow-scalar line folding: a single break becomes a space, n empty lines become n newlines. */
function foldLines(body: string): string {
  const lines = body.split('\n');
  const last = lines.length - 1;
  let out = (lines[0] as string).replace(/[ \t]+$/, '');
  let empties = 0;
  for (let i = 1; i <= last; i++) {
    let l = (lines[i] as string).replace(/^[ \t]+/, '');
    if (i < last) l = l.replace(/[ \t]+$/, '');
    if (l === '' && i < last) {
      empties++;
      continue;
    }
    out += empties > 0 ? '\n'.repeat(empties) : ' ';
    out += l;
    empties = 0;
  }
  if (empties > 0) out += '\n'.repeat(empties);
  return out;
}

const simpleEsc: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
};

function decodeDouble(body: string): string {
  let out = '';
  let i = 0;
  const n = body.length;
  while (i < n) {
    const ch = body[i] as string;
    if (ch === '\\') {
      const e = body[i + 1];
      if (e === '\n') {
        // escaped line break: joins the lines without a space
        i += 2;
        while (i < n && (body[i] === ' ' || body[i] === '\t')) i++;
        continue;
      }
      if (e === undefined) throw new Bail('bad escape');
      if (e === 'x' || e === 'u' || e === 'U') {
        const len = e === 'x' ? 2 : e === 'u' ? 4 : 8;
        const hex = body.slice(i + 2, i + 2 + len);
        if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== len) throw new Bail('bad escape');
        out += String.fromCodePoint(parseInt(hex, 16));
        i += 2 + len;
        continue;
      }
      const r = simpleEsc[e];
      if (r === undefined) throw new Bail('bad escape');
      out += r;
      i += 2;
      continue;
    }
    if (ch === ' ' || ch === '\t') {
      let j = i;
      while (j < n && (body[j] === ' ' || body[j] === '\t')) j++;
      if (body[j] !== '\n') {
        out += body.slice(i, j);
        i = j;
        continue;
      }
      i = j; // trailing blanks before a line break are dropped
      continue;
    }
    if (ch === '\n') {
      let j = i;
      let breaks = 0;
      while (j < n && body[j] === '\n') {
        breaks++;
        j++;
        while (j < n && (body[j] === ' ' || body[j] === '\t')) j++;
      }
      out += breaks === 1 ? ' ' : '\n'.repeat(breaks - 1);
      i = j;
      continue;
    }
    out += ch;
    i++;
  }
  return out;
}

function nodeValue(n: Node): unknown {
  return n.value;
}

/** Single-line flow collections: `{a: 1, b: [x, "y"]}`, `[]`, `{}`. */
class FlowParser {
  private i: number;
  constructor(
    private readonly s: string,
    start: number,
    private readonly le: number,
    /** Collections open around this flow collection. */
    private depth: number,
  ) {
    this.i = start;
  }
  parse(): Node {
    return this.node();
  }
  private ws(): void {
    while (this.i < this.le && this.s[this.i] === ' ') this.i++;
    if (this.i >= this.le) throw new Bail('flow collection spans lines');
  }
  private node(): Node {
    this.ws();
    const c = this.s[this.i];
    const start = this.i;
    if ((c === '{' || c === '[') && ++this.depth > MAX_NESTING_DEPTH) throw new Bail('nesting too deep');
    if (c === '{') {
      this.i++;
      const value: Record<string, unknown> = {};
      const node: MapNode = {
        t: 'map',
        flow: true,
        start,
        end: start,
        indent: -1,
        keys: [],
        keyStarts: [],
        colonEnds: [],
        entryEnds: [],
        vals: [],
        value,
      };
      this.ws();
      if (this.s[this.i] === '}') {
        this.i++;
        node.end = this.i;
        this.depth--;
        return node;
      }
      for (;;) {
        const k = this.scalar(true);
        this.ws();
        if (this.s[this.i] !== ':') throw new Bail('flow map without colon');
        this.i++;
        this.ws();
        let v: Node;
        if (this.s[this.i] === ',' || this.s[this.i] === '}') v = { t: 'scalar', start: this.i, end: this.i, value: null };
        else v = this.node();
        if (k.value === null) throw new Bail('null key in flow');
        const key = keyToString(k.value);
        if (key in value || key === '<<') throw new Bail('duplicate or merge key in flow');
        node.keys.push(key);
        setKey(value, key, v.value);
        this.ws();
        const d = this.s[this.i];
        this.i++;
        if (d === '}') break;
        if (d !== ',') throw new Bail('bad flow map');
        this.ws();
        if (this.s[this.i] === '}') {
          this.i++;
          break;
        }
      }
      node.end = this.i;
      this.depth--;
      return node;
    }
    if (c === '[') {
      this.i++;
      const node: SeqNode = {
        t: 'seq',
        flow: true,
        start,
        end: start,
        indent: -1,
        dashEnds: [],
        itemEnds: [],
        items: [],
        value: [],
      };
      this.ws();
      if (this.s[this.i] === ']') {
        this.i++;
        node.end = this.i;
        this.depth--;
        return node;
      }
      for (;;) {
        const v = this.node();
        node.value.push(v.value);
        this.ws();
        const d = this.s[this.i];
        this.i++;
        if (d === ']') break;
        if (d !== ',') throw new Bail('bad flow seq');
        this.ws();
        if (this.s[this.i] === ']') {
          this.i++;
          break;
        }
      }
      node.end = this.i;
      this.depth--;
      return node;
    }
    return this.scalar(false);
  }
  private scalar(isKey: boolean): ScalarNode {
    const s = this.s;
    const start = this.i;
    const c = s[start] as string;
    if (c === '"' || c === "'") {
      let i = start + 1;
      for (; i < this.le; i++) {
        if (c === '"' && s[i] === '\\') {
          i++;
          continue;
        }
        if (s[i] === c) {
          if (c === "'" && s[i + 1] === "'") {
            i++;
            continue;
          }
          break;
        }
      }
      if (i >= this.le) throw new Bail('flow quoted spans lines');
      this.i = i + 1;
      return { t: 'scalar', start, end: this.i, value: decodeQuoted(s, start, this.i) };
    }
    if ('&*!|>%@`#?{[-'.includes(c) && !(c === '-' && s[start + 1] !== ' ')) throw new Bail('flow indicator');
    let i = start;
    for (; i < this.le; i++) {
      const ch = s[i] as string;
      if (FLOW_IND.includes(ch)) break;
      if (ch === ':' && (s[i + 1] === ' ' || FLOW_IND.includes(s[i + 1] ?? ' ') || i + 1 >= this.le)) break;
      if (ch === '#' && s[i - 1] === ' ') throw new Bail('comment in flow');
    }
    let e = i;
    while (e > start && s[e - 1] === ' ') e--;
    if (e === start && !isKey) throw new Bail('empty flow scalar');
    this.i = i;
    return { t: 'scalar', start, end: e, value: resolvePlain(s.slice(start, e)) };
  }
}

/**
 * The parser of Go's text/template/parse (parse.go, node.go): the same tree, the same checks at parse time
 * (undefined functions and variables, misplaced else/end/break) and the same `template: <name>:<line>: <msg>`
 * errors. Nodes print themselves as Go's Node.String() does, because execution errors quote them.
 */
import { goQuote } from '../quote.js';
import { type Item, ItemType, itemString, lex } from './lex.js';
import { goParseFloat, goParseInt, goParseUint, GoSyntaxError, unquote, unquoteChar } from './strconv.js';

export interface TextNode {
  readonly type: 'text';
  readonly pos: number;
  readonly text: string;
}
export interface CommentNode {
  readonly type: 'comment';
  readonly pos: number;
}
export interface ActionNode {
  readonly type: 'action';
  readonly pos: number;
  readonly pipe: PipeNode;
}
export interface PipeNode {
  readonly type: 'pipe';
  readonly pos: number;
  isAssign: boolean;
  readonly decl: VariableNode[];
  readonly cmds: CommandNode[];
}
export interface CommandNode {
  readonly type: 'command';
  readonly pos: number;
  readonly args: ArgNode[];
}
export interface IdentifierNode {
  readonly type: 'identifier';
  readonly pos: number;
  readonly ident: string;
}
export interface VariableNode {
  readonly type: 'variable';
  readonly pos: number;
  readonly ident: string[];
}
export interface DotNode {
  readonly type: 'dot';
  readonly pos: number;
}
export interface NilNode {
  readonly type: 'nil';
  readonly pos: number;
}
export interface FieldNode {
  readonly type: 'field';
  readonly pos: number;
  readonly ident: string[];
}
export interface ChainNode {
  readonly type: 'chain';
  readonly pos: number;
  readonly node: ArgNode;
  readonly field: string[];
}
export interface BoolNode {
  readonly type: 'bool';
  readonly pos: number;
  readonly value: boolean;
}
export interface NumberNode {
  readonly type: 'number';
  readonly pos: number;
  readonly text: string;
  isInt: boolean;
  isUint: boolean;
  isFloat: boolean;
  isComplex: boolean;
  int64: bigint;
  uint64: bigint;
  float64: number;
  /** Real and imaginary parts when isComplex. */
  complex: [number, number];
}
export interface StringNode {
  readonly type: 'string';
  readonly pos: number;
  /** The original quoted text. */
  readonly quoted: string;
  readonly text: string;
}
export interface EndNode {
  readonly type: 'end';
  readonly pos: number;
}
export interface ElseNode {
  readonly type: 'else';
  readonly pos: number;
}
export interface BranchNode {
  readonly type: 'if' | 'range' | 'with';
  readonly pos: number;
  readonly pipe: PipeNode;
  readonly list: ListNode;
  readonly elseList: ListNode | null;
}
export interface TemplateNode {
  readonly type: 'template';
  readonly pos: number;
  readonly name: string;
  readonly pipe: PipeNode | null;
}
export interface BreakNode {
  readonly type: 'break';
  readonly pos: number;
}
export interface ContinueNode {
  readonly type: 'continue';
  readonly pos: number;
}
export interface ListNode {
  readonly type: 'list';
  readonly pos: number;
  readonly nodes: Node[];
}

/** What a command's words can be. */
export type ArgNode =
  | IdentifierNode
  | VariableNode
  | DotNode
  | NilNode
  | FieldNode
  | ChainNode
  | BoolNode
  | NumberNode
  | StringNode
  | PipeNode;

export type Node =
  | TextNode
  | CommentNode
  | ActionNode
  | CommandNode
  | ArgNode
  | EndNode
  | ElseNode
  | BranchNode
  | TemplateNode
  | BreakNode
  | ContinueNode
  | ListNode;

/** A parsed template body, with the text it came from (for error positions). */
export interface Tree {
  name: string;
  readonly parseName: string;
  readonly text: string;
  root: ListNode;
}

/** Go's Node.String(). */
export function nodeString(n: Node): string {
  switch (n.type) {
    case 'text':
      return n.text;
    case 'comment':
      return '{{/* */}}';
    case 'action':
      return `{{${nodeString(n.pipe)}}}`;
    case 'pipe': {
      let s = '';
      if (n.decl.length > 0) {
        s += n.decl.map(nodeString).join(', ');
        s += n.isAssign ? ' = ' : ' := ';
      }
      return s + n.cmds.map(nodeString).join(' | ');
    }
    case 'command':
      return n.args.map((a) => (a.type === 'pipe' ? `(${nodeString(a)})` : nodeString(a))).join(' ');
    case 'identifier':
      return n.ident;
    case 'variable':
      return n.ident.join('.');
    case 'dot':
      return '.';
    case 'nil':
      return 'nil';
    case 'field':
      return n.ident.map((i) => `.${i}`).join('');
    case 'chain': {
      const head = n.node.type === 'pipe' ? `(${nodeString(n.node)})` : nodeString(n.node);
      return head + n.field.map((f) => `.${f}`).join('');
    }
    case 'bool':
      return n.value ? 'true' : 'false';
    case 'number':
      return n.text;
    case 'string':
      return n.quoted;
    case 'end':
      return '{{end}}';
    case 'else':
      return '{{else}}';
    case 'if':
    case 'range':
    case 'with': {
      let s = `{{${n.type} ${nodeString(n.pipe)}}}${nodeString(n.list)}`;
      if (n.elseList !== null) s += `{{else}}${nodeString(n.elseList)}`;
      return `${s}{{end}}`;
    }
    case 'template':
      return n.pipe === null
        ? `{{template ${goQuote(n.name)}}}`
        : `{{template ${goQuote(n.name)} ${nodeString(n.pipe)}}}`;
    case 'break':
      return '{{break}}';
    case 'continue':
      return '{{continue}}';
    case 'list':
      return n.nodes.map(nodeString).join('');
  }
}

/** Go's maxStackDepth for parenthesised pipelines, at its wasm value: each level costs JavaScript stack frames. */
export const maxStackDepth = 1000;
/** Go's maxPipelineCmds: commands in one pipeline. */
export const maxPipelineCmds = 100_000;

/** A parse failure; the message is Go's err.Error(). */
export class ParseFailure extends Error {}

export interface ParseOptions {
  /** Names callable from the template: the function map and the builtins. */
  readonly hasFunction: (name: string) => boolean;
}

/**
 * Parses `text` as template `name`, returning every tree it defines (the main one under `name`, then each
 * `define`/`block`), as text/template's Parse does.
 */
export function parseTrees(name: string, text: string, options: ParseOptions): Map<string, Tree> {
  const items = lex(text, {
    breakOK: !options.hasFunction('break'),
    continueOK: !options.hasFunction('continue'),
  });
  const treeSet = new Map<string, Tree>();
  const p = new Parser(items, text, name, options, treeSet);
  const main = p.parseMain(name);
  addTree(p, treeSet, main);
  return treeSet;
}

function isEmptyTree(n: Node): boolean {
  switch (n.type) {
    case 'list':
      return n.nodes.every(isEmptyTree);
    case 'text':
      return n.text.trim() === '';
    case 'comment':
      return true;
    default:
      return false;
  }
}

function addTree(p: Parser, treeSet: Map<string, Tree>, tree: Tree): void {
  const existing = treeSet.get(tree.name);
  if (existing === undefined || isEmptyTree(existing.root)) {
    treeSet.set(tree.name, tree);
    return;
  }
  if (!isEmptyTree(tree.root)) p.errorf(`template: multiple definition of template ${goQuote(tree.name)}`);
}

class Parser {
  private idx = 0;
  private vars: string[] = ['$'];
  private rangeDepth = 0;
  private stackDepth = 0;
  private actionLine = 0;
  /** The token the parser last consumed or peeked: Go reports its line. */
  private current: Item;
  private furthest = 0;

  constructor(
    private readonly items: Item[],
    private readonly text: string,
    private readonly parseName: string,
    private readonly options: ParseOptions,
    private readonly treeSet: Map<string, Tree>,
  ) {
    this.current = items[0] ?? { typ: ItemType.EOF, pos: 0, val: '', line: 1 };
  }

  errorf(msg: string): never {
    throw new ParseFailure(`template: ${this.parseName}:${this.current.line}: ${msg}`);
  }

  private next(): Item {
    const item = this.items[this.idx] ?? this.items[this.items.length - 1];
    if (item === undefined) throw new ParseFailure('template: empty item list');
    // Go reports the line of the furthest token its lexer produced, even after a backup.
    if (this.idx >= this.furthest) {
      this.furthest = this.idx;
      this.current = item;
    }
    this.idx = Math.min(this.idx + 1, this.items.length);
    return item;
  }
  private backup(): void {
    this.idx = Math.max(0, this.idx - 1);
  }
  private peek(): Item {
    const item = this.next();
    this.backup();
    return item;
  }
  private nextNonSpace(): Item {
    let item = this.next();
    while (item.typ === ItemType.Space) item = this.next();
    return item;
  }
  private peekNonSpace(): Item {
    const item = this.nextNonSpace();
    this.backup();
    return item;
  }
  private expect(typ: ItemType, context: string): Item {
    const token = this.nextNonSpace();
    if (token.typ !== typ) this.unexpected(token, context);
    return token;
  }
  private unexpected(token: Item, context: string): never {
    if (token.typ === ItemType.Error) {
      let extra = '';
      if (this.actionLine !== 0 && this.actionLine !== token.line) {
        extra = ` in action started at ${this.parseName}:${this.actionLine}`;
        if (token.val.endsWith(' action')) extra = extra.slice(' in action'.length);
      }
      this.errorf(`${token.val}${extra}`);
    }
    this.errorf(`unexpected ${itemString(token)} in ${context}`);
  }

  parseMain(name: string): Tree {
    const root: ListNode = { type: 'list', pos: this.peek().pos, nodes: [] };
    while (this.peek().typ !== ItemType.EOF) {
      if (this.peek().typ === ItemType.LeftDelim) {
        const save = this.idx;
        this.next();
        if (this.nextNonSpace().typ === ItemType.Define) {
          this.parseDefinition();
          continue;
        }
        this.idx = save;
      }
      const n = this.textOrAction();
      if (n.type === 'end' || n.type === 'else') this.errorf(`unexpected ${nodeString(n)}`);
      root.nodes.push(n);
    }
    return { name, parseName: this.parseName, text: this.text, root };
  }

  private parseDefinition(): void {
    const context = 'define clause';
    const outerVars = this.vars;
    this.vars = ['$'];
    const token = this.nextNonSpace();
    if (token.typ !== ItemType.String && token.typ !== ItemType.RawString) this.unexpected(token, context);
    const name = this.unquoteOrFail(token.val);
    this.expect(ItemType.RightDelim, context);
    const [root, end] = this.itemList();
    if (end.type !== 'end') this.errorf(`unexpected ${nodeString(end)} in ${context}`);
    addTree(this, this.treeSet, { name, parseName: this.parseName, text: this.text, root });
    this.vars = outerVars;
  }

  private unquoteOrFail(s: string): string {
    try {
      return unquote(s);
    } catch (e) {
      if (e instanceof GoSyntaxError) this.errorf(e.message);
      throw e;
    }
  }

  private itemList(): [ListNode, Node] {
    const list: ListNode = { type: 'list', pos: this.peekNonSpace().pos, nodes: [] };
    while (this.peekNonSpace().typ !== ItemType.EOF) {
      const n = this.textOrAction();
      if (n.type === 'end' || n.type === 'else') return [list, n];
      list.nodes.push(n);
    }
    this.errorf('unexpected EOF');
  }

  private textOrAction(): Node {
    const token = this.nextNonSpace();
    switch (token.typ) {
      case ItemType.Text:
        return { type: 'text', pos: token.pos, text: token.val };
      case ItemType.LeftDelim: {
        this.actionLine = token.line;
        try {
          return this.action();
        } finally {
          this.actionLine = 0;
        }
      }
      case ItemType.Comment:
        return { type: 'comment', pos: token.pos };
      default:
        this.unexpected(token, 'input');
    }
  }

  private action(): Node {
    const token = this.nextNonSpace();
    switch (token.typ) {
      case ItemType.Block:
        return this.blockControl();
      case ItemType.Break:
        return this.loopControl('break', token);
      case ItemType.Continue:
        return this.loopControl('continue', token);
      case ItemType.Else:
        return this.elseControl();
      case ItemType.End:
        return { type: 'end', pos: this.expect(ItemType.RightDelim, 'end').pos };
      case ItemType.If:
        return this.branch('if');
      case ItemType.Range:
        return this.branch('range');
      case ItemType.Template:
        return this.templateControl();
      case ItemType.With:
        return this.branch('with');
    }
    this.backup();
    const first = this.peek();
    return { type: 'action', pos: first.pos, pipe: this.pipeline('command', ItemType.RightDelim) };
  }

  private loopControl(kind: 'break' | 'continue', token: Item): Node {
    const next = this.nextNonSpace();
    if (next.typ !== ItemType.RightDelim) this.unexpected(next, `{{${kind}}}`);
    if (this.rangeDepth === 0) this.errorf(`{{${kind}}} outside {{range}}`);
    return { type: kind, pos: token.pos };
  }

  private elseControl(): Node {
    const peek = this.peekNonSpace();
    if (peek.typ === ItemType.If || peek.typ === ItemType.With) return { type: 'else', pos: peek.pos };
    const token = this.expect(ItemType.RightDelim, 'else');
    return { type: 'else', pos: token.pos };
  }

  private branch(context: 'if' | 'range' | 'with'): BranchNode {
    const mark = this.vars.length;
    try {
      const pipe = this.pipeline(context, ItemType.RightDelim);
      if (context === 'range') this.rangeDepth++;
      const [list, next0] = this.itemList();
      if (context === 'range') this.rangeDepth--;
      let next = next0;
      let elseList: ListNode | null = null;
      if (next.type === 'else') {
        if ((context === 'if' && this.peek().typ === ItemType.If) || (context === 'with' && this.peek().typ === ItemType.With)) {
          this.next();
          elseList = { type: 'list', pos: next.pos, nodes: [this.branch(context)] };
        } else {
          [elseList, next] = this.itemList();
          if (next.type !== 'end') this.errorf(`expected end; found ${nodeString(next)}`);
        }
      }
      return { type: context, pos: pipe.pos, pipe, list, elseList };
    } finally {
      this.vars.length = mark;
    }
  }

  private parseTemplateName(token: Item, context: string): string {
    if (token.typ === ItemType.String || token.typ === ItemType.RawString) return this.unquoteOrFail(token.val);
    this.unexpected(token, context);
  }

  private templateControl(): Node {
    const context = 'template clause';
    const token = this.nextNonSpace();
    const name = this.parseTemplateName(token, context);
    let pipe: PipeNode | null = null;
    if (this.nextNonSpace().typ !== ItemType.RightDelim) {
      this.backup();
      pipe = this.pipeline(context, ItemType.RightDelim);
    }
    return { type: 'template', pos: token.pos, name, pipe };
  }

  private blockControl(): Node {
    const context = 'block clause';
    const token = this.nextNonSpace();
    const name = this.parseTemplateName(token, context);
    const pipe = this.pipeline(context, ItemType.RightDelim);
    const outerVars = this.vars;
    const outerDepth = this.rangeDepth;
    this.vars = ['$'];
    this.rangeDepth = 0;
    const [root, end] = this.itemList();
    if (end.type !== 'end') this.errorf(`unexpected ${nodeString(end)} in ${context}`);
    addTree(this, this.treeSet, { name, parseName: this.parseName, text: this.text, root });
    this.vars = outerVars;
    this.rangeDepth = outerDepth;
    return { type: 'template', pos: token.pos, name, pipe };
  }

  private pipeline(context: string, end: ItemType): PipeNode {
    const token = this.peekNonSpace();
    const pipe: PipeNode = { type: 'pipe', pos: token.pos, isAssign: false, decl: [], cmds: [] };
    decls: for (;;) {
      const v = this.peekNonSpace();
      if (v.typ !== ItemType.Variable) break;
      this.nextNonSpace();
      const afterIdx = this.idx;
      const next = this.peekNonSpace();
      if (next.typ === ItemType.Assign || next.typ === ItemType.Declare) {
        pipe.isAssign = next.typ === ItemType.Assign;
        this.nextNonSpace();
        pipe.decl.push(variableNode(v.pos, v.val));
        this.vars.push(v.val);
      } else if (next.typ === ItemType.Char && next.val === ',') {
        this.nextNonSpace();
        pipe.decl.push(variableNode(v.pos, v.val));
        this.vars.push(v.val);
        if (context === 'range' && pipe.decl.length < 2) {
          const t = this.peekNonSpace().typ;
          if (t === ItemType.Variable || t === ItemType.RightDelim || t === ItemType.RightParen) continue decls;
          this.errorf('range can only initialize variables');
        }
        this.errorf(`too many declarations in ${context}`);
      } else {
        // Not a declaration: the variable is the pipeline's first operand.
        this.idx = afterIdx - 1;
      }
      break;
    }
    for (;;) {
      const token = this.nextNonSpace();
      switch (token.typ) {
        case end:
          this.checkPipeline(pipe, context);
          return pipe;
        case ItemType.Bool:
        case ItemType.CharConstant:
        case ItemType.Complex:
        case ItemType.Dot:
        case ItemType.Field:
        case ItemType.Identifier:
        case ItemType.Number:
        case ItemType.Nil:
        case ItemType.RawString:
        case ItemType.String:
        case ItemType.Variable:
        case ItemType.LeftParen:
          this.backup();
          pipe.cmds.push(this.command());
          if (pipe.cmds.length > maxPipelineCmds) this.errorf('pipeline too long');
          break;
        default:
          this.unexpected(token, context);
      }
    }
  }

  private checkPipeline(pipe: PipeNode, context: string): void {
    if (pipe.cmds.length === 0) this.errorf(`missing value for ${context}`);
    pipe.cmds.slice(1).forEach((c, i) => {
      const t = c.args[0]?.type;
      if (t === 'bool' || t === 'dot' || t === 'nil' || t === 'number' || t === 'string') {
        this.errorf(`non executable command in pipeline stage ${i + 2}`);
      }
    });
  }

  private command(): CommandNode {
    const cmd: CommandNode = { type: 'command', pos: this.peekNonSpace().pos, args: [] };
    for (;;) {
      this.peekNonSpace();
      const operand = this.operand();
      if (operand !== null) cmd.args.push(operand);
      const token = this.next();
      if (token.typ === ItemType.Space) continue;
      if (token.typ === ItemType.RightDelim || token.typ === ItemType.RightParen) this.backup();
      else if (token.typ !== ItemType.Pipe) this.unexpected(token, 'operand');
      break;
    }
    if (cmd.args.length === 0) this.errorf('empty command');
    return cmd;
  }

  private operand(): ArgNode | null {
    const node = this.term();
    if (node === null) return null;
    if (this.peek().typ === ItemType.Field) {
      const pos = this.peek().pos;
      const fields: string[] = [];
      while (this.peek().typ === ItemType.Field) fields.push(this.next().val.slice(1));
      const chain: ChainNode = { type: 'chain', pos, node, field: fields };
      switch (node.type) {
        case 'field':
          return { type: 'field', pos, ident: nodeString(chain).slice(1).split('.') };
        case 'variable':
          return variableNode(pos, nodeString(chain));
        case 'bool':
        case 'string':
        case 'number':
        case 'nil':
        case 'dot':
          this.errorf(`unexpected . after term ${goQuote(nodeString(node))}`);
        // falls through: errorf never returns
        default:
          return chain;
      }
    }
    return node;
  }

  private term(): ArgNode | null {
    const token = this.nextNonSpace();
    switch (token.typ) {
      case ItemType.Identifier:
        if (!this.options.hasFunction(token.val)) this.errorf(`function ${goQuote(token.val)} not defined`);
        return { type: 'identifier', pos: token.pos, ident: token.val };
      case ItemType.Dot:
        return { type: 'dot', pos: token.pos };
      case ItemType.Nil:
        return { type: 'nil', pos: token.pos };
      case ItemType.Variable: {
        const v = variableNode(token.pos, token.val);
        if (!this.vars.includes(v.ident[0] ?? '')) this.errorf(`undefined variable ${goQuote(v.ident[0] ?? '')}`);
        return v;
      }
      case ItemType.Field:
        return { type: 'field', pos: token.pos, ident: token.val.slice(1).split('.') };
      case ItemType.Bool:
        return { type: 'bool', pos: token.pos, value: token.val === 'true' };
      case ItemType.CharConstant:
      case ItemType.Complex:
      case ItemType.Number:
        return this.newNumber(token);
      case ItemType.LeftParen: {
        if (this.stackDepth >= maxStackDepth) this.errorf('max expression depth exceeded');
        this.stackDepth++;
        try {
          return this.pipeline('parenthesized pipeline', ItemType.RightParen);
        } finally {
          this.stackDepth--;
        }
      }
      case ItemType.String:
      case ItemType.RawString:
        return { type: 'string', pos: token.pos, quoted: token.val, text: this.unquoteOrFail(token.val) };
    }
    this.backup();
    return null;
  }

  private newNumber(token: Item): NumberNode {
    const text = token.val;
    const n: NumberNode = {
      type: 'number',
      pos: token.pos,
      text,
      isInt: false,
      isUint: false,
      isFloat: false,
      isComplex: false,
      int64: 0n,
      uint64: 0n,
      float64: 0,
      complex: [0, 0],
    };
    if (token.typ === ItemType.CharConstant) {
      let decoded: { value: number; tail: string };
      try {
        decoded = unquoteChar(text.slice(1), text[0] ?? "'");
      } catch (e) {
        if (e instanceof GoSyntaxError) this.errorf(e.message);
        throw e;
      }
      if (decoded.tail !== "'") this.errorf(`malformed character constant: ${text}`);
      n.int64 = BigInt(decoded.value);
      n.uint64 = n.int64;
      n.float64 = decoded.value;
      n.isInt = n.isUint = n.isFloat = true;
      return n;
    }
    if (token.typ === ItemType.Complex) {
      // Go reads "re+imi" with fmt.Sscan; both halves are float literals.
      const m = /^([+-]?[^+-]+(?:[eEpP][+-][^+-]+)?)([+-].*)i$/.exec(text);
      const re = m === null ? undefined : goParseFloat(m[1] ?? '');
      const im = m === null ? undefined : goParseFloat(m[2] ?? '');
      if (re === undefined || im === undefined) this.errorf(`illegal number syntax: ${goQuote(text)}`);
      n.isComplex = true;
      n.complex = [re, im];
      simplifyComplex(n);
      return n;
    }
    if (text.endsWith('i')) {
      const f = goParseFloat(text.slice(0, -1));
      if (f !== undefined) {
        n.isComplex = true;
        n.complex = [0, f];
        simplifyComplex(n);
        return n;
      }
    }
    const u = goParseUint(text, 0);
    if (u.err === null) {
      n.isUint = true;
      n.uint64 = u.value;
    }
    const i = goParseInt(text, 0);
    if (i.err === null) {
      n.isInt = true;
      n.int64 = i.value;
      if (i.value === 0n) {
        n.isUint = true;
        n.uint64 = u.err === null ? u.value : 0n;
      }
    }
    if (n.isInt) {
      n.isFloat = true;
      n.float64 = Number(n.int64);
    } else if (n.isUint) {
      n.isFloat = true;
      n.float64 = Number(n.uint64);
    } else {
      const f = goParseFloat(text);
      if (f !== undefined) {
        if (!/[.eEpP]/.test(text)) this.errorf(`integer overflow: ${goQuote(text)}`);
        n.isFloat = true;
        n.float64 = f;
        setIntegersFromFloat(n, f);
      }
    }
    if (!n.isInt && !n.isUint && !n.isFloat) this.errorf(`illegal number syntax: ${goQuote(text)}`);
    return n;
  }
}

function setIntegersFromFloat(n: NumberNode, f: number): void {
  // Go: float64(int64(f)) == f, and the same for uint64 (conversions of out-of-range floats never round-trip).
  if (Number.isInteger(f) && f >= -(2 ** 63) && f < 2 ** 63 && !n.isInt) {
    n.isInt = true;
    n.int64 = BigInt(f);
  }
  if (Number.isInteger(f) && f >= 0 && f < 2 ** 64 && !n.isUint) {
    n.isUint = true;
    n.uint64 = BigInt(f);
  }
}

function simplifyComplex(n: NumberNode): void {
  const [re, im] = n.complex;
  if (im === 0) {
    n.isFloat = true;
    n.float64 = re;
    setIntegersFromFloat(n, re);
  }
}

function variableNode(pos: number, name: string): VariableNode {
  return { type: 'variable', pos, ident: name.split('.') };
}

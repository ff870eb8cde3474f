/**
 * What changed inside one value, for a reviewer: a multi-line string (a ClusterClass patch template, a kubeadm file)
 * as a small unified diff of its lines, a flag list (`--feature-gates=A=true,B=false`, a container's `args`) item by
 * item. Two whole values side by side hide a one-line edit; this shows the edit. Bounded: a few lines of context,
 * a line cap, a length cap per line.
 */
/**
 * The inside of a changed value. `lines`: a unified diff of a multi-line string (`@@ -l,s +l,s @@` headers, then
 * lines starting with ` `, `-` or `+`; 3 lines of context). `items`: a flag list (`--feature-gates=A=true,B=false`,
 * `prefix` then `--feature-gates=`) or a string list (container `args`), the items only the old value has
 * (`removed`) and only the new one has (`added`). `hidden`: lines or items left out (at most 40 are kept).
 */
export type ValueDiff =
  | { kind: 'lines'; lines: string[]; hidden?: number }
  | { kind: 'items'; prefix?: string; removed: string[]; added: string[]; hidden?: number };

/** Lines of context around each change, as `diff -U3`. */
const context = 3;
/** Diff lines kept per value; the rest is counted in `hidden`. */
const maxLines = 40;
/** Characters kept per line. */
const maxLineLength = 240;
/** Longest side compared line by line (after the common head and tail); beyond it the middle is replaced whole. */
const maxCompared = 2000;

function clip(line: string): string {
  return line.length > maxLineLength ? `${line.slice(0, maxLineLength)}…` : line;
}

type Op = { op: ' ' | '-' | '+'; text: string; a: number; b: number };

/** The edit script from `a` to `b` (longest common subsequence over the part between the common head and tail). */
function editScript(a: readonly string[], b: readonly string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const ops: Op[] = [];
  for (let i = 0; i < head; i++) ops.push({ op: ' ', text: a[i]!, a: i, b: i });
  const ma = a.slice(head, a.length - tail);
  const mb = b.slice(head, b.length - tail);
  if (ma.length > maxCompared || mb.length > maxCompared || ma.length * mb.length > 1_000_000) {
    ma.forEach((t, i) => ops.push({ op: '-', text: t, a: head + i, b: head }));
    mb.forEach((t, j) => ops.push({ op: '+', text: t, a: head + ma.length, b: head + j }));
  } else {
    // lcs[i][j]: the common subsequence length of ma[i..] and mb[j..].
    const w = mb.length + 1;
    const lcs = new Uint32Array((ma.length + 1) * w);
    for (let i = ma.length - 1; i >= 0; i--) {
      for (let j = mb.length - 1; j >= 0; j--) {
        lcs[i * w + j] = ma[i] === mb[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
      }
    }
    let i = 0;
    let j = 0;
    while (i < ma.length || j < mb.length) {
      if (i < ma.length && j < mb.length && ma[i] === mb[j]) {
        ops.push({ op: ' ', text: ma[i]!, a: head + i, b: head + j });
        i++;
        j++;
      } else if (j < mb.length && (i >= ma.length || lcs[i * w + j + 1]! >= lcs[(i + 1) * w + j]!)) {
        ops.push({ op: '+', text: mb[j]!, a: head + i, b: head + j });
        j++;
      } else {
        ops.push({ op: '-', text: ma[i]!, a: head + i, b: head + j });
        i++;
      }
    }
    // A removed line reads before the line that replaces it, as in `diff -u`.
    for (let k = head; k + 1 < ops.length; k++) {
      let end = k;
      while (end < ops.length && ops[end]!.op !== ' ') end++;
      if (end > k + 1) {
        const run = ops.slice(k, end);
        ops.splice(k, run.length, ...run.filter((o) => o.op === '-'), ...run.filter((o) => o.op === '+'));
      }
      k = end;
    }
  }
  for (let i = tail; i > 0; i--) ops.push({ op: ' ', text: a[a.length - i]!, a: a.length - i, b: b.length - i });
  return ops;
}

/** `@@ -l,s +l,s @@` hunks with `context` lines around each change. */
export function unifiedLines(oldText: string, newText: string): { lines: string[]; hidden: number } {
  const ops = editScript(oldText.split('\n'), newText.split('\n'));
  const changed = ops.map((o, i) => (o.op === ' ' ? -1 : i)).filter((i) => i >= 0);
  const out: string[] = [];
  let n = 0;
  while (n < changed.length) {
    const start = Math.max(0, changed[n]! - context);
    let end = changed[n]! + context;
    while (n + 1 < changed.length && changed[n + 1]! - context <= end + 1) end = changed[++n]! + context;
    n++;
    end = Math.min(ops.length - 1, end);
    const hunk = ops.slice(start, end + 1);
    const aLen = hunk.filter((o) => o.op !== '+').length;
    const bLen = hunk.filter((o) => o.op !== '-').length;
    // A '-' or context line knows its old line number, a '+' or context line its new one.
    const aStart = aLen > 0 ? hunk.find((o) => o.op !== '+')!.a + 1 : hunk[0]!.a;
    const bStart = bLen > 0 ? hunk.find((o) => o.op !== '-')!.b + 1 : hunk[0]!.b;
    out.push(`@@ -${aStart},${aLen} +${bStart},${bLen} @@`);
    for (const o of hunk) out.push(clip(`${o.op}${o.text}`));
  }
  return out.length > maxLines ? { lines: out.slice(0, maxLines), hidden: out.length - maxLines } : { lines: out, hidden: 0 };
}

/** `--name=` and the items of a comma-separated `key=value` list (`A=true,B=false`), or undefined. */
function flagList(v: string): { prefix: string; items: string[] } | undefined {
  if (v.includes('\n')) return undefined;
  const m = /^(--?[A-Za-z0-9][A-Za-z0-9._-]*=)?(.*)$/.exec(v);
  const body = m?.[2] ?? '';
  const items = body.split(',');
  if (items.some((x) => !/^[^=,\s]+=[^,]*$/.test(x))) return undefined;
  return { prefix: m?.[1] ?? '', items };
}

/** Items only in `a` and only in `b`, each side in its own order. */
function itemDiff(a: readonly string[], b: readonly string[]): { removed: string[]; added: string[] } {
  const inA = new Set(a);
  const inB = new Set(b);
  return { removed: a.filter((x) => !inB.has(x)).map(clip), added: b.filter((x) => !inA.has(x)).map(clip) };
}

function capItems(d: { removed: string[]; added: string[] }): { removed: string[]; added: string[]; hidden: number } {
  const total = d.removed.length + d.added.length;
  if (total <= maxLines) return { ...d, hidden: 0 };
  const removed = d.removed.slice(0, maxLines);
  const added = d.added.slice(0, Math.max(0, maxLines - removed.length));
  return { removed, added, hidden: total - removed.length - added.length };
}

const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/**
 * The inside view of a changed value, or undefined when the two values say it already (short scalars, objects):
 * multi-line strings get their changed lines, flag lists and string lists (container `args`) their changed items.
 */
export function valueDiff(oldValue: unknown, newValue: unknown): ValueDiff | undefined {
  if (typeof oldValue === 'string' && typeof newValue === 'string') {
    if (oldValue.includes('\n') || newValue.includes('\n')) {
      const { lines, hidden } = unifiedLines(oldValue, newValue);
      return lines.length === 0 ? undefined : { kind: 'lines', lines, ...(hidden > 0 ? { hidden } : {}) };
    }
    const a = flagList(oldValue);
    const b = flagList(newValue);
    if (!a || !b || a.prefix !== b.prefix || (a.items.length < 2 && b.items.length < 2)) return undefined;
    const { removed, added, hidden } = capItems(itemDiff(a.items, b.items));
    if (removed.length + added.length === 0) return undefined;
    return { kind: 'items', ...(a.prefix ? { prefix: a.prefix } : {}), removed, added, ...(hidden > 0 ? { hidden } : {}) };
  }
  if (isStringList(oldValue) && isStringList(newValue)) {
    const { removed, added, hidden } = capItems(itemDiff(oldValue, newValue));
    if (removed.length + added.length === 0) return undefined;
    return { kind: 'items', removed, added, ...(hidden > 0 ? { hidden } : {}) };
  }
  return undefined;
}

/** Adds `valueDiff` to each changed, unredacted field whose values have an inside view. */
export function withValueDiffs<F extends { action: string; old?: unknown; new?: unknown; redacted?: unknown; valueDiff?: ValueDiff }>(fields: F[]): F[] {
  for (const f of fields) {
    if (f.action !== 'changed' || f.redacted) continue;
    const d = valueDiff(f.old, f.new);
    if (d) f.valueDiff = d;
  }
  return fields;
}

/** The diff's lines as a unified-diff body: the lines, or `-item` / `+item` per flag-list item. */
export function valueDiffLines(d: ValueDiff): string[] {
  const lines = d.kind === 'lines' ? [...d.lines] : [...d.removed.map((x) => `-${x}`), ...d.added.map((x) => `+${x}`)];
  if (d.hidden) lines.push(`… ${d.hidden} more ${d.kind === 'lines' ? 'lines' : 'items'}`);
  return lines;
}

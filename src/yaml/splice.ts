/**
 * Writes a changed object back into its source document text, touching only what changed: untouched keys,
 * comments, quoting and key order stay byte-identical. Removed keys are cut out, new keys are appended to their
 * mapping, changed values are re-emitted in capiform's style (emit.ts). When the fast parser did not map the
 * document (node === null), a changed document is emitted whole.
 */
import { afterDash, afterKey, emitObject, keyText } from './emit.js';
import type { MapNode, Node } from './fast-parse.js';
import { isObject as isObj, sameValueDeepEqual } from '../go/index.js';

interface Edit {
  start: number;
  end: number;
  text: string;
}

type Slot = { k: 'key'; at: number; col: number } | { k: 'dash'; at: number; col: number } | { k: 'root' };

class RootReplace extends Error {}

/** Structural equality of JSON values (Object.is for scalars, key order ignored). */
export const deepEqual = sameValueDeepEqual;

function replaceSlot(node: Node, target: unknown, slot: Slot, edits: Edit[]): void {
  if (slot.k === 'root') throw new RootReplace();
  const text = slot.k === 'key' ? afterKey(target, slot.col) : afterDash(target, slot.col);
  edits.push({ start: slot.at, end: Math.max(node.end, slot.at), text });
}

function reconcile(node: Node, target: unknown, slot: Slot, edits: Edit[]): void {
  if (node.value === target) return;
  if (node.t === 'scalar') {
    if (!Object.is(node.value, target)) replaceSlot(node, target, slot, edits);
    return;
  }
  if (node.flow) {
    if (!deepEqual(node.value, target)) replaceSlot(node, target, slot, edits);
    return;
  }
  if (node.t === 'seq') {
    if (!Array.isArray(target) || target.length !== node.items.length || target.length === 0) {
      replaceSlot(node, target, slot, edits);
      return;
    }
    for (let i = 0; i < target.length; i++) {
      reconcile(node.items[i] as Node, target[i], { k: 'dash', at: node.dashEnds[i] as number, col: node.indent }, edits);
    }
    return;
  }
  if (!isObj(target)) {
    replaceSlot(node, target, slot, edits);
    return;
  }
  reconcileMap(node, target, slot, edits);
}

function reconcileMap(node: MapNode, target: Record<string, unknown>, slot: Slot, edits: Edit[]): void {
  const n = node.keys.length;
  const keep: boolean[] = node.keys.map((k) => Object.prototype.hasOwnProperty.call(target, k));
  const kept = keep.filter(Boolean).length;
  const sourceKeys = new Set(node.keys);
  const added = Object.keys(target).filter((k) => !sourceKeys.has(k));
  if (kept === 0) {
    replaceSlot(node, target, slot, edits);
    return;
  }
  // values of kept entries
  for (let i = 0; i < n; i++) {
    if (!keep[i]) continue;
    const k = node.keys[i] as string;
    reconcile(node.vals[i] as Node, target[k], { k: 'key', at: node.colonEnds[i] as number, col: node.indent }, edits);
  }
  // deletions: a trailing run is cut from the end of the last kept entry; others from key to next key
  let lastKept = n - 1;
  while (lastKept >= 0 && !keep[lastKept]) lastKept--;
  for (let i = 0; i < lastKept; i++) {
    if (!keep[i]) edits.push({ start: node.keyStarts[i] as number, end: node.keyStarts[i + 1] as number, text: '' });
  }
  let insertText = '';
  const pad = ' '.repeat(node.indent);
  for (const k of added) insertText += '\n' + pad + keyText(k) + ':' + afterKey(target[k], node.indent);
  const at = node.entryEnds[lastKept] as number;
  const end = lastKept < n - 1 ? (node.entryEnds[n - 1] as number) : at;
  if (insertText !== '' || end > at) edits.push({ start: at, end, text: insertText });
}

function applyEdits(text: string, edits: Edit[]): string {
  if (edits.length === 0) return text;
  edits.sort((a, b) => a.start - b.start || a.end - b.end);
  let out = '';
  let pos = 0;
  for (const e of edits) {
    if (e.start < pos) throw new RootReplace(); // overlapping edits: give up on splicing
    out += text.slice(pos, e.start) + e.text;
    pos = e.end;
  }
  return out + text.slice(pos);
}

/**
 * The document text for `target`, given the document it came from (or none, for objects we created).
 * Always ends with a newline.
 */
export function spliceDocument(
  source: { text: string; node: Node | null; value: unknown; duplicateKeys?: boolean } | undefined,
  target: Record<string, unknown>,
): string {
  if (!source) return emitObject(target);
  let out: string;
  if (source.node === null) {
    // A text that repeats a key is never written out again: output holds each key once.
    out = !source.duplicateKeys && deepEqual(source.value, target) ? source.text : emitObject(target);
  } else {
    const edits: Edit[] = [];
    try {
      reconcile(source.node, target, { k: 'root' }, edits);
      out = applyEdits(source.text, edits);
    } catch (e) {
      if (!(e instanceof RootReplace)) throw e;
      out = emitObject(target);
    }
  }
  return out.endsWith('\n') ? out : out + '\n';
}

/**
 * Document splitting exactly as apimachinery's `YAMLReader.Read` (k8s.io/apimachinery/pkg/util/yaml, v0.36.3):
 * a line that starts with `---` ends the current document; only spaces or a `#` comment may follow the `---`,
 * anything else is `invalid Yaml document separator: …`. The separator line belongs to neither document.
 */
import { InputError } from '../errors.js';

export interface DocChunk {
  /** Offset of the first byte of the document in the whole text. */
  start: number;
  /** Offset just past the last byte (the document keeps its final newline). */
  end: number;
  /** 1-based line number of the document's first line in the whole text. */
  line: number;
}

const goSpace = /^[\s\u0085\u00a0]+|[\s\u0085\u00a0]+$/g;

export function splitDocuments(text: string, source?: string): DocChunk[] {
  const out: DocChunk[] = [];
  let docStart = 0;
  let docLine = 1;
  let pos = 0;
  let line = 1;
  const n = text.length;
  while (pos < n) {
    let eol = text.indexOf('\n', pos);
    const next = eol === -1 ? n : eol + 1;
    if (eol === -1) eol = n;
    if (text.startsWith('---', pos)) {
      const trimmed = text.slice(pos + 3, eol).replace(goSpace, '');
      if (trimmed.length > 0 && trimmed[0] !== '#') {
        throw new InputError(`invalid Yaml document separator: ${trimmed}`, {
          where: source ? `${source}:${line}` : `line ${line}`,
          hint: 'A line starting with --- separates documents; only spaces or a # comment may follow it.',
        });
      }
      if (pos > docStart) out.push({ start: docStart, end: pos, line: docLine });
      docStart = next;
      docLine = line + 1;
    }
    pos = next;
    line++;
  }
  if (n > docStart) out.push({ start: docStart, end: n, line: docLine });
  return out;
}

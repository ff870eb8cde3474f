/**
 * A port of Go's `text/tabwriter` for the cases clusterctl uses (AlignRight, Debug and escapes not supported):
 * cells end at `\t`, the last cell of a line is not part of a column, a column block is a run of consecutive
 * lines that have a cell in that column, and each column is as wide as its widest cell plus `padding`, but at
 * least `minwidth`. Widths count Unicode code points, as Go counts runes.
 */

export interface TabwriterOptions {
  /** Minimal cell width including padding. */
  minwidth: number;
  /** Width of a tab character, used only when `padchar` is `\t`. */
  tabwidth: number;
  /** Padding added to a cell before computing its width. */
  padding: number;
  /** The padding character (`' '` in clusterctl). */
  padchar: string;
  /** Go's `FilterHTML` flag: `<…>` has no width and `&…;` counts as one. */
  filterHtml?: boolean;
}

/** clusterctl's tables: `tabwriter.NewWriter(os.Stdout, 10, 4, 3, ' ', 0)`. */
export const clusterctlTable: TabwriterOptions = { minwidth: 10, tabwidth: 4, padding: 3, padchar: ' ' };

function runeCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** Width of a cell under FilterHTML: runes, except that a tag has none and an entity counts as one. */
function htmlCellWidth(cell: string): number {
  let width = 0;
  let i = 0;
  const chars = [...cell];
  while (i < chars.length) {
    const c = chars[i];
    if (c === '<') {
      const end = chars.indexOf('>', i);
      if (end < 0) break;
      i = end + 1;
      continue;
    }
    if (c === '&') {
      const end = chars.indexOf(';', i);
      width += 1;
      if (end < 0) break;
      i = end + 1;
      continue;
    }
    width += 1;
    i += 1;
  }
  return width;
}

/** The lines of `lines` (each a list of cells, the last one outside any column) with their cells padded. */
function layout(lines: readonly (readonly string[])[], options: TabwriterOptions): string[] {
  const cellWidth = options.filterHtml ? htmlCellWidth : runeCount;
  const widths: number[] = [];
  const out: string[] = [];

  const pad = (n: number): string => {
    if (n <= 0) return '';
    if (options.padchar === '\t') {
      // Go rounds the cell width up to a multiple of tabwidth and writes tabs.
      return '\t'.repeat(Math.ceil(n / Math.max(options.tabwidth, 1)));
    }
    return options.padchar.repeat(n);
  };

  const writeLines = (line0: number, line1: number): void => {
    for (let i = line0; i < line1; i++) {
      const line = lines[i] ?? [];
      let text = '';
      for (let j = 0; j < line.length; j++) {
        const cell = line[j] ?? '';
        text += cell;
        if (j < widths.length) text += pad((widths[j] ?? 0) - cellWidth(cell));
      }
      out.push(text);
    }
  };

  const format = (line0: number, line1: number): void => {
    const column = widths.length;
    for (let current = line0; current < line1; current++) {
      const line = lines[current] ?? [];
      if (column >= line.length - 1) continue;
      writeLines(line0, current);
      line0 = current;
      let width = options.minwidth;
      for (; current < line1; current++) {
        const l = lines[current] ?? [];
        if (column >= l.length - 1) break;
        const w = cellWidth(l[column] ?? '') + options.padding;
        if (w > width) width = w;
      }
      widths.push(width);
      format(line0, current);
      widths.pop();
      line0 = current;
      // Go's loop increments past the line that ended the block; that line has no cell here anyway.
    }
    writeLines(line0, line1);
  };

  format(0, lines.length);
  return out;
}

/**
 * Formats `text` (lines separated by `\n`, cells terminated by `\t`) the way a Go tabwriter does when all of it is
 * written and then flushed.
 */
export function tabwrite(text: string, options: TabwriterOptions = clusterctlTable): string {
  const endsWithNewline = text.endsWith('\n');
  const rawLines = (endsWithNewline ? text.slice(0, -1) : text).split('\n');
  const out = layout(
    rawLines.map((l) => l.split('\t')),
    options,
  ).join('\n');
  return endsWithNewline ? `${out}\n` : out;
}

/** Formats rows given as cells, each row followed by `\n`; a cell is never split, whatever characters it holds. */
export function tabwriteRows(rows: readonly (readonly string[])[], options: TabwriterOptions = clusterctlTable): string {
  return layout(rows, options)
    .map((l) => `${l}\n`)
    .join('');
}

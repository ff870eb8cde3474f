import { describe, expect, it } from 'vitest';
import { clusterctlTable, tabwrite, tabwriteRows, type TabwriterOptions } from './index.js';

/** clusterctl's `generate cluster --list-variables` writer: `tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', FilterHTML)`. */
const listVariables: TabwriterOptions = { minwidth: 0, tabwidth: 4, padding: 2, padchar: ' ', filterHtml: true };

describe('Go text/tabwriter (src/go)', () => {
  it('lays out rows given as cells like the same text with tabs, each row ending with a newline', () => {
    const rows = [
      ['NAME', 'TYPE', 'URL', 'FILE'],
      ['cluster-api', 'CoreProvider', 'https://github.com/kubernetes-sigs/cluster-api/releases/latest/', 'core-components.yaml'],
    ];
    const text = rows.map((r) => `${r.join('\t')}\n`).join('');
    expect(tabwriteRows(rows, clusterctlTable)).toBe(tabwrite(text, clusterctlTable));
    // Each column: its widest cell plus 3 (at least 10); the last cell is not padded.
    const url = rows[1]?.[2] ?? '';
    expect(tabwriteRows(rows)).toBe(
      `NAME${' '.repeat(10)}TYPE${' '.repeat(11)}URL${' '.repeat(url.length)}FILE\n` + `cluster-api   CoreProvider   ${url}   core-components.yaml\n`,
    );
  });

  it('never splits a cell given as a row cell, even one holding a tab', () => {
    expect(tabwriteRows([['a\tb', 'last']])).toBe('a\tb       last\n');
    expect(tabwrite('a\tb\tlast\n')).toBe('a         b         last\n');
  });

  it('with FilterHTML, gives a tag no width and an entity the width of one character', () => {
    expect(tabwrite('<b>x</b>\ty\nab\tz', listVariables)).toBe('<b>x</b>   y\nab  z');
    expect(tabwrite('&amp;\ty\nab\tz', listVariables)).toBe('&amp;   y\nab  z');
  });

  it('without FilterHTML, counts every character of a tag', () => {
    expect(tabwrite('<b>\ty\n', { ...listVariables, filterHtml: false })).toBe('<b>  y\n');
    expect(tabwrite('<b>\ty\nab\tz\n', { ...listVariables, filterHtml: false })).toBe('<b>  y\nab   z\n');
  });

  it('keeps text without a final newline without one, and empty text empty', () => {
    expect(tabwrite('a\tb', clusterctlTable)).toBe('a         b');
    expect(tabwrite('', clusterctlTable)).toBe('');
    expect(tabwriteRows([])).toBe('');
  });
});

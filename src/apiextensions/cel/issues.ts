/**
 * Compile problems as cel-go prints them (`Issues.String()`): `ERROR: <input>:line:col: message`, then the source line
 * and a caret under the column.
 */
export interface Issue {
  /** Character offset in the expression. */
  readonly offset: number;
  readonly message: string;
}

export function formatIssues(source: string, issues: readonly Issue[]): string {
  const sorted = [...issues].sort((a, b) => a.offset - b.offset);
  return sorted.map((i) => formatIssue(source, i)).join('\n');
}

function formatIssue(source: string, issue: Issue): string {
  const before = Array.from(source.slice(0, issue.offset));
  let line = 1;
  let col = 0;
  for (const ch of before) {
    if (ch === '\n') {
      line++;
      col = 0;
    } else col++;
  }
  const sourceLine = source.split('\n')[line - 1] ?? '';
  let text = `ERROR: <input>:${line}:${col + 1}: ${issue.message}`;
  if (sourceLine.length > 0) {
    text += `\n | ${sourceLine}\n | ${'.'.repeat(col)}^`;
  }
  return text;
}

/**
 * Parse failures in cel-go's words: the parser reports where it stopped and what it found; cel-go (ANTLR) says
 * `Syntax error: mismatched input 'does' expecting <EOF>` or `token recognition error at: '~'`.
 */
import type { Issue } from './issues.js';

const EXPRESSION_START =
  "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";

function tokenAt(source: string, offset: number): string | undefined {
  const rest = source.slice(offset);
  if (rest.length === 0) return undefined;
  const m =
    /^(?:[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?[uU]?|'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|==|!=|<=|>=|&&|\|\||\S)/.exec(rest);
  return m?.[0];
}

const KNOWN_CHARS = /[A-Za-z0-9_\s'"`.,:?!<>=&|+\-*/%()[\]{}]/;

export function syntaxIssue(source: string, err: unknown): Issue {
  const e = err as { location?: { start?: { offset?: number } }; expected?: { description?: string; type?: string }[]; found?: string | null };
  const cause = (err as { cause?: unknown }).cause;
  const detail = e.location ? e : ((cause ?? {}) as typeof e);
  let offset = detail.location?.start?.offset ?? 0;
  while (offset < source.length && /\s/.test(source[offset]!)) offset++;
  const token = tokenAt(source, offset);
  if (token !== undefined && token.length === 1 && !KNOWN_CHARS.test(token)) {
    return { offset, message: `Syntax error: token recognition error at: '${token}'` };
  }
  const expectsEnd = (detail.expected ?? []).every((x) => x.type === 'end');
  if (token === undefined) return { offset, message: `Syntax error: mismatched input '<EOF>' expecting ${EXPRESSION_START}` };
  if (expectsEnd && (detail.expected ?? []).length > 0) {
    return { offset, message: `Syntax error: mismatched input '${token}' expecting <EOF>` };
  }
  return { offset, message: `Syntax error: mismatched input '${token}' expecting ${EXPRESSION_START}` };
}

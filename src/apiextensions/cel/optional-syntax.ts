/**
 * CEL's optional field selection and indexing (`self.?spec.?replicas`, `self.labels[?'app']`), which Kubernetes
 * enables from 1.28. The parser does not know the syntax, so the `?` is blanked out before parsing (keeping every
 * offset) and the selections and indexes found at the remembered positions become optional calls afterwards.
 */
import type { Expr } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';

export const OPTIONAL_SELECT = 'optional_select';
export const OPTIONAL_INDEX = 'optional_index';

export interface OptionalSyntax {
  /** The source with `.?` and `[?` written as `. ` and `[ `. */
  readonly source: string;
  /** Offsets of the `.` of optional selections. */
  readonly selects: ReadonlySet<number>;
  /** Offsets of the `[` of optional indexes. */
  readonly indexes: ReadonlySet<number>;
}

export function blankOptionalSyntax(source: string): OptionalSyntax {
  // UTF-16 offsets, as the parser reports them.
  const text = source;
  const out = text.split('');
  const selects = new Set<number>();
  const indexes = new Set<number>();
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    // Skip string and bytes literals, including triple-quoted and raw ones.
    if (c === '\'' || c === '"') {
      const triple = text.startsWith(c.repeat(3), i);
      const quote = triple ? c.repeat(3) : c;
      const raw = i > 0 && /[rR]/.test(text[i - 1]!);
      let j = i + quote.length;
      while (j < text.length && !text.startsWith(quote, j)) j += !raw && text[j] === '\\' ? 2 : 1;
      i = j + quote.length;
      continue;
    }
    if (c === '.' && text[i + 1] === '?') {
      selects.add(i);
      out[i + 1] = ' ';
      i += 2;
      continue;
    }
    if (c === '[' && text[i + 1] === '?') {
      let k = i - 1;
      while (k >= 0 && /\s/.test(text[k]!)) k--;
      if (k >= 0 && /[A-Za-z0-9_)\]]/.test(text[k]!)) {
        indexes.add(i);
        out[i + 1] = ' ';
        i += 2;
        continue;
      }
    }
    i++;
  }
  return { source: out.join(''), selects, indexes };
}

let syntheticId = 1n << 40n;

/** Turns the remembered selections and indexes of a parsed expression into optional calls. */
export function restoreOptionalSyntax(expr: Expr, positions: Readonly<Record<string, number>>, syntax: OptionalSyntax): void {
  if (syntax.selects.size === 0 && syntax.indexes.size === 0) return;
  const visit = (e: Expr | undefined): void => {
    if (!e) return;
    const kind = e.exprKind;
    const at = positions[String(e.id)];
    switch (kind.case) {
      case 'selectExpr': {
        visit(kind.value.operand);
        if (at !== undefined && syntax.selects.has(at) && !kind.value.testOnly) {
          syntheticId += 1n;
          const field = {
            id: syntheticId,
            exprKind: { case: 'constExpr', value: { constantKind: { case: 'stringValue', value: kind.value.field } } },
          };
          (e as { exprKind: unknown }).exprKind = {
            case: 'callExpr',
            value: { $typeName: 'cel.expr.Expr.Call', function: OPTIONAL_SELECT, args: [kind.value.operand, field] },
          };
        }
        return;
      }
      case 'callExpr':
        visit(kind.value.target);
        kind.value.args.forEach(visit);
        if (kind.value.function === '_[_]' && at !== undefined && syntax.indexes.has(at)) kind.value.function = OPTIONAL_INDEX;
        return;
      case 'listExpr':
        kind.value.elements.forEach(visit);
        return;
      case 'structExpr':
        for (const entry of kind.value.entries) {
          if (entry.keyKind.case === 'mapKey') visit(entry.keyKind.value);
          visit(entry.value);
        }
        return;
      case 'comprehensionExpr':
        visit(kind.value.iterRange);
        visit(kind.value.accuInit);
        visit(kind.value.loopCondition);
        visit(kind.value.loopStep);
        visit(kind.value.result);
        return;
      default:
        return;
    }
  };
  visit(expr);
}

import type { CapiformError } from '../errors.js';
import { colorsFor } from './colors.js';
import type { CliIO } from './context.js';

/** One error, as a user reads it: `Error: <message>` then where and how to fix it. No stack trace. */
export function formatError(err: CapiformError, io: CliIO): string {
  const c = colorsFor(io, 'stderr');
  const lines = [`${c.red(c.bold('Error:'))} ${err.message}`];
  if (err.where) lines.push(`  ${c.dim('at:')} ${err.where}`);
  if (err.hint) lines.push(`  ${c.cyan('fix:')} ${err.hint}`);
  return `${lines.join('\n')}\n`;
}

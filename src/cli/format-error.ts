import type { CapiformError } from '../errors.js';
import type { CliIO } from './context.js';

/** One error, as a user reads it: `Error: <message>` then where and how to fix it. No stack trace. */
export function formatError(err: CapiformError, _io: CliIO): string {
  const lines = [`Error: ${err.message}`];
  if (err.where) lines.push(`  at: ${err.where}`);
  if (err.hint) lines.push(`  fix: ${err.hint}`);
  return `${lines.join('\n')}\n`;
}

/**
 * Whether and how richly a stream gets colours, decided once for every printer (errors, warnings, diff, notes), the
 * way other command-line tools decide it:
 * - `NO_COLOR` (any non-empty value, https://no-color.org) turns colours off, whatever else is set;
 * - `FORCE_COLOR` turns them on even when the stream is not a terminal: `0`/`false` off, `1`/`true`/empty 16 colours,
 *   `2` 256 colours, `3` true colour (Node's and chalk's levels);
 * - otherwise colours only on a terminal whose `TERM` is not `dumb`.
 */
import pc from 'picocolors';
import type { CliIO } from './context.js';

/** 0 none, 1 basic 16 colours, 2 256 colours, 3 true colour. */
export type ColorLevel = 0 | 1 | 2 | 3;

export function colorLevel(env: NodeJS.ProcessEnv, isTTY: boolean): ColorLevel {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return 0;
  const force = env.FORCE_COLOR;
  if (force !== undefined) {
    if (force === '' || force === 'true') return 1;
    if (force === 'false') return 0;
    const n = Number.parseInt(force, 10);
    if (Number.isNaN(n) || n <= 0) return 0;
    return Math.min(n, 3) as ColorLevel;
  }
  if (!isTTY || env.TERM === 'dumb') return 0;
  if (env.COLORTERM === 'truecolor' || env.COLORTERM === '24bit') return 3;
  if (env.TERM !== undefined && /-256(color)?$/.test(env.TERM)) return 2;
  return 1;
}

export type Colors = ReturnType<typeof pc.createColors>;

/** The colour functions for a stream of the CLI: identity functions when that stream gets no colours. */
export function colorsFor(io: CliIO, stream: 'stdout' | 'stderr'): Colors {
  const tty = stream === 'stderr' ? io.isTTY : (io.stdoutIsTTY ?? io.isTTY);
  return pc.createColors(colorLevel(io.env, tty) > 0);
}

import { describe, expect, it } from 'vitest';
import { colorLevel } from '../src/cli/colors.js';
import { runCli } from './helpers/cli.js';

const esc = '\u001b[';

describe('colours: NO_COLOR, FORCE_COLOR, TERM=dumb and terminals, as other CLIs decide them', () => {
  it('colours a terminal, not a pipe or a file', () => {
    expect(colorLevel({ TERM: 'xterm' }, true)).toBe(1);
    expect(colorLevel({ TERM: 'xterm-256color' }, true)).toBe(2);
    expect(colorLevel({ TERM: 'xterm', COLORTERM: 'truecolor' }, true)).toBe(3);
    expect(colorLevel({ TERM: 'xterm' }, false)).toBe(0);
  });

  it('TERM=dumb turns colours off on a terminal', () => {
    expect(colorLevel({ TERM: 'dumb' }, true)).toBe(0);
  });

  it('FORCE_COLOR turns colours on off a terminal, at the level it names; 0 and false turn them off', () => {
    expect(colorLevel({ FORCE_COLOR: '' }, false)).toBe(1);
    expect(colorLevel({ FORCE_COLOR: 'true' }, false)).toBe(1);
    expect(colorLevel({ FORCE_COLOR: '1' }, false)).toBe(1);
    expect(colorLevel({ FORCE_COLOR: '2' }, false)).toBe(2);
    expect(colorLevel({ FORCE_COLOR: '3' }, false)).toBe(3);
    expect(colorLevel({ FORCE_COLOR: '0' }, true)).toBe(0);
    expect(colorLevel({ FORCE_COLOR: 'false' }, true)).toBe(0);
    expect(colorLevel({ FORCE_COLOR: '1', TERM: 'dumb' }, false)).toBe(1);
  });

  it('NO_COLOR (non-empty) wins over everything; an empty NO_COLOR is ignored', () => {
    expect(colorLevel({ NO_COLOR: '1', FORCE_COLOR: '3' }, true)).toBe(0);
    expect(colorLevel({ NO_COLOR: '' }, true)).toBe(1);
  });

  it('error messages follow the same rule', async () => {
    const forced = await runCli(['render', '--frob'], { env: { PATH: process.env.PATH, FORCE_COLOR: '1' } });
    expect(forced.code).toBe(2);
    expect(forced.stderr).toContain(esc);
    const piped = await runCli(['render', '--frob'], { isTTY: true, env: { PATH: process.env.PATH, TERM: 'dumb' } });
    expect(piped.stderr).not.toContain(esc);
    expect(piped.stderr).toMatch(/^Error: unknown option '--frob'/);
    const none = await runCli(['render', '--frob'], { isTTY: true, env: { PATH: process.env.PATH, NO_COLOR: '1' } });
    expect(none.stderr).not.toContain(esc);
  });
});

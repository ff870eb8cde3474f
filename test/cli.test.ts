import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';

describe('capiform CLI basics', () => {
  it('prints help and exits 0', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: capiform');
  });

  it('rejects an unknown command with exit 2', async () => {
    const r = await runCli(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown command 'frobnicate'");
  });

  it('rejects an unknown option with exit 2', async () => {
    const r = await runCli(['--frob']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown option '--frob'");
  });
});

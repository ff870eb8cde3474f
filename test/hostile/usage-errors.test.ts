/** Command-line mistakes print capiform's `Error:` / `fix:` format and exit 2, never commander's own `error:` line. */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { testdir } from '../helpers/testdir.js';

async function usage(argv: string[]) {
  const cwd = testdir();
  const r = await runCli(argv, { cwd });
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).not.toMatch(/^error:/m);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  // A usage error never touches the project.
  expect(readdirSync(cwd)).toEqual([]);
  return r.stderr;
}

describe('usage errors', () => {
  it('an unknown command names it and suggests the close one', async () => {
    expect(await usage(['rendr'])).toBe(
      "Error: unknown command 'rendr'\n  fix: did you mean `capiform render`? `capiform --help` lists the commands\n",
    );
  });

  it('an unknown command with nothing close points at the command list', async () => {
    expect(await usage(['frobnicate'])).toBe("Error: unknown command 'frobnicate'\n  fix: `capiform --help` lists the commands\n");
  });

  it('an unknown flag names the flag and the command whose options to read', async () => {
    expect(await usage(['render', '--frob'])).toBe(
      "Error: unknown option '--frob'\n  fix: did you mean --frozen? `capiform render --help` lists its options\n",
    );
    expect(await usage(['generate', 'provider', '--zzz'])).toBe(
      "Error: unknown option '--zzz'\n  fix: `capiform generate provider --help` lists its options\n",
    );
  });

  it('an unknown choice lists the allowed ones', async () => {
    expect(await usage(['diff', '--format', 'xml'])).toBe(
      "Error: option '--format <format>' argument 'xml' is invalid. Allowed choices are text, markdown, json.\n  fix: use one of: text, markdown, json\n",
    );
  });

  it('a flag without its value says how to give it', async () => {
    expect(await usage(['render', '--config'])).toBe(
      "Error: option '--config <file>' argument missing\n  fix: give the option a value: --config <file>\n",
    );
  });

  it('a missing argument points at the command help', async () => {
    expect(await usage(['bundle', 'verify'])).toBe(
      "Error: missing required argument 'file'\n  fix: `capiform bundle verify --help` shows what the command needs\n",
    );
  });

  it('an extra argument points at the command help', async () => {
    expect(await usage(['render', 'extra'])).toBe(
      "Error: too many arguments for 'render'. Expected 0 arguments but got 1.\n  fix: `capiform render --help` shows the arguments it takes\n",
    );
  });
});

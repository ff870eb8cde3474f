import { main } from '../../src/cli/main.js';
import type { CliIO } from '../../src/cli/context.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process with captured output, a fixed environment and optional stdin. */
export async function runCli(
  argv: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; stdin?: string | Uint8Array; isTTY?: boolean } = {},
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const io: CliIO = {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    readStdin: async () =>
      typeof opts.stdin === 'string' ? new TextEncoder().encode(opts.stdin) : (opts.stdin ?? new Uint8Array()),
    env: opts.env ?? { PATH: process.env.PATH, HOME: process.env.HOME },
    cwd: opts.cwd ?? process.cwd(),
    isTTY: opts.isTTY ?? false,
  };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

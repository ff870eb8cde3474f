/** What a command may touch of the outside world. Tests pass their own; the bin passes the process's. */
export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Reads all of standard input (used by `--from -`). */
  readStdin: () => Promise<Uint8Array>;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Whether stderr is a terminal (progress and colours only then). */
  isTTY: boolean;
}

export function processIO(): CliIO {
  return {
    stdout: (text) => {
      process.stdout.write(text);
    },
    stderr: (text) => {
      process.stderr.write(text);
    },
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    env: process.env,
    cwd: process.cwd(),
    isTTY: Boolean(process.stderr.isTTY),
  };
}

/** Options every command accepts. */
export interface GlobalOptions {
  json?: boolean;
  quiet?: boolean;
}

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
  /** Whether stdout is a terminal; when absent, stdout is taken to be like stderr. */
  stdoutIsTTY?: boolean;
}

/**
 * A writer to stdout or stderr that stops quietly once the reader has gone (`capiform diff | head`): EPIPE is how a
 * pipe says nobody reads any more, not a failure of the command, which still finishes and exits with its own code.
 * Without a listener Node turns the stream's error event into an uncaught exception with a stack.
 */
function streamWriter(stream: NodeJS.WriteStream): (text: string) => void {
  let gone = false;
  stream.on('error', (err: NodeJS.ErrnoException) => {
    gone = true;
    // A reader closing early is normal; any other write failure (a full disk behind `>`) must not pass silently.
    if (err.code !== 'EPIPE' && stream !== process.stderr && !process.stderr.destroyed) {
      process.stderr.write(`Error: cannot write to standard output: ${err.message}\n`);
    }
  });
  return (text) => {
    if (!gone && !stream.destroyed) stream.write(text);
  };
}

let processWriters: { stdout: (text: string) => void; stderr: (text: string) => void } | undefined;

export function processIO(): CliIO {
  // One listener per stream, however many times the CLI runs in this process.
  processWriters ??= { stdout: streamWriter(process.stdout), stderr: streamWriter(process.stderr) };
  const writers = processWriters;
  return {
    stdout: writers.stdout,
    stderr: writers.stderr,
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    env: process.env,
    cwd: process.cwd(),
    isTTY: Boolean(process.stderr.isTTY),
    stdoutIsTTY: Boolean(process.stdout.isTTY),
  };
}

/** Options every command accepts. */
export interface GlobalOptions {
  json?: boolean;
  quiet?: boolean;
}

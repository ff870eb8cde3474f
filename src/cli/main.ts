import { Command, CommanderError } from 'commander';
import { CapiformError, ExitCode } from '../errors.js';
import { processIO, type CliIO } from './context.js';
import { commandsFor, type RegisterCommand } from './commands/index.js';
import { formatError } from './format-error.js';
import { commandPathFor, usageErrorFrom } from './usage-error.js';
import { onWarning } from '../yaml/index.js';
import { capiformVersion } from '../version.js';
import { fsUserError } from './fs-error.js';
import { currentExit } from './exit-status.js';
import { colorsFor } from './colors.js';
import { setWorkBounds, workBoundsFromEnv } from '../go/index.js';

/** Builds the commander program; every command registers itself from `commands/`. */
export function buildProgram(io: CliIO, commands: RegisterCommand[]): Command {
  const program = new Command('capiform')
    .description('Static, clusterctl-exact generator for Kubernetes Cluster API manifests.')
    .version(capiformVersion(), '-V, --version')
    .option('--json', 'machine-readable output')
    .option('-q, --quiet', 'print nothing but results and errors')
    .showHelpAfterError(false)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout(s),
      writeErr: (s) => io.stderr(s),
      // Parse errors are printed by main() in capiform's error format (usage-error.ts).
      outputError: () => {},
    });
  for (const register of commands) register(program, io);
  return program;
}

/** Runs the CLI and returns the exit code. Never throws. */
export async function main(argv: string[], io: CliIO = processIO()): Promise<number> {
  const program = buildProgram(io, await commandsFor(argv));
  // The same upstream file may be parsed once per cluster: each warning is printed once per run.
  const warned = new Set<string>();
  const stopWarnings = onWarning((message) => {
    if (warned.has(message)) return;
    warned.add(message);
    io.stderr(`${colorsFor(io, 'stderr').yellow('Warning:')} ${message}\n`);
  });
  try {
    // Every run starts from the defaults: an in-process caller may run the CLI again with another environment.
    setWorkBounds(workBoundsFromEnv(io.env));
    await program.parseAsync(argv, { from: 'user' });
    return currentExit(program);
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version end through here with exit code 0.
      if (err.exitCode === 0) return ExitCode.ok;
      // `capiform` alone prints the help and ends with commander.help: not an error to explain.
      if (err.code === 'commander.help' || err.code === 'commander.helpDisplayed') return ExitCode.input;
      io.stderr(formatError(usageErrorFrom(err, commandPathFor(program, argv)), io));
      return ExitCode.input;
    }
    const userError = err instanceof CapiformError ? err : fsUserError(err);
    if (userError) {
      io.stderr(formatError(userError, io));
      return userError.exitCode;
    }
    io.stderr(
      `capiform: internal error (this is a bug; please report it with the command you ran):\n${
        err instanceof Error ? (err.stack ?? err.message) : String(err)
      }\n`,
    );
    return ExitCode.internal;
  } finally {
    stopWarnings();
  }
}

/**
 * A command's exit status that is not an error (1: `--check` or `--exit-code` found differences), carried on the
 * commander program from the command that sets it to main(), which returns it.
 */
import type { Command } from 'commander';
import { ExitCode } from '../errors.js';

interface WithExit {
  capiformExitCode?: number;
}

/** Lets a command report a non-error exit status (1 for differences) without throwing. */
export function setExitCode(cmd: Command, code: number): void {
  let root: Command = cmd;
  while (root.parent) root = root.parent;
  (root as Command & WithExit).capiformExitCode = code;
}

/** The status a command set, else 0. */
export function currentExit(program: Command): number {
  return (program as Command & WithExit).capiformExitCode ?? ExitCode.ok;
}

/**
 * commander's parse errors as capiform usage errors: the README's `Error:` / `fix:` format and exit 2, instead of
 * commander's own lowercase `error: …` line.
 */
import type { Command, CommanderError } from 'commander';
import { UsageError } from '../errors.js';

/** The command a parse error is about: the longest run of command names at the start of argv's words. */
export function commandPathFor(program: Command, argv: readonly string[]): string[] {
  const path: string[] = [];
  let cmd = program;
  for (const arg of argv) {
    if (arg.startsWith('-')) continue;
    const sub = cmd.commands.find((c) => c.name() === arg || c.aliases().includes(arg));
    if (!sub) break;
    path.push(sub.name());
    cmd = sub;
  }
  return path;
}

export function usageErrorFrom(err: CommanderError, commandPath: readonly string[]): UsageError {
  const [first = '', ...rest] = err.message.split('\n');
  const message = first.replace(/^error: /, '');
  // commander's own suggestion, `(Did you mean --frozen?)`, is the best fix when it has one.
  const suggestion = /^\(Did you mean (.+)\?\)$/.exec(rest.join(' ').trim())?.[1];
  const name = ['capiform', ...commandPath].join(' ');
  const help = `\`${name} --help\``;
  let hint: string;
  switch (err.code) {
    case 'commander.unknownCommand':
      hint = suggestion ? `did you mean \`capiform ${suggestion}\`? ${help} lists the commands` : `${help} lists the commands`;
      break;
    case 'commander.unknownOption':
      hint = suggestion ? `did you mean ${suggestion}? ${help} lists its options` : `${help} lists its options`;
      break;
    case 'commander.invalidArgument': {
      const choices = /Allowed choices are (.+)\.$/.exec(message)?.[1];
      hint = choices ? `use one of: ${choices}` : `see ${help} for the accepted values`;
      break;
    }
    case 'commander.optionMissingArgument': {
      const flag = /^option '([^']+)' argument missing/.exec(message)?.[1];
      hint = flag ? `give the option a value: ${flag}` : `see ${help}`;
      break;
    }
    case 'commander.missingArgument':
    case 'commander.missingMandatoryOptionValue':
      hint = `${help} shows what the command needs`;
      break;
    case 'commander.excessArguments':
      hint = `${help} shows the arguments it takes`;
      break;
    default:
      hint = `see ${help}`;
  }
  return new UsageError(message, { hint }, usageCode(err.code));
}

function usageCode(commanderCode: string): string {
  const codes: Record<string, string> = {
    'commander.unknownCommand': 'E_USAGE_UNKNOWN_COMMAND',
    'commander.unknownOption': 'E_USAGE_UNKNOWN_OPTION',
    'commander.invalidArgument': 'E_USAGE_INVALID_VALUE',
    'commander.optionMissingArgument': 'E_USAGE_MISSING_VALUE',
    'commander.missingArgument': 'E_USAGE_MISSING_ARGUMENT',
    'commander.excessArguments': 'E_USAGE_EXTRA_ARGUMENT',
  };
  return codes[commanderCode] ?? 'E_USAGE';
}

import type { Command } from 'commander';
import type { CliIO } from '../context.js';

export type RegisterCommand = (program: Command, io: CliIO) => void;

/**
 * Every top-level command, in the order `--help` lists them. Each is loaded only when it runs (or for `--help`), so
 * `capiform generate` does not pay for diff, plan or the pipeline's dependencies at start-up.
 */
export const commandModules: Record<string, () => Promise<RegisterCommand>> = {
  init: async () => (await import('./init.js')).registerInit,
  generate: async () => (await import('./generate.js')).registerGenerate,
  config: async () => (await import('./config.js')).registerConfig,
  diff: async () => (await import('./diff.js')).registerDiff,
  affected: async () => (await import('./affected.js')).registerAffected,
  plan: async () => (await import('./plan.js')).registerPlan,
  images: async () => (await import('./images.js')).registerImages,
  bundle: async () => (await import('./bundle.js')).registerBundle,
  lock: async () => (await import('./lock.js')).registerLock,
  render: async () => (await import('./render.js')).registerRender,
};

/** The registrations needed for `argv`: just the named command, or all of them for help and unknown commands. */
export async function commandsFor(argv: string[]): Promise<RegisterCommand[]> {
  const name = argv.find((arg) => !arg.startsWith('-'));
  const one = name === undefined ? undefined : commandModules[name];
  if (one && !argv.includes('--help') && !argv.includes('-h')) return [await one()];
  if (name === undefined && (argv.includes('--version') || argv.includes('-V'))) return [];
  return Promise.all(Object.values(commandModules).map((load) => load()));
}

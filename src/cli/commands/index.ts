import type { Command } from 'commander';
import type { CliIO } from '../context.js';
import { registerBundle } from './bundle.js';
import { registerConfig } from './config.js';
import { registerDiff } from './diff.js';
import { registerImages } from './images.js';
import { registerPlan } from './plan.js';
import { registerGenerate } from './generate.js';

export type RegisterCommand = (program: Command, io: CliIO) => void;

/** Every top-level command, in the order `--help` lists them. */
export const commands: RegisterCommand[] = [registerGenerate, registerConfig, registerDiff, registerPlan, registerImages, registerBundle];

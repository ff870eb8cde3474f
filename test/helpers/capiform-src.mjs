#!/usr/bin/env node
// Runs the CLI from the TypeScript sources (no build), for tests that spawn a real process (crash safety).
import { createJiti } from 'jiti';

const jiti = createJiti(import.meta.url);
const { main } = await jiti.import('../../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));

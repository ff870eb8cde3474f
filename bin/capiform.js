#!/usr/bin/env node
// Thin launcher: the CLI lives in dist/ (built by `npm ci` through the prepare script).
import { main } from '../dist/cli/main.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    // main() maps every error to an exit code itself; reaching this is a bug.
    process.stderr.write(`capiform: internal error: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exitCode = 4;
  },
);

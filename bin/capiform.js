#!/usr/bin/env node
// Thin launcher: the CLI lives in dist/ (built by `npm ci` through the prepare script). The bundled CLI
// (dist/cli-bundle/cli.js: one module, and a chunk for each part loaded lazily) starts in a fraction of the time tsc's
// ~150 separate modules take to resolve and compile; tsc's dist/cli/main.js runs when the bundle was not built.
import { existsSync } from 'node:fs';

const bundled = new URL('../dist/cli-bundle/cli.js', import.meta.url);
const { main } = await import(existsSync(bundled) ? bundled.href : '../dist/cli/main.js');

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

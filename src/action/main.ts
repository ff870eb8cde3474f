/** The Action's entry (dist/cli-bundle/action.js, loaded by action/main.js): the process's environment and stdout. */
import { runAction } from './index.js';

runAction({ env: process.env, stdout: (t) => process.stdout.write(t) }).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    // runAction turns every capiform error into an annotation; reaching this is a bug. No stack: it could hold input.
    process.stdout.write(`::error title=capiform::internal error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 4;
  },
);

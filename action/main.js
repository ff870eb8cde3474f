// The GitHub Action's launcher (action.yml, `runs.using: node24`). The Action's code is capiform's own build, which
// a checkout of this repository at a tag does not carry (dist/ is built, not committed): it runs the capiform the
// project installed (`npm ci`, capiform a devDependency: the version its lock was made with), or a build beside this
// file (a checkout where `npm ci` ran). Nothing is downloaded here.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const workspace = process.env.GITHUB_WORKSPACE || process.cwd();
const workingDirectory = (process.env['INPUT_WORKING-DIRECTORY'] || '.').trim();
const here = join(import.meta.dirname, '..');
const candidates = [join(workspace, workingDirectory, 'node_modules', 'capiform'), join(workspace, 'node_modules', 'capiform'), here];
const root = candidates.find((dir) => existsSync(join(dir, 'dist', 'cli-bundle', 'action.js')));

if (root === undefined) {
  process.stdout.write(
    '::error title=capiform::capiform is not installed in this job: add it to the project (npm install --save-dev capiform) and run `npm ci` before this action (see docs/github-action.md)\n',
  );
  process.exitCode = 2;
} else {
  const version = (dir) => {
    try {
      return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
    } catch {
      return undefined;
    }
  };
  const mine = version(here);
  const theirs = version(root);
  if (root !== here && mine !== undefined && theirs !== undefined && mine !== theirs) {
    process.stdout.write(`::notice title=capiform::the action is v${mine}; it runs the project's capiform v${theirs} (package.json), as \`npx capiform\` does\n`);
  }
  await import(pathToFileURL(join(root, 'dist', 'cli-bundle', 'action.js')).href);
}

// npm's `prepare`: builds dist/ unless it was built from exactly these sources.
//
// npm runs `prepare` after `npm ci` in a clone, when installing capiform from git, before `npm pack` — and, in a
// clone of capiform itself, on every first `npx capiform`: npm runs a project's own bin by installing the project
// into its npx cache, which runs `prepare` again (a full tsc and esbuild build, about a minute). The build records a
// digest of its inputs (`node scripts/prepare.mjs --stamp`, its last step); when the inputs still have that digest,
// there is nothing to build.
//
//   node scripts/prepare.mjs          # build when the sources changed since the last build
//   node scripts/prepare.mjs --stamp  # record that dist/ is built from the current sources
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const stamp = join(root, 'dist', '.build-inputs');
/** What the build reads: the sources and the scripts and settings that turn them into dist/. */
const inputs = ['src', 'package.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/bundle-cli.mjs', 'scripts/stamp-code-digest.mjs'];
/** What a complete build leaves behind. */
const outputs = ['dist/index.js', 'dist/cli/main.js', 'dist/cli-bundle', 'dist/code-digest.json'];

function files(path) {
  const st = statSync(join(root, path), { throwIfNoEntry: false });
  if (!st) return [];
  if (!st.isDirectory()) return [path];
  return readdirSync(join(root, path)).flatMap((e) => files(join(path, e)));
}

function inputDigest() {
  const h = createHash('sha256');
  for (const f of inputs.flatMap(files).sort()) {
    h.update(f).update('\0').update(readFileSync(join(root, f))).update('\0');
  }
  return `sha256:${h.digest('hex')}`;
}

if (process.argv.includes('--stamp')) {
  writeFileSync(stamp, `${inputDigest()}\n`);
} else {
  const built = existsSync(stamp) && outputs.every((o) => existsSync(join(root, o))) && readFileSync(stamp, 'utf8').trim() === inputDigest();
  if (built) {
    console.log('capiform: dist/ is already built from these sources (npm run build rebuilds it)');
  } else {
    const r = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    process.exit(r.status ?? 1);
  }
}

/**
 * The CLI from the current sources, built once, for tests that spawn real `capiform` processes: through jiti every
 * process spent about two seconds loading the sources. It is built the way `npm run build` builds the shipped CLI
 * (scripts/bundle-cli.mjs: dist/cli-bundle/, with the library beside it for configs that import more than
 * `defineConfig`, and the doors tests import in processes of their own) and run through the real bin/capiform.js, so spawned tests exercise what users run. The copy is
 * written under node_modules/.cache, so the project's packages resolve, in a folder named after a digest of src/,
 * the launcher, the bundler and package.json: test workers and later runs share it, and a change gets a fresh one.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

function files(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = join(dir, name);
      return statSync(p).isDirectory() ? files(p) : [p];
    });
}

/** Folders whose door tests import in processes of their own (compiledDoor). */
const doors = ['cache'] as const;

/** Path of the built module of `src/<folder>/index.ts`, for a script a test runs in a process of its own. */
export function compiledDoor(cli: string, folder: (typeof doors)[number]): string {
  return join(dirname(cli), '..', 'dist', 'doors', `${folder}.js`);
}

/** Path of the launcher (`node <path> render …`) of a build of the current sources. */
export async function compiledCli(): Promise<string> {
  const sources = [...files(join(root, 'src')).filter((p) => !p.endsWith('.test.ts')), join(root, 'bin', 'capiform.js'), join(root, 'scripts', 'bundle-cli.mjs'), import.meta.filename];
  const h = createHash('sha256').update(readFileSync(join(root, 'node_modules/esbuild/package.json'))).update(readFileSync(join(root, 'package.json')));
  for (const p of sources) h.update(relative(root, p)).update('\0').update(readFileSync(p)).update('\0');
  // One folder per checkout: git worktrees can share node_modules, and each removes the copies it no longer needs.
  const checkout = createHash('sha256').update(root).digest('hex').slice(0, 8);
  const out = join(root, 'node_modules', '.cache', `capiform-src-${checkout}`, h.digest('hex').slice(0, 16));
  const entry = join(out, 'bin', 'capiform.js');
  if (existsSync(entry)) {
    utimesSync(out, new Date(), new Date());
    return entry;
  }

  const tmp = `${out}.tmp-${process.pid}-${Date.now()}`;
  const { bundleCli } = await import('../../scripts/bundle-cli.mjs');
  await bundleCli({ root, outRoot: tmp, entries: { index: 'src/index.ts', ...Object.fromEntries(doors.map((d) => [`doors/${d}`, `src/${d}/index.ts`])) } });
  mkdirSync(join(tmp, 'bin'), { recursive: true });
  copyFileSync(join(root, 'bin', 'capiform.js'), join(tmp, 'bin', 'capiform.js'));
  // The version comes from ../../package.json of the bundle; it also makes the .js files ES modules.
  copyFileSync(join(root, 'package.json'), join(tmp, 'package.json'));
  try {
    renameSync(tmp, out);
  } catch {
    // Another worker got there first: its copy is the same.
    rmSync(tmp, { recursive: true, force: true });
    return entry;
  }
  // Copies of other sources go once unused for a day, not at once: another checkout sharing this node_modules (a
  // second worktree, a run on another branch) may be running tests from one right now.
  const dayAgo = Date.now() - 24 * 3600 * 1000;
  for (const name of readdirSync(dirname(out))) {
    const other = join(dirname(out), name);
    if (name !== basename(out) && !name.includes('.tmp-') && statSync(other).mtimeMs < dayAgo) rmSync(other, { recursive: true, force: true });
  }
  return entry;
}

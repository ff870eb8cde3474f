/**
 * The CLI from the current sources, compiled once, for tests that spawn real `capiform` processes: through jiti every
 * process spent about two seconds loading the sources; compiled, it starts like the built CLI. TypeScript's
 * `transpileModule` (no type check, the build's options) writes the output under node_modules/.cache, so the
 * project's packages resolve, in a folder named after a digest of src/ and package.json: test workers and later runs
 * share it, and a change to the sources gets a fresh one.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
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

/** Path of a script that runs the CLI (`node <path> render …`) from a compiled copy of the current sources. */
export async function compiledCli(): Promise<string> {
  const sources = files(join(root, 'src')).filter((p) => !p.endsWith('.test.ts'));
  const h = createHash('sha256').update(readFileSync(join(root, 'node_modules/typescript/package.json'))).update(readFileSync(join(root, 'package.json')));
  for (const p of sources) h.update(relative(root, p)).update('\0').update(readFileSync(p)).update('\0');
  // One folder per checkout: git worktrees can share node_modules, and each removes the copies it no longer needs.
  const checkout = createHash('sha256').update(root).digest('hex').slice(0, 8);
  const out = join(root, 'node_modules', '.cache', `capiform-src-${checkout}`, h.digest('hex').slice(0, 16));
  const entry = join(out, 'cli.mjs');
  if (existsSync(entry)) {
    utimesSync(out, new Date(), new Date());
    return entry;
  }

  // Loaded only to compile: it takes a second.
  const { default: ts } = await import('typescript');
  const tmp = `${out}.tmp-${process.pid}-${Date.now()}`;
  const { options } = ts.convertCompilerOptionsFromJson(
    (JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8')) as { compilerOptions: object }).compilerOptions,
    root,
  );
  for (const p of sources) {
    const target = join(tmp, relative(root, p));
    mkdirSync(dirname(target), { recursive: true });
    if (!p.endsWith('.ts')) {
      copyFileSync(p, target);
      continue;
    }
    const js = ts.transpileModule(readFileSync(p, 'utf8'), {
      compilerOptions: { ...options, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, declaration: false },
      fileName: p,
    });
    writeFileSync(target.replace(/\.ts$/, '.js'), js.outputText);
  }
  // main.ts reads ../../package.json (the version); it also makes the .js files ES modules.
  copyFileSync(join(root, 'package.json'), join(tmp, 'package.json'));
  writeFileSync(
    join(tmp, 'cli.mjs'),
    "import { main } from './src/cli/main.js';\nprocess.exitCode = await main(process.argv.slice(2));\n",
  );
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

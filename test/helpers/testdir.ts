/**
 * `testdir({ 'a/b.yaml': 'text', 'c/': null })` creates a temporary folder holding those files (a key ending in `/`
 * or a `null` value makes an empty directory) and returns its absolute path. Folders are removed when the test process exits.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const created: string[] = [];
let hooked = false;

export type TestFiles = Record<string, string | Uint8Array | null>;

/** Writes `files` under a fresh temporary folder and returns its path. */
export function testdir(files: TestFiles = {}, prefix = 'capiform-test-'): string {
  if (!hooked) {
    hooked = true;
    // Works from inside tests too (vitest hooks cannot be registered there).
    process.on('exit', () => {
      for (const d of created.splice(0)) rmSync(d, { recursive: true, force: true });
    });
  }
  const root = mkdtempSync(join(tmpdir(), prefix));
  created.push(root);
  writeFiles(root, files);
  return root;
}

/** Writes `files` under an existing folder. */
export function writeFiles(root: string, files: TestFiles): void {
  for (const [rel, content] of Object.entries(files)) {
    const path = join(root, rel);
    if (content === null || rel.endsWith('/')) {
      mkdirSync(path, { recursive: true });
      continue;
    }
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
}

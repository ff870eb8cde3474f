/**
 * `testdir({ 'a/b.yaml': 'text', 'c/': null })` creates a temporary folder holding those files (a key ending in `/`
 * or a `null` value makes an empty directory) and returns its absolute path; `tempDir()` an empty one. Every folder
 * made here is removed after the test file's last test (`test/setup/remove-temp-dirs.ts`): a hook on process exit
 * would never run, since vitest ends its workers without letting them exit.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const created: string[] = [];

export type TestFiles = Record<string, string | Uint8Array | null>;

/** A fresh empty temporary folder, removed after the test file. */
export function tempDir(prefix = 'capiform-test-'): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  created.push(root);
  return root;
}

/** Writes `files` under a fresh temporary folder and returns its path. */
export function testdir(files: TestFiles = {}, prefix = 'capiform-test-'): string {
  const root = tempDir(prefix);
  writeFiles(root, files);
  return root;
}

/** Removes every folder `tempDir`/`testdir` made so far. */
export function removeTempDirs(): void {
  for (const d of created.splice(0)) {
    try {
      rmSync(d, { recursive: true, force: true });
    } catch {
      // A test made part of it read-only (not a problem as root, which CI need not be): open it up and retry.
      makeWritable(d);
      rmSync(d, { recursive: true, force: true });
    }
  }
}

function makeWritable(dir: string): void {
  chmodSync(dir, 0o700);
  for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory() && !e.isSymbolicLink()) makeWritable(join(dir, e.name));
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

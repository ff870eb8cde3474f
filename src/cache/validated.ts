/**
 * Inputs already found valid, remembered by digest. Checking a config or a lock against its schema means loading the
 * schema library (zod, ~100 modules) on every run; an input whose exact bytes, checked by the exact same code, passed
 * before passes again, so a marker file named after that digest stands for the check. Only successes are
 * remembered (an invalid input is checked, and explained, every time), and a marker holds no data: what the caller
 * reads is always the input itself.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-write.js';

function markerPath(cacheDir: string, key: string): string {
  return join(cacheDir, 'validated', key.slice(0, 2), key);
}

/** Whether the input with digest `key` (which must cover the checking code too) was found valid before. */
export function validatedBefore(cacheDir: string | undefined, key: string): boolean {
  return cacheDir !== undefined && existsSync(markerPath(cacheDir, key));
}

/** Remembers that the input with digest `key` is valid; best effort. */
export function rememberValid(cacheDir: string | undefined, key: string): void {
  if (cacheDir === undefined) return;
  try {
    writeFileAtomic(markerPath(cacheDir, key), '');
  } catch {
    // a read-only or full cache only costs the check next time
  }
}

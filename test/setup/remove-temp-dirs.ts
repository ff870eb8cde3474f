/**
 * Runs in every test file. The file gets a temporary folder of its own (TMPDIR points there while it runs, for the
 * code under test too); after its last test the folders made with tempDir()/testdir() are removed, and anything else
 * left there — by a test or by capiform itself — fails the file, naming it, before the folder goes.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { removeTempDirs } from '../helpers/testdir.js';

const outer = process.env.TMPDIR;
const own = mkdtempSync(join(tmpdir(), 'file-'));
process.env.TMPDIR = own;

afterAll(() => {
  removeTempDirs();
  const left = readdirSync(own).sort();
  rmSync(own, { recursive: true, force: true });
  if (outer === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = outer;
  if (left.length > 0) {
    throw new Error(
      `this test file left ${left.join(', ')} in the temporary folder: make folders with tempDir()/testdir() from ` +
        'test/helpers/testdir.ts, remove other files in afterEach, and have capiform remove what it creates',
    );
  }
});

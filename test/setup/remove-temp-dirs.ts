/** Runs in every test file: the temporary folders its tests made go when its last test has run. */
import { afterAll } from 'vitest';
import { removeTempDirs } from '../helpers/testdir.js';

afterAll(removeTempDirs);

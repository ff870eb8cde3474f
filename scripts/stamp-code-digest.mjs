// The build's last step: records the digest of the compiled code that the render caches key on (src/version.ts), for
// tsc's dist/ and for the bundled CLI in dist/cli-bundle/, so a command does not read and hash every module to
// compute it.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { stampCodeDigest } from '../dist/version.js';

const bundle = new URL('../dist/cli-bundle/', import.meta.url);
if (existsSync(bundle)) stampCodeDigest(fileURLToPath(bundle));
stampCodeDigest();

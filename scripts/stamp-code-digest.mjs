// The build's last step: records the digest of dist/'s code that the render caches key on (src/version.ts), so a
// command does not read and hash every module to compute it.
import { stampCodeDigest } from '../dist/version.js';

stampCodeDigest();

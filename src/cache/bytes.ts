import { gzipSync } from 'node:zlib';

/** gzip whose bytes depend only on the input: no name, mtime 0 and a fixed OS byte (Node writes the platform's). */
export function gzipReproducible(data: Uint8Array, level = 6): Buffer {
  const gz = gzipSync(data, { level });
  // Header: 1f 8b 08 FLG MTIME(4) XFL OS.
  gz[9] = 3;
  return gz;
}

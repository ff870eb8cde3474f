/**
 * Hand-built tar bytes for tests: entries a well-behaved writer would never produce (absolute paths, `..`,
 * symlinks out of the tree, device files, duplicates). Independent of src/bundle/archive.ts on purpose.
 */
import { gzipSync } from 'node:zlib';

export interface RawEntry {
  name: string;
  /** '0' file, '5' dir, '2' symlink, '1' hard link, '3' char device, '6' FIFO. */
  type?: string;
  data?: string;
  linkname?: string;
}

function octal(n: number, width: number): string {
  return n.toString(8).padStart(width - 1, '0') + '\0';
}

export function rawHeader(e: RawEntry, size: number): Buffer {
  const h = Buffer.alloc(512);
  h.write(e.name, 0, 100, 'utf8');
  h.write(octal(0o644, 8), 100);
  h.write(octal(0, 8), 108);
  h.write(octal(0, 8), 116);
  h.write(octal(size, 12), 124);
  h.write(octal(0, 12), 136);
  h.fill(0x20, 148, 156);
  h.write(e.type ?? '0', 156);
  if (e.linkname) h.write(e.linkname, 157, 100, 'utf8');
  h.write('ustar\0', 257);
  h.write('00', 263);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148);
  return h;
}

export function rawTar(entries: RawEntry[], gzip = true): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    const data = Buffer.from(e.data ?? '');
    parts.push(rawHeader(e, data.length), data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  const tar = Buffer.concat(parts);
  return gzip ? gzipSync(tar) : tar;
}

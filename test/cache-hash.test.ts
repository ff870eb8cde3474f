/**
 * The one sha256 helper: a digest fed in pieces (a tar entry's chunks, a key built from parts) equals the one-shot
 * digest of the same bytes, strings counting as their UTF-8 bytes.
 */
import { describe, expect, it } from 'vitest';
import { sha256Hex, sha256Incremental } from '../src/cache/index.js';

describe('sha256Incremental', () => {
  it('gives the one-shot digest of the concatenated pieces, strings as UTF-8', () => {
    const whole = sha256Hex(Buffer.concat([Buffer.from('name\0'), Buffer.from([0xe2, 0x82, 0xac]), Buffer.from('\0')]));
    expect(sha256Incremental().update('name').update('\0').update(new Uint8Array([0xe2, 0x82, 0xac])).update('\0').hex()).toBe(whole);
    expect(sha256Incremental().update('name\0€\0').hex()).toBe(whole);
  });

  it('of nothing is the empty digest', () => {
    expect(sha256Incremental().hex()).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});

import { describe, expect, it } from 'vitest';
import { decodeStdBase64, parsesAsAuthorizedKey } from './ssh.js';

// Public keys made with ssh-keygen for these cases (public halves only; the private keys were never kept).
const ed25519 = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHeSvQw07eSTZizW2rlIitLCWs7IgAch3ZIv6yfdJYys user@example';
const rsa =
  'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC4xbKGxBx4Q4n5tfqfGvhVZqs9Ukl1WE3kV/KYUvRiZq6EzbNZEWd1/eo+1v8qHPozsHmgsUwiej5jWiKYcP7x+YKCXoVHuTGYfjiqYZg2WHZ3MibQ5OwUYhmPnRznINhbXD/mHTVDah3C1iPWpZuHniSk2Vqu5QmYH8QHBqXC0KgKN08R77qlDQ+4qiz7z/TqgB60Otk7usJxFAsHFnU3ubP0v420oymduq2bzietCNn6J6vErHuwLUXRqDgqJt0E7AlokT0Na+lq29KEu7jeiWD7RyI2/rWovkqkwDgcgJ+JJglneVszSxFr4flBndx+nyIXMZBHuflpucRvUJRN';
const ecdsa = 'ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBJUBEgLmvp4S1EGnBwKKw8eYrLK91mrCpi/bXE9HmoyBEmG9rj6RBl+vhFdk8tVNDGEq4vZhp2O3FAi7+AzokuI= ec';

const parses = (line: string): boolean => parsesAsAuthorizedKey(new TextEncoder().encode(line));

describe('ssh.ParseAuthorizedKey', () => {
  it('finds the keys ssh-keygen writes, with or without a comment and newline', () => {
    expect(parses(ed25519)).toBe(true);
    expect(parses(`${rsa}\n`)).toBe(true);
    expect(parses(ecdsa)).toBe(true);
  });

  it('skips comment lines, blank lines and an options field, as Go does', () => {
    expect(parses(`# deploy key\n\n${ed25519}`)).toBe(true);
    expect(parses(`from="10.0.0.0/8,192.168.0.1",no-pty ${ed25519}`)).toBe(true);
    expect(parses(`command="echo a b" ${rsa}`)).toBe(true);
  });

  it('ignores the key type word: the blob names its algorithm', () => {
    expect(parses(ed25519.replace('ssh-ed25519', 'anything'))).toBe(true);
  });

  it('refuses a line without a key, a truncated blob, trailing bytes and an unknown algorithm', () => {
    expect(parses('')).toBe(false);
    expect(parses('ssh-ed25519')).toBe(false);
    expect(parses('ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAEC')).toBe(false);
    const blob = Buffer.from(ed25519.split(' ')[1] as string, 'base64');
    expect(parses(`ssh-ed25519 ${Buffer.concat([blob, Buffer.from([0])]).toString('base64')}`)).toBe(false);
    const unknown = Buffer.concat([Buffer.from([0, 0, 0, 7]), Buffer.from('ssh-foo'), Buffer.from([0, 0, 0, 0])]);
    expect(parses(`ssh-foo ${unknown.toString('base64')}`)).toBe(false);
  });

  it('refuses an RSA key with an even or too small exponent', () => {
    const mpint = (bytes: number[]): Buffer => Buffer.concat([Buffer.from([0, 0, 0, bytes.length]), Buffer.from(bytes)]);
    const key = (e: number[]): string => `ssh-rsa ${Buffer.concat([Buffer.from([0, 0, 0, 7]), Buffer.from('ssh-rsa'), mpint(e), mpint([0x7f, 1])]).toString('base64')}`;
    expect(parses(key([1, 0, 1]))).toBe(true);
    expect(parses(key([2]))).toBe(false);
    expect(parses(key([1]))).toBe(false);
    expect(parses(key([1, 0, 0, 1]))).toBe(false);
  });
});

describe('base64.StdEncoding.DecodeString', () => {
  it('needs the padding, allows CR and LF, refuses other characters', () => {
    expect(decodeStdBase64('YWJj')).toEqual(new TextEncoder().encode('abc'));
    expect(decodeStdBase64('YWI=')).toEqual(new TextEncoder().encode('ab'));
    expect(decodeStdBase64('YW\r\nI=')).toEqual(new TextEncoder().encode('ab'));
    expect(decodeStdBase64('YWI')).toBeNull();
    expect(decodeStdBase64('YW I=')).toBeNull();
    expect(decodeStdBase64('YW-_')).toBeNull();
    expect(decodeStdBase64('')).toEqual(new Uint8Array());
  });
});

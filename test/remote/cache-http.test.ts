import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IntegrityError } from '../../src/errors.js';
import { ContentCache, defaultCacheDir, sha256Hex } from '../../src/cache/index.js';
import { HttpClient, type ProgressEvent, progressMode, progressReporter } from '../../src/resolve/index.js';
import { goproxySchemeAndHost } from '../../src/resolve/goproxy/index.js';
import { FakeRemotes } from './fake-remotes.js';
import { tempDir } from './setup.js';

describe('content-addressed cache', () => {
  it('stores by sha256, verifies on read, names the file and both digests when corrupt', async () => {
    const cache = new ContentCache(tempDir());
    const sha = await cache.put(new TextEncoder().encode('hello'));
    expect(sha).toBe(sha256Hex('hello'));
    expect(new TextDecoder().decode((await cache.get(sha))!)).toBe('hello');
    expect(await cache.get(sha256Hex('other'))).toBeNull();
    writeFileSync(cache.blobPath(sha), 'tampered');
    const err = (await cache.get(sha).catch((e: unknown) => e)) as IntegrityError;
    expect(err).toBeInstanceOf(IntegrityError);
    expect(err.message).toBe(`cached file ${cache.blobPath(sha)} is corrupt: expected sha256 ${sha}, got ${sha256Hex('tampered')}`);
    expect(err.exitCode).toBe(3);
    expect(await cache.get(sha)).toBeNull(); // the bad blob is gone
  });

  it('refuses bytes that do not match the expected digest', async () => {
    const cache = new ContentCache(tempDir());
    await expect(cache.put(new TextEncoder().encode('x'), '0'.repeat(64), 'core-components.yaml')).rejects.toThrow(
      `sha256 mismatch for core-components.yaml: expected ${'0'.repeat(64)}, got ${sha256Hex('x')}`,
    );
  });

  it('is safe under concurrent writers: no temp files left, one blob', async () => {
    const dir = tempDir();
    const bytes = new Uint8Array(1 << 20).fill(7);
    const shas = await Promise.all(Array.from({ length: 16 }, () => new ContentCache(dir).put(bytes)));
    expect(new Set(shas).size).toBe(1);
    expect(readdirSync(join(dir, 'tmp'))).toEqual([]);
    expect((await new ContentCache(dir).get(shas[0]!))!.byteLength).toBe(1 << 20);
  });

  it('lives at $CAPIFORM_CACHE_DIR, else $XDG_CACHE_HOME/capiform, else ~/.cache/capiform', () => {
    expect(defaultCacheDir({ CAPIFORM_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe('/c');
    expect(defaultCacheDir({ XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe('/x/capiform');
    expect(defaultCacheDir({ HOME: '/h' })).toBe('/h/.cache/capiform');
  });
});

describe('HTTP layer', () => {
  let fake: FakeRemotes;
  beforeEach(async () => {
    fake = await new FakeRemotes().start();
  });
  afterEach(async () => {
    await fake.stop();
  });

  it('counts requests per host and reports progress', async () => {
    fake.files.set('/a.yaml', 'x'.repeat(5000));
    const events: ProgressEvent[] = [];
    const http = new HttpClient({ onProgress: (e) => events.push(e) });
    await http.get({ url: `${fake.origin}/files/a.yaml`, what: 'a.yaml' });
    expect(http.requestCount(`127.0.0.1:${fake.port}`)).toBe(1);
    expect(http.countsByHost()).toEqual({ [`127.0.0.1:${fake.port}`]: 1 });
    expect(events[0]).toMatchObject({ type: 'start', what: 'a.yaml', total: 5000 });
    expect(events.at(-1)).toMatchObject({ type: 'done', what: 'a.yaml', bytes: 5000 });
  });

  it('times out and retries, then fails with a NetworkError', async () => {
    const { createServer } = await import('node:http');
    const server = createServer(() => {
      /* never answers */
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const http = new HttpClient({ timeoutMs: 50, retries: 1, retryDelayMs: 1 });
    await expect(http.request({ url: `http://127.0.0.1:${port}/x` })).rejects.toThrow(/failed after 2 attempts: timed out after 50 ms/);
    server.closeAllConnections();
    server.close();
  });

  it('redacts userinfo and token query parameters in errors', async () => {
    const http = new HttpClient({ retries: 0, timeoutMs: 1000 });
    const err = (await http.request({ url: 'http://user:pw@127.0.0.1:1/x?access_token=abc123' }).catch((e: unknown) => e)) as Error;
    expect(err.message).not.toContain('pw@');
    expect(err.message).not.toContain('abc123');
  });

  it('progress output: TTY line, JSON events, silent in CI / --quiet / no TTY', () => {
    expect(progressMode({ isTTY: true, env: {} })).toBe('tty');
    expect(progressMode({ isTTY: true, env: { CI: 'true' } })).toBe('silent');
    expect(progressMode({ isTTY: true, quiet: true, env: {} })).toBe('silent');
    expect(progressMode({ isTTY: false, env: {} })).toBe('silent');
    expect(progressMode({ isTTY: false, json: true, env: { CI: '1' } })).toBe('json');
    let out = '';
    const json = progressReporter('json', (t) => (out += t))!;
    json({ type: 'progress', what: 'a', url: 'u', bytes: 1 });
    json({ type: 'done', what: 'a', url: 'u', bytes: 2 });
    expect(out).toBe('{"event":"download","what":"a","url":"u","bytes":2,"cached":false}\n');
    out = '';
    progressReporter('tty', (t) => (out += t))!({ type: 'done', what: 'a.yaml', url: 'u', bytes: 2048, total: 2048 });
    expect(out).toBe('\r\x1b[K✓ a.yaml  2.0 kB / 2.0 kB\n');
    expect(progressReporter('silent', () => {})).toBeUndefined();
  });
});

describe('GOPROXY (goproxy.GetSchemeAndHost)', () => {
  it.each([
    ['', 'https', 'proxy.golang.org'],
    ['direct', '', ''],
    ['off', '', ''],
    ['foo.bar.de', 'https', 'foo.bar.de'],
    ['https://foo.bar', 'https', 'foo.bar'],
    ['http://foo.bar', 'http', 'foo.bar'],
    ['https://a.example,direct', 'https', 'a.example'],
    [' ,direct|https://b', '', ''],
  ])('%j → %s %s', (goproxy, scheme, host) => {
    expect(goproxySchemeAndHost(goproxy)).toEqual({ scheme, host });
  });
});

describe('HTTP layer: encoded bodies', () => {
  it('accepts gzip bodies whose content-length is the compressed size', async () => {
    const { createServer } = await import('node:http');
    const { gzipSync } = await import('node:zlib');
    const body = gzipSync(Buffer.from('y'.repeat(10_000)));
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': String(body.length) });
      res.end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const res = await new HttpClient({ retries: 0 }).get({ url: `http://127.0.0.1:${port}/x` });
    expect(res.body.byteLength).toBe(10_000);
    server.close();
  });
});

describe('cache.getOrFetch (lock-pinned reads)', () => {
  it('answers a pinned digest from the cache without fetching; checks fetched bytes against the pin', async () => {
    const cache = new ContentCache(tempDir());
    const bytes = new TextEncoder().encode('components');
    const sha = sha256Hex(bytes);
    let fetches = 0;
    const fetch = async () => {
      fetches++;
      return bytes;
    };
    expect(await cache.getOrFetch(sha, fetch)).toEqual(bytes);
    expect(await cache.getOrFetch(sha, fetch)).toEqual(bytes);
    expect(fetches).toBe(1);
    await expect(cache.getOrFetch('1'.repeat(64), fetch, 'core-components.yaml')).rejects.toThrow(
      `sha256 mismatch for core-components.yaml: expected ${'1'.repeat(64)}, got ${sha}`,
    );
    expect(await cache.getOrFetch(undefined, async () => null)).toBeNull();
  });
});

/**
 * TLS for the loopback servers, so tests can see what capiform sends over https (a token) next to what it sends over
 * plain http (never a token): a throwaway self-signed certificate for 127.0.0.1 made with `openssl`, and a fetch
 * that trusts it (passed to the HttpClient as its `fetch`).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';

export interface LoopbackTls {
  key: Buffer;
  cert: Buffer;
  /** Trusts `cert` and nothing else. */
  fetch: typeof fetch;
}

function opensslAvailable(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export const haveOpenssl = opensslAvailable();

export function loopbackTls(): LoopbackTls {
  const dir = mkdtempSync(join(tmpdir(), 'capiform-tls-'));
  try {
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1',
        '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')],
      { stdio: 'ignore' },
    );
    const key = readFileSync(join(dir, 'key.pem'));
    const cert = readFileSync(join(dir, 'cert.pem'));
    const agent = new Agent({ connect: { ca: cert } });
    // undici's fetch is the one Node's global fetch is built from; the global type describes it.
    const tlsFetch = ((input: Parameters<typeof fetch>[0], init?: RequestInit) =>
      undiciFetch(input as Parameters<typeof undiciFetch>[0], { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher: agent })) as unknown as typeof fetch;
    return { key, cert, fetch: tlsFetch };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Credentials never appear in errors, logs or progress events: URLs lose their userinfo and token-like query
 * parameters, and every secret the HTTP layer has seen in a header is replaced by `***`.
 */

const secretQuery = /([?&](?:access_token|private_token|token|sig|signature|X-Amz-Signature|X-Amz-Credential)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  let out = url.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/@\s"]*@/gi, '$1');
  out = out.replace(secretQuery, '$1***');
  return out;
}

export class Redactor {
  private readonly secrets = new Set<string>();

  add(secret: string | undefined): void {
    if (secret && secret.length >= 4) this.secrets.add(secret);
  }

  /** Remembers the credentials of a request's headers (`Authorization: Bearer x`, `PRIVATE-TOKEN: x`). */
  addFromHeaders(headers: Record<string, string>): void {
    for (const [name, value] of Object.entries(headers)) {
      const key = name.toLowerCase();
      if (key === 'authorization') {
        this.add(value);
        this.add(value.replace(/^(bearer|token|basic)\s+/i, ''));
      } else if (key === 'private-token' || key === 'job-token' || key === 'x-api-key') {
        this.add(value);
      }
    }
  }

  text(text: string): string {
    let out = redactUrl(text);
    for (const s of this.secrets) out = out.split(s).join('***');
    return out;
  }
}

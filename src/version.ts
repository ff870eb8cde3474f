/** capiform's own version, from its package.json (the one next to src/ or dist/). */
import { readFileSync } from 'node:fs';

let memo: string | undefined;

export function capiformVersion(): string {
  memo ??= (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  return memo;
}

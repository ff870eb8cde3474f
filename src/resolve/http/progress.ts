/**
 * Download progress for the CLI: a single updating line on a TTY, one JSON object per finished download with
 * `--json`, nothing with `--quiet`, in CI or when stderr is not a terminal.
 */
import type { ProgressEvent, ProgressListener } from './client.js';

export type ProgressMode = 'tty' | 'json' | 'silent';

export function progressMode(opts: { json?: boolean; quiet?: boolean; isTTY: boolean; env: NodeJS.ProcessEnv }): ProgressMode {
  if (opts.json) return 'json';
  if (opts.quiet) return 'silent';
  const ci = opts.env.CI;
  if (ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false') return 'silent';
  return opts.isTTY ? 'tty' : 'silent';
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** A listener that writes to `write` (stderr for TTY lines; stdout or stderr for JSON events, the caller decides). */
export function progressReporter(mode: ProgressMode, write: (text: string) => void): ProgressListener | undefined {
  if (mode === 'silent') return undefined;
  if (mode === 'json') {
    return (e: ProgressEvent) => {
      if (e.type !== 'done') return;
      write(
        `${JSON.stringify({ event: 'download', what: e.what, url: e.url, bytes: e.bytes, cached: e.cached ?? false })}\n`,
      );
    };
  }
  let last = 0;
  return (e: ProgressEvent) => {
    const now = Date.now();
    if (e.type === 'progress' && now - last < 100) return;
    last = now;
    const amount = e.total !== undefined ? `${size(e.bytes)} / ${size(e.total)}` : size(e.bytes);
    const end = e.type === 'done' ? '\n' : '';
    write(`\r\x1b[K${e.type === 'done' ? '✓' : '↓'} ${e.what}  ${amount}${e.cached ? ' (cached)' : ''}${end}`);
  };
}

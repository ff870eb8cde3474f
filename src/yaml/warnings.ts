/**
 * Warnings about input capiform accepts but a user should look at (an upstream template with a duplicate key).
 * Parsing is synchronous and deep inside rendering, so the CLI subscribes once per run instead of every caller
 * threading a callback through.
 */
const listeners = new Set<(message: string) => void>();

/** Sends `message` to every subscriber; without one (library use, tests) it goes nowhere. */
export function warn(message: string): void {
  for (const l of listeners) l(message);
}

/** Subscribes to warnings; returns the unsubscribe function. */
export function onWarning(listener: (message: string) => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** What a call throws, for tests that check an error's message, exit code, `where` and `hint`. */

export type ThrownError = Error & { exitCode?: number; where?: string; hint?: string };

/**
 * The error `fn` throws; the test fails when it returns. With `type`, an error of another class is rethrown as is,
 * so the test shows the unexpected error itself.
 */
export function thrown<E extends Error = ThrownError>(fn: () => unknown, type?: abstract new (...args: never[]) => E): E {
  try {
    fn();
  } catch (err) {
    if (type && !(err instanceof type)) throw err;
    return err as E;
  }
  throw new Error(`expected ${type ? `a ${type.name}` : 'an error'}`);
}

/**
 * An inter-process lock: one file that exists while a process holds it, naming that process (pid, host, start time,
 * command). It is created complete or not at all: the owner's record is written to a private temporary file and
 * hard-linked to the lock's name, which fails when the name exists (the same exclusivity as O_EXCL, without a
 * window in which a reader could see an empty lock).
 *
 * A process that finds the lock held waits, polling, and says so once; after its timeout it gives up with a
 * LockBusyError (exit 3). A lock whose owner is dead (same host, pid gone or reused) is removed and the wait goes on: the
 * remover first claims that exact lock by exclusively creating a marker named after its contents, then re-reads the
 * lock and removes it only if it is still the dead owner's, so two takers never remove a live lock between them.
 *
 * A leaf module: it knows nothing of trees or lock files, only paths.
 */
import { closeSync, fsyncSync, linkSync, lstatSync, mkdirSync, openSync, readFileSync, rmdirSync, statSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { InputError, LockBusyError } from '../errors.js';
import { sha256Hex } from './hash.js';

export interface LockOwner {
  pid: number;
  hostname: string;
  /** ISO time the lock was taken. */
  since: string;
  /** What holds it, for the waiting notice: `capiform render`. */
  command: string;
}

export interface ProcessLockOptions {
  /** The lock file. */
  file: string;
  /** What the lock protects, for messages: `capi.lock.yaml/tree`. */
  what: string;
  /** Recorded in the lock so a waiting process can say who holds it. */
  command: string;
  /** How long to wait for a busy lock; 0 gives up at once. */
  timeoutSeconds: number;
  /** Receives the one waiting notice (a line without its newline). */
  onWait?: (line: string) => void;
  /** The flag that sets the timeout, for the hint of the timeout error. */
  timeoutFlag?: string;
}

export interface ProcessLock {
  readonly file: string;
  /** Removes the lock if it is still this process's. Safe to call twice. */
  release(): void;
}

/** A marker left by a taker that died while removing a stale lock is ignored after this long. */
const staleMarkerMs = 10_000;

function describe(o: LockOwner): string {
  return `pid ${o.pid} (${o.command}${o.hostname === hostname() ? '' : ` on ${o.hostname}`}, since ${o.since})`;
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const v = JSON.parse(text) as Partial<LockOwner>;
    if (typeof v.pid === 'number' && Number.isInteger(v.pid) && v.pid > 0 && typeof v.hostname === 'string') {
      return { pid: v.pid, hostname: v.hostname, since: typeof v.since === 'string' ? v.since : '?', command: typeof v.command === 'string' ? v.command : '?' };
    }
  } catch {
    // not a lock this module wrote: treated as unreadable below
  }
  return undefined;
}

/** Whether `pid` names a running process on this host (EPERM: it runs, under another user). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** When process `pid` started (ms since the epoch), from /proc on Linux; undefined where that cannot be read. */
function processStart(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at field 3; field 22 is the start in clock ticks.
    const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    const btime = Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1]);
    // Linux reports these in USER_HZ, 100 on every architecture it supports.
    return Number.isFinite(ticks) && Number.isFinite(btime) ? btime * 1000 + ticks * 10 : undefined;
  } catch {
    return undefined;
  }
}

/** Clock and tick granularity between a process's start and the time it wrote in its lock. */
const startSlackMs = 10_000;

/**
 * Whether the lock's owner is known to be gone: it ran on this host and its pid is either free or taken by a process
 * that started after the lock was (a reused pid). Owners on other hosts cannot be checked: never gone.
 */
function ownerGone(o: LockOwner): boolean {
  if (o.hostname !== hostname()) return false;
  if (!pidAlive(o.pid)) return true;
  const started = processStart(o.pid);
  const since = Date.parse(o.since);
  return started !== undefined && Number.isFinite(since) && started > since + startSlackMs;
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

function unlinkQuiet(file: string): void {
  try {
    unlinkSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

function writeDurable(file: string, text: string, flags: string): void {
  const fd = openSync(file, flags, 0o644);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Creates `file` holding `text` only if it does not exist; false when it does. */
function createExclusive(file: string, text: string): boolean {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeDurable(tmp, text, 'w');
  try {
    linkSync(tmp, file);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // File systems without hard links: O_EXCL (a reader may then briefly see an empty lock, read as busy).
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP') {
      try {
        writeDurable(file, text, 'wx');
        return true;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
        throw e;
      }
    }
    throw err;
  } finally {
    unlinkQuiet(tmp);
  }
}

/**
 * Removes the lock if it still holds exactly `text` (a dead owner's record). Whether this process removed it or
 * another taker is on it, the caller simply tries to acquire again.
 */
function removeStale(file: string, text: string): void {
  const marker = `${file}.stale-${sha256Hex(text).slice(0, 16)}`;
  if (!createExclusive(marker, `${process.pid}\n`)) {
    // Another taker is removing this very lock; its marker outlives it only if it died doing so.
    try {
      if (Date.now() - statSync(marker).mtimeMs > staleMarkerMs) unlinkQuiet(marker);
    } catch {
      // gone meanwhile
    }
    return;
  }
  try {
    // Holding the marker, nobody else removes this owner's lock: if it is still there, it stays there until we act.
    if (readText(file) === text) unlinkQuiet(file);
  } finally {
    unlinkQuiet(marker);
  }
}

function kindOf(st: Stats): string {
  if (st.isSymbolicLink()) return 'a symbolic link';
  if (st.isDirectory()) return 'a folder';
  return 'a special file';
}

/**
 * The name is taken by something this module never creates (a folder, a symbolic link, dangling or not, a FIFO):
 * no process holds it and none ever will release it, so waiting would only run into the timeout (or, for a dangling
 * link that reads as absent, forever). Never followed, never removed: it may be the user's.
 */
function assertLockKind(opts: ProcessLockOptions): void {
  let st: Stats;
  try {
    st = lstatSync(opts.file);
  } catch {
    return;
  }
  if (st.isFile()) return;
  throw new InputError(`${opts.file} is ${kindOf(st)}, where capiform keeps the ${opts.what} lock (a file that exists only while a command runs)`, {
    where: opts.file,
    hint: `remove ${opts.file} and run the command again; capiform creates it as a regular file and removes it when done`,
  }, 'E_LOCK_PATH');
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Takes the lock, waiting up to `timeoutSeconds` for its holder; throws LockBusyError after that. */
export async function acquireProcessLock(opts: ProcessLockOptions): Promise<ProcessLock> {
  // A folder made only to hold the lock goes away with it, so a failed command leaves the project as it found it.
  const madeDir = mkdirSync(dirname(opts.file), { recursive: true }) !== undefined;
  const me: LockOwner = { pid: process.pid, hostname: hostname(), since: new Date().toISOString(), command: opts.command };
  const text = `${JSON.stringify(me)}\n`;
  const deadline = Date.now() + Math.max(0, opts.timeoutSeconds) * 1000;
  let noticed = false;
  let pause = 25;
  for (;;) {
    let created: boolean;
    try {
      created = createExclusive(opts.file, text);
    } catch (err) {
      // The folder was removed by a holder that made it, between our mkdir and now: make it again.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      mkdirSync(dirname(opts.file), { recursive: true });
      continue;
    }
    if (created) return held(opts.file, text, madeDir);
    assertLockKind(opts);
    const current = readText(opts.file);
    if (current === undefined) continue; // released between our attempt and the read
    const owner = parseOwner(current);
    if (owner && ownerGone(owner)) {
      removeStale(opts.file, current);
      continue;
    }
    if (Date.now() >= deadline) throw busy(opts, owner);
    if (!noticed) {
      noticed = true;
      opts.onWait?.(`capiform: waiting for ${opts.what} lock held by ${owner ? describe(owner) : `another process (${opts.file})`} …`);
    }
    await sleep(Math.min(pause, Math.max(1, deadline - Date.now())));
    pause = Math.min(pause * 2, 250);
  }
}

/** Runs `fn` holding the lock; releases it however `fn` ends. */
export async function withProcessLock<T>(opts: ProcessLockOptions, fn: () => Promise<T>): Promise<T> {
  const lock = await acquireProcessLock(opts);
  try {
    return await fn();
  } finally {
    lock.release();
  }
}

function held(file: string, text: string, madeDir: boolean): ProcessLock {
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    process.removeListener('exit', release);
    // Only our own record: a lock removed as stale (we were presumed dead) and retaken is not ours to delete.
    if (readText(file) === text) unlinkQuiet(file);
    if (madeDir) {
      try {
        rmdirSync(dirname(file));
      } catch {
        // not empty (the command wrote there, or another process holds the lock now): it stays
      }
    }
  };
  // A process ending without reaching `finally` (process.exit) still frees the lock; a kill leaves a stale one.
  process.once('exit', release);
  return { file, release };
}

function busy(opts: ProcessLockOptions, owner: LockOwner | undefined): LockBusyError {
  const who = owner ? describe(owner) : 'another process';
  const flag = opts.timeoutFlag ?? '--lock-timeout';
  const stale = owner
    ? owner.hostname === hostname()
      ? ''
      : `; if pid ${owner.pid} no longer runs on ${owner.hostname}, delete ${opts.file}`
    : `; if no capiform runs on this project, delete ${opts.file}`;
  return new LockBusyError(`${opts.what} is locked by ${who}; gave up after ${opts.timeoutSeconds} s`, {
    where: opts.file,
    hint: `wait for it to finish and run the command again, or wait longer with ${flag} <seconds>${stale}`,
  });
}

/**
 * Errors a user can act on. Every error capiform raises on purpose is a CapiformError with a stable `code`,
 * a message that says what went wrong, an optional `where` (file, line, config path) and `hint` (how to fix it),
 * and the documented exit code of its class. The CLI prints these without a stack trace; anything else is a bug
 * and exits 4.
 */

export const ExitCode = {
  ok: 0,
  /** A check or diff found differences (`--check`, `--exit-code`). */
  differences: 1,
  /** Usage, config or input error. */
  input: 2,
  /** Resolution, network or integrity error. */
  resolution: 3,
  /** Internal error (a bug). */
  internal: 4,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export interface ErrorDetails {
  /** Where the problem is: a file path, `file:line`, or a config path such as `providers.infrastructure[1].version`. */
  where?: string;
  /** How to fix it, phrased as an instruction. */
  hint?: string;
  cause?: unknown;
}

export class CapiformError extends Error {
  readonly code: string;
  readonly exitCode: ExitCode;
  readonly where: string | undefined;
  readonly hint: string | undefined;

  constructor(code: string, message: string, exitCode: ExitCode, details: ErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = new.target.name;
    this.code = code;
    this.exitCode = exitCode;
    this.where = details.where;
    this.hint = details.hint;
  }
}

/** Bad command line: unknown flag, missing argument, conflicting options. Exit 2. */
export class UsageError extends CapiformError {
  constructor(message: string, details: ErrorDetails = {}, code = 'E_USAGE') {
    super(code, message, ExitCode.input, details);
  }
}

/** capi.config.* or clusterctl.yaml is malformed or invalid. Exit 2. */
export class ConfigError extends CapiformError {
  constructor(message: string, details: ErrorDetails = {}, code = 'E_CONFIG') {
    super(code, message, ExitCode.input, details);
  }
}

/** A manifest, template or metadata file the user (or a provider) supplied is invalid. Exit 2. */
export class InputError extends CapiformError {
  constructor(message: string, details: ErrorDetails = {}, code = 'E_INPUT') {
    super(code, message, ExitCode.input, details);
  }
}

/** A provider, version, contract or file could not be resolved. Exit 3. */
export class ResolutionError extends CapiformError {
  constructor(message: string, details: ErrorDetails = {}, code = 'E_RESOLUTION') {
    super(code, message, ExitCode.resolution, details);
  }
}

/** The network failed, or a remote answered with an error. Exit 3. */
export class NetworkError extends CapiformError {
  constructor(message: string, details: ErrorDetails = {}, code = 'E_NETWORK') {
    super(code, message, ExitCode.resolution, details);
  }
}

/** Bytes do not match the digest recorded for them. Exit 3. */
export class IntegrityError extends CapiformError {
  constructor(message: string, details: ErrorDetails = {}, code = 'E_INTEGRITY') {
    super(code, message, ExitCode.resolution, details);
  }
}

/** Another capiform process holds a lock this command needs, longer than it was willing to wait. Exit 3. */
export class LockBusyError extends CapiformError {
  constructor(message: string, details: ErrorDetails = {}, code = 'E_LOCK_BUSY') {
    super(code, message, ExitCode.resolution, details);
  }
}

/**
 * Work or memory passed one of the documented bounds (docs/security-bounds.md): a template's work meter, a JSON
 * patch's operations or result size. The message names what exceeded it (cluster, patch, template) and `envName` the
 * environment variable that raises the bound. Exit 3.
 */
export class BoundExceededError extends CapiformError {
  constructor(
    message: string,
    readonly envName: string,
    details: ErrorDetails = {},
    code = 'E_BOUND',
  ) {
    super(code, message, ExitCode.resolution, details);
  }
}

/**
 * A ClusterClass patch failed for a Cluster as it would in CAPI's topology controller (a value template that does not
 * parse or render, a missing variable, a JSON patch that does not apply). The message is CAPI's error text behind a
 * prefix naming the patch, its definition and the template; the fields say the same for programs. Exit 2.
 */
export class TopologyPatchError extends InputError {
  constructor(
    message: string,
    readonly patch: string,
    /** Index in the patch's `definitions`, when the failure belongs to one definition. */
    readonly definitionIndex: number | undefined,
    /** The template the patch was applied to (`Kind namespace/name`), when it belongs to one. */
    readonly template: string | undefined,
    details: ErrorDetails = {},
  ) {
    super(message, details, 'E_TOPOLOGY_PATCH');
  }
}

/** A `--check`/`--exit-code` run found differences. Exit 1. */
export class DifferencesFound extends CapiformError {
  constructor(message: string, details: ErrorDetails = {}, code = 'E_DIFFERENCES') {
    super(code, message, ExitCode.differences, details);
  }
}

/**
 * clusterctl's missing-variables error. The message is exactly clusterctl's; `names` are sorted by UTF-8 bytes
 * (Go `sort.Strings`).
 */
export class MissingVariablesError extends InputError {
  readonly names: string[];
  constructor(names: string[], details: ErrorDetails = {}) {
    super(
      `value for variables [${names.join(', ')}] is not set. Please set the value using os environment variables or the clusterctl config file`,
      details,
      'E_MISSING_VARIABLES',
    );
    this.names = names;
  }
}

/** A drone/envsubst parse error; the message is exactly the library's. */
export class TemplateSyntaxError extends InputError {
  constructor(message: string, details: ErrorDetails = {}) {
    super(message, details, 'E_TEMPLATE_SYNTAX');
  }
}

/**
 * Prefixes an error's message the way clusterctl wraps errors (`failed to perform variable substitution: …`),
 * keeping its class, code and fields.
 */
export function wrapError<T extends CapiformError>(err: T, prefix: string): T {
  err.message = `${prefix}: ${err.message}`;
  return err;
}

export function isCapiformError(err: unknown): err is CapiformError {
  return err instanceof CapiformError;
}

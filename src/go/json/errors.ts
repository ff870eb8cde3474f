/** The errors encoding/json returns, with Go's exact `Error()` texts. */

/** Any error of Go's encoding/json: syntax, unmarshal type, unsupported type or value. */
export class GoJsonError extends Error {}

/** json.SyntaxError: the scanner's message (`invalid character 'i' looking for beginning of value`). */
export class GoJsonSyntaxError extends GoJsonError {
  constructor(
    message: string,
    /** Bytes read (UTF-8) up to and including the offending one, as Go's `SyntaxError.Offset`. */
    readonly offset: number,
  ) {
    super(message);
  }
}

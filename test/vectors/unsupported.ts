/**
 * The only vector ops the runner does not execute, each with the reason. Everything else must have a handler in
 * `handlers/`, or its vectors fail. Keep this list short and honest.
 *
 * Keys use the runner's op key: `clusterctl:<input.op>` or `capi-plan:<file>:<operation>`
 * (`<operation>` is `*` for files whose vectors carry no `input.operation`).
 */
export const unsupported: Record<string, string> = {};

/**
 * Evaluation errors in cel-go's words (`no such key: x`, `division by zero`…), which the API server embeds in
 * `<error> evaluating rule: <rule>`.
 */
export function evaluationMessage(message: string): string {
  let m: RegExpExecArray | null;
  if ((m = /^field not found: (.*)$/.exec(message))) return `no such key: ${m[1]}`;
  if ((m = /^key not found: (.*)$/.exec(message))) return `no such key: ${m[1]}`;
  if (/divide by zero$/.test(message)) return 'division by zero';
  if (/modulus by zero$/.test(message)) return 'modulus by zero';
  if (/overflow/.test(message)) return 'integer overflow';
  if ((m = /^index (-?\d+) out of bounds/.exec(message))) return `index out of bounds: ${m[1]}`;
  if (/^found no matching overload|^unbound function/.test(message)) return `no such overload`;
  return message;
}

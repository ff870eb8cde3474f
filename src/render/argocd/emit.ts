/**
 * The one place this module turns objects into YAML: src/yaml's `manifest` write profile (DESIGN.md "YAML": YAML 1.1
 * quoting, no line folding, `- item` sequences not indented), `---` between documents, a final newline.
 */
import { stringifyYaml } from '../../yaml/index.js';

export function emitYaml(docs: readonly unknown[], header?: string): string {
  const body = docs.map((doc) => stringifyYaml(doc, 'manifest')).join('---\n');
  return header === undefined ? body : `# ${header}\n${body}`;
}

/**
 * The one place this module turns objects into YAML. It follows DESIGN.md "YAML" (YAML 1.1 quoting, no line folding,
 * `- item` sequences not indented, `---` between documents, a final newline).
 * TODO(yaml): emit with `emitManifests` from src/yaml, so that one module owns YAML output.
 */
import { stringify } from 'yaml';

export function emitYaml(docs: readonly unknown[], header?: string): string {
  const body = docs
    .map((doc) => stringify(doc, { version: '1.1', lineWidth: 0, indentSeq: false, aliasDuplicateObjects: false }))
    .join('---\n');
  return header === undefined ? body : `# ${header}\n${body}`;
}

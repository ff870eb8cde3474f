/**
 * src/yaml owns the `yaml` package: no other source file imports it, and callers name a profile (the kind of file
 * they read or write) instead of passing the package's options. The profiles keep the reading each file has always
 * had; these tests pin the differences that make them separate profiles.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseClusterctlConfig } from '../src/config/clusterctl/index.js';
import { decodeMetadata } from '../src/resolve/index.js';
import { decodeYaml, parseYamlValue, stringifyYaml } from '../src/yaml/index.js';

const root = resolve(import.meta.dirname, '..');

/** A module specifier naming the package or one of its subpaths, however it is loaded. */
const yamlImport = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*|\)\s*\(\s*)(['"`])yaml(?:\/[^'"`]*)?\1/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.[cm]?[jt]s$/.test(e.name) ? [path] : [];
  });
}

/** Files of src/ that load the `yaml` package, as paths relative to the repository, with the offending line. */
function yamlImporters(): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(join(root, 'src'))) {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (yamlImport.test(line)) found.push(`${relative(root, file)}:${i + 1}: ${line.trim()}`);
    });
  }
  return found;
}

describe('the yaml package has one owner', () => {
  it('no file outside src/yaml imports the `yaml` package (use a profile of src/yaml/index.ts)', () => {
    const outside = yamlImporters().filter((f) => !f.startsWith('src/yaml/'));
    expect(outside).toEqual([]);
  });

  it('recognises every way of loading the package, so the check above cannot pass by missing one', () => {
    for (const line of [
      "import { stringify } from 'yaml';",
      'import type { Document } from "yaml";',
      "import 'yaml';",
      "const Y = await import('yaml');",
      "const Y = require('yaml');",
      "createRequire(import.meta.url)('yaml')",
      "import { Lexer } from 'yaml/util';",
    ]) {
      expect(yamlImport.test(line), line).toBe(true);
    }
    for (const line of ["format?: 'yaml' | 'json'", "case 'yaml':", ".command('yaml')", "from './yaml.js';", "from 'yaml-lint';"]) {
      expect(yamlImport.test(line), line).toBe(false);
    }
    expect(yamlImporters().some((f) => f.startsWith('src/yaml/package.ts:'))).toBe(true);
  });
});

describe('each kind of file keeps its own reading', () => {
  it('manifests: go-yaml v2 YAML 1.1 scalars (`yes` and `0o17` are not strings)', () => {
    expect(decodeYaml('a: yes\nb: 0o17\nc: 1_000\n')).toEqual({ a: true, b: 15, c: 1000 });
  });

  it('capi.config.yaml and capi.lock.yaml: YAML 1.2 core (`yes` is a string) and a repeated key is an error', () => {
    expect(parseYamlValue('a: yes\nb: 0o17\n')).toEqual({ a: 'yes', b: 15 });
    expect(() => parseYamlValue('a: 1\na: 2\n')).toThrow('mapping key "a" appears more than once');
  });

  it('clusterctl.yaml: yaml.v3 scalars (`yes` is a string, `0o17` an integer)', () => {
    const config = parseClusterctlConfig('A: yes\nB: 0o17\n', { env: {} });
    expect(config.get('A')).toBe('yes');
    expect(config.get('B')).toBe('15');
  });

  it("metadata.yaml: the package's YAML 1.1 schema (a repeated key keeps the last value)", () => {
    const m = decodeMetadata(
      'apiVersion: clusterctl.cluster.x-k8s.io/v1alpha3\nreleaseSeries:\n- {major: 1, minor: 0, contract: v1beta1}\nreleaseSeries:\n- {major: 2, minor: 1, contract: v1beta2}\n',
    );
    expect(m.releaseSeries).toEqual([{ major: 2, minor: 1, contract: 'v1beta2' }]);
  });
});

describe('each kind of file keeps its own writing', () => {
  const value = { answer: 'yes', mode: '0644', url: `https://example.com/${'a'.repeat(120)}`, list: ['x'] };

  it('manifests quote what go-yaml v2 would read as another type, and never fold a line', () => {
    expect(stringifyYaml(value, 'manifest')).toBe(`answer: "yes"\nmode: "0644"\nurl: ${value.url}\nlist:\n- x\n`);
  });

  it('capi.lock.yaml is YAML 1.2: quoted only where 1.2 would read another type, and it reads back as written', () => {
    const text = stringifyYaml(value, 'config');
    expect(text).toBe(`answer: yes\nmode: "0644"\nurl: ${value.url}\nlist:\n- x\n`);
    expect(parseYamlValue(text)).toEqual(value);
  });
});

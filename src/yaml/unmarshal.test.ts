/**
 * `unmarshalYamlToJson`: how CAPI reads the text a patch template renders (`sigs.k8s.io/yaml.Unmarshal` into raw
 * JSON): go-yaml v2's YAML 1.1 scalars, the first document only, null for nothing, and encoding/json's limits.
 */
import { describe, expect, it } from 'vitest';
import { unmarshalYamlToJson, YamlToJsonError } from './index.js';
import { thrown } from '../../test/helpers/thrown.js';

describe('unmarshalYamlToJson', () => {
  it.each([
    ['y', true],
    ['on', true],
    ['No', false],
    ['0644', 420],
    ['0x1F', 31],
    ['1_000', 1000],
    ['1.5e3', 1500],
    ['~', null],
    ['2024-01-02', '2024-01-02'],
    ['"yes"', 'yes'],
    ['map[a:b]', 'map[a:b]'],
  ])('reads %j as go-yaml v2 does', (text, value) => {
    expect(unmarshalYamlToJson(text)).toEqual(value);
  });

  it('gives null for empty output or only comments', () => {
    expect(unmarshalYamlToJson('')).toBeNull();
    expect(unmarshalYamlToJson('\n# nothing\n')).toBeNull();
  });

  it('reads the first document only, even when a later one is invalid', () => {
    expect(unmarshalYamlToJson('a: 1\n---\nb: [')).toEqual({ a: 1 });
    expect(unmarshalYamlToJson('--- x\n')).toBe('x');
  });

  it('writes mapping keys as sigs.k8s.io/yaml does (numbers and booleans as strings), in Go map order', () => {
    expect(JSON.stringify(unmarshalYamlToJson('b: 1\n2: x\ntrue: y\na: 0'))).toBe('{"2":"x","a":0,"b":1,"true":true}');
  });

  it('refuses what encoding/json cannot write', () => {
    expect(thrown(() => unmarshalYamlToJson('[.inf]'), YamlToJsonError).message).toBe(
      'error converting YAML to JSON: json: unsupported value: +Inf',
    );
  });
});

/**
 * How a failed `x-kubernetes-validations` rule reads, form by form, as kube-apiserver 1.35 and later print it
 * (apiextensions-apiserver `validateExpressions` + apimachinery `field.Error`): an object or list is not printed, a
 * scalar is; `message`, `messageExpression` (falling back to the message when it fails), `reason` and `fieldPath`
 * pick the text, error type and field; a rule on the resource root reads `<nil>`.
 */
import { describe, expect, it } from 'vitest';
import { formatFinding, readManifest, validateManifests } from '../src/validate/index.js';

/** A CRD whose root and `spec` carry the rules under test; `spec.size` is 5 in every widget below. */
const crd = (rootRules: string, specRules: string): string => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: widgets.example.com }
spec:
  group: example.com
  names: { kind: Widget, plural: widgets }
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-validations: ${rootRules}
        properties:
          spec:
            type: object
            x-kubernetes-validations: ${specRules}
            properties:
              size: { type: integer, x-kubernetes-validations: [{ rule: self < 3 }] }
              name: { type: string, x-kubernetes-validations: [{ rule: 'self != "x"', messageExpression: '"name " + self + " is taken"' }] }
              tags: { type: array, items: { type: string }, x-kubernetes-validations: [{ rule: self.size() < 2, message: at most one tag }] }
`;

const widget = `apiVersion: example.com/v1
kind: Widget
metadata: { name: w, namespace: a }
spec: { size: 5, name: x, tags: [a, b] }
`;

/** The errors for the widget, with the CRD's rules given one per array item. */
function messages(rootRules: string[], specRules: string[]): string[] {
  const objects = readManifest(`${crd(`[${rootRules.join(', ')}]`, `[${specRules.join(', ')}]`)}---\n${widget}`, 'w.yaml').objects;
  return validateManifests({ objects })
    // The widget's failures only: the CRD's own findings (rules the API server would refuse to create) are not this test's.
    .findings.filter((f) => f.severity === 'error' && f.kind !== 'CustomResourceDefinition')
    .map(formatFinding)
    .map((line) => line.replace(/^w\.yaml:\d+: error: Widget a\/w: /, ''));
}

/** The field-level rules' failures, in the widget's field order. */
const fieldRules = ['spec.size: Invalid value: 5: failed rule: self < 3', 'spec.name: Invalid value: "x": name x is taken', 'spec.tags: Invalid value: at most one tag'];

describe('CEL rule failures read as kube-apiserver prints them', () => {
  it('a scalar shows its value, a list does not, and messageExpression gives the text', () => {
    expect(messages([], [])).toEqual(fieldRules);
  });

  it('a rule on an object prints the message without the object (and failed rule: … without one)', () => {
    expect(messages([], ["{ rule: 'self.size < 3', message: 'spec is too big' }", "{ rule: 'self.size < 3' }"])).toEqual([
      'spec: Invalid value: spec is too big',
      'spec: Invalid value: failed rule: self.size < 3',
      ...fieldRules,
    ]);
  });

  it('messageExpression gives the text; when it cannot be evaluated the message is used', () => {
    const rules = [
      `{ rule: 'self.size < 3', messageExpression: '"size " + string(self.size) + " is over 2"' }`,
      `{ rule: 'self.size < 3', message: 'size is over 2', messageExpression: '"size " + string(self.size / 0)' }`,
    ];
    expect(messages([], rules)).toEqual(['spec: Invalid value: size 5 is over 2', 'spec: Invalid value: size is over 2', ...fieldRules]);
  });

  it('reason picks Forbidden, Required or Duplicate, and fieldPath the field', () => {
    const rules = [
      "{ rule: 'self.size < 3', reason: FieldValueForbidden, message: size is locked }",
      "{ rule: 'self.size < 3', reason: FieldValueRequired, fieldPath: .size, message: a small size is required }",
      "{ rule: 'self.size < 3', reason: FieldValueDuplicate, fieldPath: .tags }",
      "{ rule: 'self.size < 3', reason: FieldValueInvalid, fieldPath: .size }",
    ];
    expect(messages([], rules)).toEqual([
      'spec: Forbidden: size is locked',
      'spec.size: Required value: a small size is required',
      'spec.tags: Duplicate value',
      'spec.size: Invalid value: failed rule: self.size < 3',
      ...fieldRules,
    ]);
  });

  it('a rule on the resource root sees metadata.name and prints its path as <nil>', () => {
    const root = [`{ rule: "self.metadata.name != 'w'", message: the name w is reserved }`, `{ rule: "self.kind == 'Widget' && self.apiVersion == 'example.com/v1'" }`];
    expect(messages(root, [])).toEqual(['<nil>: Invalid value: the name w is reserved', ...fieldRules]);
  });
});

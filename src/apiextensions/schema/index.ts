/**
 * The OpenAPI v3 schema of a ClusterClass variable or a CRD version (apiextensions `JSONSchemaProps`), as written in
 * YAML/JSON. Structural validation and defaulting (../openapi) and CEL rules (../cel) both read it.
 */
export interface ValidationRule {
  rule?: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

export interface JSONSchemaProps {
  type?: string;
  format?: string;
  title?: string;
  description?: string;
  default?: unknown;
  example?: unknown;
  enum?: unknown[];
  nullable?: boolean;
  required?: string[];
  properties?: Record<string, JSONSchemaProps>;
  additionalProperties?: JSONSchemaProps | boolean;
  items?: JSONSchemaProps;
  allOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  maximum?: number;
  minimum?: number;
  exclusiveMaximum?: boolean;
  exclusiveMinimum?: boolean;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  multipleOf?: number;
  maxProperties?: number;
  minProperties?: number;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  'x-kubernetes-validations'?: ValidationRule[];
  /** CAPI's `x-metadata` on variable schemas (labels/annotations for the variable). */
  'x-metadata'?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  [extension: string]: unknown;
}

/**
 * A JSON value kept as its raw text, where a schema's `default`, `example` or `enum` entry has not been decoded yet
 * (CAPI stores them as `apiextensionsv1.JSON`); decoding reports Go's JSON error when the text is not valid JSON.
 */
export class RawJson {
  constructor(readonly text: string) {}
}

/**
 * Manifest text into the objects to check and the schemas they declare: YAML streams (one object per document,
 * `List` kinds unwrapped) and Kubernetes OpenAPI v3 JSON documents.
 */
import { InputError } from '../errors.js';
import { parseDocuments, parseJsonValue, ValueSyntaxError } from '../yaml/index.js';
import { isRecord, type SourceObject } from './findings.js';
import { isOpenApiDocument } from './schemas.js';

export interface ManifestFile {
  objects: SourceObject[];
  /** Kubernetes OpenAPI v3 documents the file held (schemas, not objects). */
  openApiDocuments: Array<{ doc: Record<string, unknown>; file: string }>;
}

/** The objects of one manifest file, each with its document's line. */
export function readManifest(text: string, file: string): ManifestFile {
  const out: ManifestFile = { objects: [], openApiDocuments: [] };
  if (/^\s*\{/.test(text) && file.endsWith('.json')) {
    const value = jsonValue(text, file);
    if (isOpenApiDocument(value)) out.openApiDocuments.push({ doc: value, file });
    else if (isRecord(value)) pushObject(out.objects, value, file, 1);
    return out;
  }
  for (const d of parseDocuments(text, { source: file })) {
    const value: unknown = d.value;
    if (value === null || value === undefined) continue;
    if (isOpenApiDocument(value)) out.openApiDocuments.push({ doc: value, file });
    else if (isRecord(value)) pushObject(out.objects, value, file, d.line);
  }
  return out;
}

/** A JSON file's value; its syntax errors (too deep, a repeated key) are the user's, at their line. */
function jsonValue(text: string, file: string): unknown {
  try {
    return parseJsonValue(text);
  } catch (err) {
    if (!(err instanceof ValueSyntaxError)) throw err;
    const where = err.line === undefined ? file : `${file}:${err.line}${err.col === undefined ? '' : `:${err.col}`}`;
    const hint =
      err.code === 'E_INPUT_TOO_DEEP'
        ? 'flatten the document; Kubernetes objects and OpenAPI documents nest far less deeply'
        : err.code === 'E_DUPLICATE_KEY'
          ? 'keep one of the two keys: which value was meant is ambiguous'
          : 'fix the JSON syntax';
    throw new InputError(`${file} is not valid JSON: ${err.message}`, { where, hint }, err.code);
  }
}

function pushObject(into: SourceObject[], object: Record<string, unknown>, file: string, line: number): void {
  if (Object.keys(object).length === 0) return;
  // `kind: List` (kubectl's output) holds objects; the API server never stores the list itself.
  if (object.kind === 'List' && Array.isArray(object.items)) {
    for (const item of object.items) if (isRecord(item)) into.push({ object: item, file, line });
    return;
  }
  into.push({ object, file, line });
}

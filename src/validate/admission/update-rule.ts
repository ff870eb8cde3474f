import type { Finding, SourceObject } from '../findings.js';

/** A validating webhook's update check: the object in the base tree and the same object in the head tree. */
export type UpdateRule = (before: SourceObject, after: SourceObject) => Finding[];

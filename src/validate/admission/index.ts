/**
 * Admission: what the management cluster's validating webhooks refuse. A door of its own so `diff` can ask about
 * updates without loading the schema validator and CEL.
 */
export { checkUpdates, updateRules, type UpdatePair, type UpdateRule } from './update.js';
export { templateImmutability, templateImmutabilitySource } from './template-immutability.js';
export { clusterVersionCeilingRule } from './webhook-update-rules.js';
export type { SourceObject } from '../findings.js';

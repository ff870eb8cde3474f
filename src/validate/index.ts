/**
 * The validate layer's door: rendered and expanded objects checked against the locked CRDs (structural schema and
 * CEL rules) and the provider-contract lint, between render and plan. Nothing lives here yet.
 */
export {};

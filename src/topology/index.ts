/**
 * The topology layer's door: ClusterClass expansion (blueprint, variables with defaulting and OpenAPI + CEL
 * validation, patches, names, desired state), pure data in and objects out, between lock and render. Nothing lives
 * here yet: the engine is the next piece of work (spec/capi-plan.md §3).
 */
export {};

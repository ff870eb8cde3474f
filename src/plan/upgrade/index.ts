export * from './types.js';
export * from './upgrade-info.js';
export * from './plan.js';
export * from './format.js';
export * from './checks.js';

export * from './discovery-types.js';
export * from './graph.js';
export * from './sequence.js';
export * from './report.js';

/** Go behaviour capiform reproduces byte for byte (DESIGN.md "Layout": the layer just above errors). */
export { goQuote } from './quote.js';

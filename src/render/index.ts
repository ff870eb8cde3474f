/** The render layer's door. */
export { generatedHeader, generatedMark, treeRoots } from './tree/roots.js';

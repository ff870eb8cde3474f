/** The GitHub Action's door: `runAction` reads the runner's environment and runs one mode. */
export { runAction, actionModes } from './run.js';
export { commentBody, commentLimit, fixCommand, type CheckOutcome } from './body.js';
export { commentMarker, maxCommentPages } from './comments.js';
export { branchMatches, defaultRelockActors, defaultRelockBranches } from './relock.js';

export { GitLabRepository, type GitLabRepositoryOptions } from './repository.js';
export { gitlabUrlFormMessage, parseGitLabUrl, type GitLabLocation } from './url.js';

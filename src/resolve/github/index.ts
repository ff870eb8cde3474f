export { GitHubRepository, digestOf, type GitHubRepositoryOptions, type RemoteFileInfo } from './repository.js';
export { createOctokit, defaultGitHubApiUrl, handleGithubErr, type GoGitHubError } from './client.js';
export { componentsPathOf, githubUrlFormMessage, parseGitHubUrl, type GitHubLocation } from './url.js';
export { isSemanticVersion } from './semantic.js';

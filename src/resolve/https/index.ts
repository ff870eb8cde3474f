export { HttpsRepository, type HttpsRepositoryOptions } from './repository.js';

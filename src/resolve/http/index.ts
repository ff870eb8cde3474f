export {
  HttpClient,
  statusText,
  type HttpClientOptions,
  type HttpRequest,
  type HttpResponse,
  type HttpService,
  type ProgressEvent,
  type ProgressListener,
} from './client.js';
export { HttpStatusError, OfflineError, RateLimitError, githubRateLimitMessage } from './errors.js';
export { progressMode, progressReporter, type ProgressMode } from './progress.js';
export { Redactor, redactUrl } from './redact.js';

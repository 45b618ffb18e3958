export * from './types';
export { createElicitationHandler, describeUrl } from './handler';
export { DEFAULT_UPLOAD_MAX_BYTES } from '../files/limits';
export { uploadMultipart, type UploadOptions } from './upload';
export {
  callToolWithUrlElicitation,
  URL_COMPLETION_TIMEOUT_MS,
  urlElicitationsOf,
  UrlElicitationIncompleteError,
  type UrlRetryConnection,
  type UrlRetryOptions,
} from './urlRetry';

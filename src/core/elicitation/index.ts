export * from './types';
export { createElicitationHandler, describeUrl, DEFAULT_UPLOAD_MAX_BYTES } from './handler';
export { uploadMultipart, type UploadOptions } from './upload';
export { callToolWithUrlElicitation, URL_COMPLETION_TIMEOUT_MS, urlElicitationsOf, UrlElicitationIncompleteError, type UrlRetryConnection, type UrlRetryOptions } from './urlRetry';
